import * as fs from "node:fs";
import * as path from "node:path";
import type { KeyObject } from "node:crypto";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import type { TenantRow } from "../tenants/contract";
import { LicenceCheck, LicenceErrorCode, loadPublicKey, verifyLicence } from "./token";
import { Tier, tierRank } from "./tiers";
import { PlanLimits, freePlanLimits } from "./plans";
import { broadcast, call } from "../bus/call";
import { getGlobal } from "../settings/contract";

/** Spec §6/§9: the licence check is cached 5 minutes; FREE applies when it fails. */
export const LICENCE_CACHE_MS = 5 * 60 * 1000;

export interface TierInfo {
  tier: Tier;
  status: "valid" | "none" | LicenceErrorCode;
  code?: string;
  expiresAt: string | null;
  maxUsers: number | null;
  maxConnections: number | null;
  checkedAt: number;
}

/**
 * Licences: verifies each tenant's signed token offline (Ed25519), answers the tenant's tier
 * and plan limits, and lets the platform level apply, remove and block licences.
 */
export function createLicenceService(deps: CoreDeps): ServiceSchema {
  const cfg = deps.config;
  const cache = new Map<number, TierInfo>();

  function publicKey(): KeyObject | undefined {
    const raw = cfg.licencePublicKey ?? readIfExists(path.join(cfg.dataDir, "licence", "public.pem"));
    if (!raw) return undefined;
    return loadPublicKey(raw);
  }
  const installationDomain = () => cfg.licenceDomain ?? new URL(cfg.publicUrl).hostname;

  async function blocklist(ctx: Ctx): Promise<string[]> {
    const v = await getGlobal(ctx, "licenceBlocklist");
    return Array.isArray(v) ? v : [];
  }

  async function check(ctx: Ctx, token: string, tenant: Pick<TenantRow, "id" | "document">): Promise<LicenceCheck> {
    const key = publicKey();
    if (!key) return { ok: false, code: "ERR_LICENSE_INVALID", reason: "no licence public key is configured" };
    const result = verifyLicence(token, {
      publicKey: key,
      domain: installationDomain(),
      document: tenant.document ?? cfg.licenceDocument,
      blocklist: await blocklist(ctx),
    });
    if (result.ok && result.payload.tenantId !== undefined && result.payload.tenantId !== tenant.id) {
      return { ok: false, code: "ERR_LICENSE_WRONG_CODE", reason: "licence issued for another tenant", payload: result.payload };
    }
    return result;
  }

  function toInfo(c: LicenceCheck | null): TierInfo {
    const now = Date.now();
    if (!c) return { tier: "FREE", status: "none", expiresAt: null, maxUsers: null, maxConnections: null, checkedAt: now };
    if (c.ok) {
      return {
        tier: c.tier,
        status: "valid",
        expiresAt: c.payload.expiresAt,
        maxUsers: c.payload.maxUsers ?? null,
        maxConnections: c.payload.maxConnections ?? null,
        checkedAt: now,
      };
    }
    return { tier: "FREE", status: c.code as TierInfo["status"], code: c.code, expiresAt: c.payload?.expiresAt ?? null, maxUsers: null, maxConnections: null, checkedAt: now };
  }

  async function tierOf(ctx: Ctx, tenantId: number): Promise<TierInfo> {
    const hitv = cache.get(tenantId);
    if (hitv && Date.now() - hitv.checkedAt < LICENCE_CACHE_MS) return hitv;
    const tenant = await call(ctx, "tenants.getInternal", { id: tenantId });
    let info: TierInfo;
    try {
      info = toInfo(tenant?.licenseToken ? await check(ctx, tenant.licenseToken, tenant) : null);
    } catch {
      info = toInfo(null); // a failing check means FREE (spec §6)
    }
    cache.set(tenantId, info);
    return info;
  }

  return {
    name: "licence",
    settings: { rest: "/" },
    events: {
      "licence.changed"(ctx: Ctx<{ tenantId?: number }>) {
        if (ctx.params?.tenantId) cache.delete(ctx.params.tenantId);
        else cache.clear();
      },
      "tenants.changed"(ctx: Ctx<{ tenantId: number }>) {
        cache.delete(ctx.params.tenantId);
      },
    },
    actions: {
      tier: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true } },
        handler(ctx: Ctx<{ tenantId: number }>) {
          return tierOf(ctx, ctx.params.tenantId);
        },
      },
      limits: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true } },
        async handler(ctx: Ctx<{ tenantId: number }>): Promise<PlanLimits> {
          const info = await tierOf(ctx, ctx.params.tenantId);
          const tenant = await call(ctx, "tenants.getInternal", { id: ctx.params.tenantId });
          if (info.tier === "FREE") {
            const free = freePlanLimits(cfg.freePlanMaxUsers);
            const limits: PlanLimits = { tier: "FREE", ...free, source: { users: "free", queues: "free", connections: "free", chatflows: "free", contacts: "free" } };
            // A reseller may set a tighter cap than the free plan.
            if (tenant?.maxUsers != null && tenant.maxUsers < free.users!) {
              limits.users = tenant.maxUsers;
              limits.source.users = "tenant";
            }
            return limits;
          }
          // Licences carry no contact cap: paid tiers have unlimited contacts.
          const limits: PlanLimits = { tier: info.tier, users: null, queues: null, connections: null, chatflows: null, contacts: null, source: {} };
          const pick = (kind: "users" | "connections", fromLicence: number | null, fromTenant: number | null | undefined) => {
            if (fromLicence != null) {
              limits[kind] = fromLicence;
              limits.source[kind] = "licence";
            }
            if (fromTenant != null && (limits[kind] === null || fromTenant < limits[kind]!)) {
              limits[kind] = fromTenant;
              limits.source[kind] = kind === "connections" ? "reseller" : "tenant";
            }
          };
          pick("users", info.maxUsers, tenant?.maxUsers);
          pick("connections", info.maxConnections, tenant?.maxConnections);
          return limits;
        },
      },
      info: {
        rest: "GET /auth/license-info",
        access: "user",
        async handler(ctx: Ctx) {
          const info = await tierOf(ctx, ctx.meta.user!.tenantId);
          return {
            licenseType: info.tier,
            tierRank: tierRank(info.tier),
            expiryDate: info.expiresAt,
            status: info.status,
            code: info.code ?? null,
            lastCheck: new Date(info.checkedAt).toISOString(),
            cacheMs: LICENCE_CACHE_MS,
          };
        },
      },
      checkPaidSystem: {
        rest: "GET /settings/check-paid-system",
        access: "user",
        async handler(ctx: Ctx) {
          const info = await tierOf(ctx, ctx.meta.user!.tenantId);
          const isPaidSystem = info.tier !== "FREE";
          return { isPaidSystem, licenseType: info.tier, message: isPaidSystem ? "paid" : "free" };
        },
      },
      publicDetail: {
        rest: "GET /license-detail-public",
        access: "public",
        async handler(ctx: Ctx) {
          const token = await getGlobal(ctx, "licence");
          const c = token?.token ? await check(ctx, token.token, { id: 0, document: null }).catch(() => null) : null;
          const info = toInfo(c);
          return { licenseDetail: { license_type: info.tier, license_expiry: info.expiresAt, status: info.status } };
        },
      },
      apply: {
        rest: "PUT /tenants/:id/license",
        access: "super",
        resource: "tenants",
        // Any non-empty text is checked as a licence, so garbage answers ERR_LICENSE_INVALID.
        params: { id: { type: "number", integer: true, positive: true, convert: true }, token: { type: "string", min: 1, max: 16384 } },
        async handler(ctx: Ctx<{ id: number; token: string }>) {
          const tenant = await call(ctx, "tenants.getInternal", { id: ctx.params.id });
          if (!tenant || tenant.status === "deleted") throw new AppError("ERR_TENANT_NOT_FOUND", { id: ctx.params.id });
          const c = await check(ctx, ctx.params.token.trim(), tenant);
          if (!c.ok) throw new AppError(c.code, { reason: c.reason });
          await call(ctx, "tenants.setLicenseToken", { id: tenant.id, token: ctx.params.token.trim() });
          cache.delete(tenant.id);
          void broadcast(ctx, "licence.changed", { tenantId: tenant.id });
          const info = toInfo(c);
          cache.set(tenant.id, info);
          return { tenantId: tenant.id, licenseType: info.tier, expiryDate: info.expiresAt, status: info.status };
        },
      },
      removeLicence: {
        rest: "DELETE /tenants/:id/license",
        access: "super",
        resource: "tenants",
        params: { id: { type: "number", integer: true, positive: true, convert: true } },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenant = await call(ctx, "tenants.getInternal", { id: ctx.params.id });
          if (!tenant || tenant.status === "deleted") throw new AppError("ERR_TENANT_NOT_FOUND", { id: ctx.params.id });
          await call(ctx, "tenants.setLicenseToken", { id: tenant.id, token: null });
          cache.delete(tenant.id);
          void broadcast(ctx, "licence.changed", { tenantId: tenant.id });
          return { tenantId: tenant.id, licenseType: "FREE" };
        },
      },
      /** The installation-wide licence (global setting "licence"): throws its code when refused. */
      verifyInstallation: {
        visibility: "public",
        params: { token: { type: "string", max: 16384 } },
        async handler(ctx: Ctx<{ token: string }>) {
          const c = await check(ctx, ctx.params.token.trim(), { id: 0, document: null });
          if (!c.ok) throw new AppError(c.code, { reason: c.reason });
          return { tier: c.tier, expiresAt: c.payload.expiresAt };
        },
      },
      validate: {
        rest: "POST /licence/validate",
        access: "super",
        params: { token: { type: "string", min: 1, max: 16384 } },
        async handler(ctx: Ctx<{ token: string }>) {
          const tenant = (await call(ctx, "tenants.getInternal", { id: ctx.meta.user!.tenantId }))!;
          const c = await check(ctx, ctx.params.token.trim(), { id: tenant.id, document: tenant.document });
          return c.ok ? { valid: true, tier: c.tier, payload: c.payload } : { valid: false, code: c.code, reason: c.reason };
        },
      },
      block: {
        rest: "POST /licence/blocklist",
        access: "super",
        params: { lid: { type: "string", min: 1, max: 100 } },
        async handler(ctx: Ctx<{ lid: string }>) {
          if (!ctx.meta.user!.isMaster) throw new AppError("ERR_NO_PERMISSION");
          const list = new Set(await blocklist(ctx));
          list.add(ctx.params.lid);
          await call(ctx, "settings.setGlobal", { key: "licenceBlocklist", value: [...list] });
          cache.clear();
          void broadcast(ctx, "licence.changed", {});
          return { blocked: [...list] };
        },
      },
    },
  };
}

function readIfExists(p: string): string | undefined {
  try {
    return fs.readFileSync(p, "utf8");
  } catch {
    return undefined;
  }
}
