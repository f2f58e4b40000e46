/**
 * Whether a tenant may use a plugin (table tenant_plugins, the plugin host's). Three must say
 * yes, checked in this order:
 * - the platform level allows it for the tenant (PUT /plugins/:id/tenants/:tenantId, super
 *   only: the product has no reseller level apart from super). With no decision recorded the
 *   default policy applies: plugins shipped in the platform's own plugins/ folder are allowed
 *   for every tenant, whatever their tier (the third check below applies it); a plugin installed
 *   from elsewhere only where the super allows it;
 * - the tenant admin's switch is on (PUT /plugins/:id/enabled; on when never set);
 * - the tenant's licence tier covers the plugin's tier.
 *
 * The tenant's settings are asked on every message a channel carries, so a process keeps them
 * a few seconds; every write drops them, here and (through `plugins.changed`) on other nodes.
 */
import * as path from "node:path";
import { Sequelize, UniqueConstraintError } from "sequelize";
import type { IsEnabledResult } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { Tier, tierAtLeast } from "../licence/tiers";
import { defineTenantPlugin } from "./model";
import { AVAILABILITY_ERRORS } from "./contract";
import type { LoadedPlugin, PluginRegistry } from "./registry";
import { call } from "../bus/call";

/** How long a tenant's plugin settings stay in a process's memory (a safety net: changes drop them at once). */
const STATE_TTL_MS = 5_000;

/** A tenant's settings for one plugin: the admin's switch and the super's decision (null: none). */
export interface TenantPluginState {
  enabled: boolean;
  allowed: boolean | null;
}

type StatePatch = { enabled: boolean; updatedBy: number | null } | { allowed: boolean | null; allowedBy: number | null };

export type TenantPlugins = ReturnType<typeof createTenantPlugins>;

export function createTenantPlugins(o: { sequelize: Sequelize; registry: () => PluginRegistry; bundledDir: string }) {
  const model = defineTenantPlugin(o.sequelize);
  /** Tenant → its plugin settings, read at `at`. */
  const stateCache = new Map<number, { at: number; rows: Map<string, TenantPluginState> }>();
  /** Bumped by every write and drop: a read that overlapped one is not cached. */
  let stateGen = 0;

  /** Forgets what this process kept of one tenant's settings (every tenant's without one). */
  const dropState = (tenantId?: number) => {
    stateGen++;
    if (tenantId) stateCache.delete(tenantId);
    else stateCache.clear();
  };

  const isBundled = (p: LoadedPlugin) => p.folder.startsWith(o.bundledDir + path.sep);
  /**
   * The default policy when the super decided nothing for a tenant: the platform's own (bundled)
   * plugins are allowed, whatever their tier, since the licence tier still gates them (a PLUS
   * tenant gets the kanban its plan includes without a reseller's click); anything installed
   * from the marketplace only where the super allows it.
   */
  const allowedByDefault = (p: LoadedPlugin) => isBundled(p);
  const isAllowed = (p: LoadedPlugin, st: TenantPluginState | undefined) => st?.allowed ?? allowedByDefault(p);

  async function tenantTier(ctx: Ctx, tenantId: number): Promise<Tier> {
    try {
      return (await call(ctx, "licence.tier", { tenantId })).tier;
    } catch {
      return "FREE"; // a failing licence check means FREE (spec §6)
    }
  }

  /** The tenant's plugin settings by plugin id (absent: switched on, no decision). */
  async function stateOf(tenantId: number): Promise<Map<string, TenantPluginState>> {
    const hit = stateCache.get(tenantId);
    if (hit && Date.now() - hit.at < STATE_TTL_MS) return hit.rows;
    const at = Date.now();
    const gen = stateGen;
    const rows = await model.findAll({ where: { tenantId }, attributes: ["pluginId", "enabled", "allowed"] });
    const map = new Map(rows.map((r): [string, TenantPluginState] => [r.get("pluginId") as string, { enabled: !!r.get("enabled"), allowed: r.get("allowed") === null || r.get("allowed") === undefined ? null : !!r.get("allowed") }]));
    if (gen === stateGen) stateCache.set(tenantId, { at, rows: map });
    return map;
  }

  /** Writes one field set of a tenant's row for a plugin, creating the row when there is none. */
  async function writeState(tenantId: number, id: string, patch: StatePatch): Promise<void> {
    dropState(tenantId);
    const update = () => model.update(patch, { where: { tenantId, pluginId: id } });
    try {
      const [n] = await update();
      if (n > 0) return;
      // MariaDB counts changed rows only: a write of the same value finds the row here.
      if (await model.findOne({ where: { tenantId, pluginId: id }, attributes: ["id"] })) return;
      try {
        await model.create({ tenantId, pluginId: id, ...patch });
      } catch (err) {
        // Two admins switched it at once: the other's row exists now.
        if (!(err instanceof UniqueConstraintError)) throw err;
        await update();
      }
    } finally {
      dropState(tenantId);
    }
  }

  /**
   * Whether the tenant may use plugin `id` (major `major`, else the newest) now, with the
   * reason when not; with `assert`, a "no" is thrown as its error (AVAILABILITY_ERRORS).
   */
  async function availability(ctx: Ctx, tenantId: number, id: string, assert: boolean, major?: number | null): Promise<IsEnabledResult> {
    const registry = o.registry();
    const p = registry.get(id, major);
    let res: IsEnabledResult;
    let tier: Tier | undefined;
    if (!p) res = { enabled: false, reason: registry.get(id) ? "version" : registry.refused(id) ? "refused" : "unknown" };
    else {
      const st = (await stateOf(tenantId)).get(id);
      if (!isAllowed(p, st)) res = { enabled: false, reason: "not_allowed" };
      else if (st && !st.enabled) res = { enabled: false, reason: "disabled" };
      else if (!tierAtLeast((tier = await tenantTier(ctx, tenantId)), p.manifest.tier)) res = { enabled: false, reason: "tier" };
      else res = { enabled: true };
    }
    if (assert && !res.enabled) {
      const code = AVAILABILITY_ERRORS[res.reason!];
      if (res.reason === "tier") throw new AppError(code, { id, requiredTier: p!.manifest.tier, currentTier: tier });
      throw new AppError(code, res.reason === "version" ? { id, major } : { id });
    }
    return res;
  }

  /** The tenants the super allowed a plugin for (an installed plugin is allowed for no one by default). */
  async function tenantsAllowed(id: string): Promise<number[]> {
    const rows = await model.findAll({ where: { pluginId: id, allowed: true }, attributes: ["tenantId"] });
    return rows.map((r) => r.get("tenantId") as number);
  }

  return { dropState, isBundled, allowedByDefault, isAllowed, tenantTier, stateOf, writeState, availability, tenantsAllowed };
}
