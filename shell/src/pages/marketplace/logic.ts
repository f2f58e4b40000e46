/**
 * Pure rules of the marketplace and modules screens (unit-tested in test/marketplace.test.ts):
 * names in the user's language, version order, what a version's button does, the super's
 * three-state decision and why a tenant's admin cannot switch a module on.
 */
import type { DisplayName, InstalledInfo, Tier } from "./types";

/** A plugin's name in `locale`, then pt-BR, then English, then any language, then its id. */
export function localName(displayName: DisplayName | null | undefined, locale: string, id: string): string {
  const d = displayName ?? {};
  const base = locale.slice(0, 2);
  const pick = d[locale] ?? Object.entries(d).find(([l]) => l.slice(0, 2) === base)?.[1] ?? d["pt-BR"] ?? d.en ?? Object.values(d)[0];
  return pick?.trim() ? pick : id;
}

/** Splits "1.2.3-beta.1+build" into numbers and the pre-release (build metadata ignored). */
function parse(v: string): { nums: number[]; pre: string[] } {
  const [core, pre] = v.trim().replace(/^v/i, "").split("+")[0].split(/-(.*)/s, 2) as [string, string | undefined];
  return { nums: core.split(".").map((n) => Number.parseInt(n, 10) || 0), pre: pre ? pre.split(".") : [] };
}

/** Semantic-version order: negative when a < b, 0 when equal, positive when a > b. */
export function compareVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < Math.max(x.nums.length, y.nums.length, 3); i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d) return Math.sign(d);
  }
  // A pre-release comes before its release.
  if (!x.pre.length || !y.pre.length) return x.pre.length === y.pre.length ? 0 : x.pre.length ? -1 : 1;
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/**
 * What installing `version` means for the platform: "install" (nothing installed), "upgrade"
 * (an older version is installed), "downgrade" (a newer one is), "current" (this one is).
 */
export type VersionAction = "install" | "upgrade" | "downgrade" | "current";
export function versionAction(installed: Pick<InstalledInfo, "version"> | null | undefined, version: string): VersionAction {
  if (!installed) return "install";
  const c = compareVersions(version, installed.version);
  return c === 0 ? "current" : c > 0 ? "upgrade" : "downgrade";
}

/** True when a newer version than the installed one is published. */
export function hasUpdate(installed: Pick<InstalledInfo, "version"> | null | undefined, latest: string): boolean {
  return !!installed && compareVersions(latest, installed.version) > 0;
}

/** The super's decision for a tenant as the three-state control shows it, and back. */
export type Decision = "allow" | "block" | "default";
export function decisionOf(v: boolean | null | undefined): Decision {
  return v === true ? "allow" : v === false ? "block" : "default";
}
export function decisionValue(d: Decision): boolean | null {
  return d === "allow" ? true : d === "block" ? false : null;
}

/** Why a tenant's admin cannot switch a module on (null: they can): the platform's refusal comes first. */
export type ModuleBlock = { reason: "notAllowed" } | { reason: "tier"; tier: Tier } | null;
export function moduleBlock(p: { allowed: boolean; tierAllowed: boolean; tier: Tier }): ModuleBlock {
  if (!p.allowed) return { reason: "notAllowed" };
  if (!p.tierAllowed) return { reason: "tier", tier: p.tier };
  return null;
}

/** A byte count for people ("12.5 KB"), with the locale's decimal separator. */
export function formatBytes(n: number | null | undefined, locale: string): string {
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0) return "—";
  const units = ["B", "KB", "MB", "GB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: i === 0 ? 0 : 1 }).format(v)} ${units[i]}`;
}

/** Tag colours of the licence tiers. */
export const TIER_COLORS: Record<Tier, string | undefined> = { FREE: undefined, BASIC: "blue", PLUS: "purple", PREMIUM: "gold" };
