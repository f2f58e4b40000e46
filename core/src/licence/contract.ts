import type { PlanLimits } from "./plans";
import type { Tier } from "./tiers";

/** Actions of the licence service other services call. */
export interface LicenceActions {
  "licence.limits": { params: { tenantId: number }; result: PlanLimits };
  "licence.tier": { params: { tenantId: number }; result: { tier: Tier; expiresAt?: string | null; [k: string]: unknown } };
  /** Refuses (AppError) an installation token that does not verify. */
  "licence.verifyInstallation": { params: { token: string }; result: { tier: Tier; expiresAt: unknown } };
}

export interface LicenceEvents {
  /** Without tenantId: every tenant's licence may have changed (the blocklist). */
  "licence.changed": { tenantId?: number };
}
