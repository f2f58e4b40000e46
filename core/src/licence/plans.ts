import { AppError } from "../errors/app-error";
import type { Tier } from "./tiers";

export type LimitedKind = "users" | "queues" | "connections" | "chatflows" | "contacts";

/**
 * Contact cap of the free plan (spec §6: "the contact limit shows the count and the
 * maximum"). A constant on purpose: licences carry no contact cap, so paid tiers are unlimited.
 */
export const FREE_PLAN_MAX_CONTACTS = 500;

/**
 * What a tenant may have right now: `null` means unlimited. Computed by the licence service
 * from the tier, the licence's own caps and the caps the reseller set on the tenant.
 */
export interface PlanLimits {
  tier: Tier;
  users: number | null;
  queues: number | null;
  connections: number | null;
  chatflows: number | null;
  contacts: number | null;
  /** Which rule set each cap, for the error code. */
  source: Partial<Record<LimitedKind, "free" | "licence" | "tenant" | "reseller">>;
}

/** Free-plan caps (spec §1, §6): one active queue, one connection, one active chatbot flow, few users. */
export function freePlanLimits(maxUsers: number): Omit<PlanLimits, "tier" | "source"> {
  return { users: maxUsers, queues: 1, connections: 1, chatflows: 1, contacts: FREE_PLAN_MAX_CONTACTS };
}

const FREE_CODES = {
  users: "ERR_FREE_PLAN_USER_LIMIT",
  queues: "ERR_FREE_PLAN_QUEUE_LIMIT",
  connections: "ERR_FREE_PLAN_CONNECTION_LIMIT",
  chatflows: "ERR_FREE_PLAN_CHATFLOW_LIMIT",
  contacts: "ERR_CONTACT_LIMIT",
} as const;

const OTHER_CODES = {
  users: "ERR_USER_LIMIT_EXCEEDED",
  queues: "ERR_FREE_PLAN_VIOLATION",
  connections: "ERR_CONNECTION_LIMIT",
  chatflows: "ERR_FREE_PLAN_VIOLATION",
  contacts: "ERR_CONTACT_LIMIT",
} as const;

/**
 * Throws when one more object of `kind` (`current` exist now, active ones for queues and
 * flows) would pass the cap. Called where objects are created or activated.
 */
export function assertWithinLimit(limits: PlanLimits, kind: LimitedKind, current: number): void {
  const max = limits[kind];
  if (max === null || current < max) return;
  // The shell reads the contact cap from `code` as ERR_CONTACT_LIMIT:<current>:<max> (spec §8, 410).
  if (kind === "contacts") throw new AppError("ERR_CONTACT_LIMIT", { current, max, kind, code: `ERR_CONTACT_LIMIT:${current}:${max}` });
  const source = limits.source[kind];
  if (source === "free") throw new AppError(FREE_CODES[kind], { current, max, kind });
  if (source === "reseller" && kind === "connections") throw new AppError("ERR_RESELLER_CONNECTION_LIMIT", { current, max, kind });
  throw new AppError(OTHER_CODES[kind], { current, max, kind });
}
