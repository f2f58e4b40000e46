/**
 * Licence tiers, lowest first. The position in TIERS is the tier's rank:
 * FREE (0) < BASIC (1) < PLUS (2) < PREMIUM (3). No valid licence means FREE.
 */
export const TIERS = ["FREE", "BASIC", "PLUS", "PREMIUM"] as const;

export type Tier = (typeof TIERS)[number];

/** True when `x` is exactly one of the tier names (case-sensitive). */
export function isTier(x: unknown): x is Tier {
  return typeof x === "string" && (TIERS as readonly string[]).includes(x);
}

/** Rank of a tier: FREE 0, BASIC 1, PLUS 2, PREMIUM 3. Throws on an unknown tier. */
export function tierRank(t: Tier): number {
  const rank = (TIERS as readonly string[]).indexOf(t as string);
  if (rank < 0) throw new Error(`Unknown licence tier: ${String(t)}`);
  return rank;
}

/** True when `have` is `need` or a higher tier. An unknown `have` is treated as FREE. */
export function tierAtLeast(have: Tier, need: Tier): boolean {
  const haveRank = isTier(have) ? tierRank(have) : 0;
  return haveRank >= tierRank(need);
}
