import * as path from "node:path";
import * as fs from "node:fs";
import { UniqueConstraintError } from "sequelize";
import type { ServiceSchema } from "moleculer";
import {
  ChannelForResult,
  EnabledPlugin,
  InstalledPlugin,
  IsEnabledResult,
  PLUGIN_PROFILES,
  PluginProfile,
  PluginsChangedEvent,
  channelTypeOf,
  emit,
} from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { AuthUser, Ctx, isAdmin } from "../types";
import { Tier, tierAtLeast } from "../licence/tiers";
import { loadPlugins } from "../plugins/loader";
import { LoadedPlugin, PluginRegistry } from "../plugins/registry";
import { defineTenantPlugin } from "../plugins/model";

export interface PluginsServiceOptions {
  /** Extra folders whose subfolders are plugins, besides the repo's plugins/ (tests). */
  pluginDirs?: string[];
  /** How long one plugin service may take to start (default 15 s). */
  startTimeoutMs?: number;
}

const pluginId = { type: "string", min: 1, max: 64, trim: true } as const;

/** The profile a user sees plugins as: platform-level and support users count as admin. */
function profileOf(u: AuthUser): PluginProfile {
  return isAdmin(u) ? "admin" : (u.profile as PluginProfile);
}

/** Module Federation's default file name, for a plugin that exposes modules without naming its entry. */
const DEFAULT_REMOTE_ENTRY = "remoteEntry.js";

function remoteEntryUrl(p: LoadedPlugin): string | null {
  const ui = p.manifest.ui;
  const file = ui?.remoteEntry ?? (ui?.exposes.length ? DEFAULT_REMOTE_ENTRY : undefined);
  return file ? `/api/plugins/${p.id}/remote/${file.replace(/^\.?\//, "")}` : null;
}

function enabledView(p: LoadedPlugin): EnabledPlugin {
  const m = p.manifest;
  const entry: EnabledPlugin = {
    id: p.id,
    kind: m.kind,
    version: p.version,
    tier: m.tier,
    displayName: m.displayName,
    ui: m.ui ? { remoteEntry: remoteEntryUrl(p), exposes: [...m.ui.exposes] } : null,
  };
  if (m.kind === "channel" && m.channel) {
    entry.channel = { type: channelTypeOf(m), capabilities: [...m.channel.capabilities], settingsSchema: m.settingsSchema ?? null };
  }
  return entry;
}

/**
 * The plugin host. At start it discovers the plugin folders (the repo's plugins/ and
 * `opts.pluginDirs`), validates each manifest and core API range, loads the entry and starts
 * the plugin's service; a broken or incompatible plugin is refused with one log line and the
 * rest go on. It also owns the tenants' plugin switches (tenant_plugins) and answers the
 * shell which plugins to load (GET /plugins/enabled: loaded, switched on, allowed for the
 * user's profile and at or below the tenant's tier).
 */
export function createPluginsService(deps: CoreDeps, opts: PluginsServiceOptions = {}): ServiceSchema {
  const model = defineTenantPlugin(deps.sequelize);
  const dirs = [path.join(deps.config.rootDir, "plugins"), ...(opts.pluginDirs ?? [])];
  let registry = new PluginRegistry();

  /**
   * The caller's tenant. This service reads its one model directly rather than through
   * tenantDbMixin: Moleculer deep-clones mixin schemas when merging them, so the mixin's
   * adapter gets a copy of the shared Sequelize with a pool of its own that is never closed,
   * and a service created after start (as tests do with this one) copies live connections.
   */
  function tenantOf(ctx: Ctx): number {
    const tenantId = ctx.meta.user?.tenantId;
    if (!tenantId) throw new AppError("ERR_SESSION_REQUIRED");
    return tenantId;
  }

  async function tenantTier(ctx: Ctx, tenantId: number): Promise<Tier> {
    try {
      return ((await ctx.call("licence.tier", { tenantId })) as { tier: Tier }).tier;
    } catch {
      return "FREE"; // a failing licence check means FREE (spec §6)
    }
  }

  /** The tenant's switches, by plugin id (absent: enabled). */
  async function switchesOf(tenantId: number): Promise<Map<string, boolean>> {
    const rows = await model.findAll({ where: { tenantId }, attributes: ["pluginId", "enabled"] });
    return new Map(rows.map((r) => [r.get("pluginId") as string, !!r.get("enabled")]));
  }

  async function isSwitchedOn(tenantId: number, id: string): Promise<boolean> {
    const row = await model.findOne({ where: { tenantId, pluginId: id }, attributes: ["enabled"] });
    return row ? !!row.get("enabled") : true;
  }

  async function setSwitch(tenantId: number, id: string, enabled: boolean, userId: number | null): Promise<void> {
    const update = () => model.update({ enabled, updatedBy: userId }, { where: { tenantId, pluginId: id } });
    const [n] = await update();
    if (n > 0) return;
    try {
      await model.create({ tenantId, pluginId: id, enabled, updatedBy: userId });
    } catch (err) {
      // Two admins switched it at once: the other's row exists now.
      if (!(err instanceof UniqueConstraintError)) throw err;
      await update();
    }
  }

  async function availability(ctx: Ctx, tenantId: number, id: string, assert: boolean): Promise<IsEnabledResult> {
    const p = registry.get(id);
    let res: IsEnabledResult;
    let tier: Tier | undefined;
    if (!p) res = { enabled: false, reason: registry.refused(id) ? "refused" : "unknown" };
    else if (!(await isSwitchedOn(tenantId, id))) res = { enabled: false, reason: "disabled" };
    else if (!tierAtLeast((tier = await tenantTier(ctx, tenantId)), p.manifest.tier)) res = { enabled: false, reason: "tier" };
    else res = { enabled: true };
    if (assert && !res.enabled) {
      if (res.reason === "unknown") throw new AppError("ERR_PLUGIN_NOT_FOUND", { id });
      if (res.reason === "refused") throw new AppError("ERR_PLUGIN_UNAVAILABLE", { id });
      if (res.reason === "disabled") throw new AppError("ERR_PLUGIN_DISABLED", { id });
      throw new AppError("ERR_LICENSE_TIER_REQUIRED", { id, requiredTier: p!.manifest.tier, currentTier: tier });
    }
    return res;
  }

  return {
    name: "plugins",
    settings: { rest: "/" },

    async started(this: any) {
      registry = await loadPlugins(this.broker, {
        dirs,
        startTimeoutMs: opts.startTimeoutMs,
        onLoaded: (p) => this.logger.info(`Plugin loaded: ${p.id} ${p.version} as ${p.service} (${p.folder})`),
        onRefused: (p) => this.logger.warn(`Plugin refused: ${p.id} (${p.folder}): ${p.reason}`),
      });
      const refused = registry.records().filter((r) => r.status === "refused").length;
      this.logger.info(`Plugins: ${registry.loaded().length} loaded, ${refused} refused`);
    },

    actions: {
      list: {
        rest: "GET /plugins",
        access: "admin",
        params: {},
        async handler(this: any, ctx: Ctx): Promise<InstalledPlugin[]> {
          const tenantId: number = tenantOf(ctx);
          const [tier, switches] = await Promise.all([tenantTier(ctx, tenantId), switchesOf(tenantId)]);
          return registry.loaded().map((p) => ({
            id: p.id,
            kind: p.manifest.kind,
            version: p.version,
            tier: p.manifest.tier,
            displayName: p.manifest.displayName,
            profiles: [...(p.manifest.profiles ?? PLUGIN_PROFILES)],
            enabled: switches.get(p.id) ?? true,
            tierAllowed: tierAtLeast(tier, p.manifest.tier),
          }));
        },
      },

      /** The folder of a plugin's built UI remote (for the gateway's static files); null when it has none. */
      uiDir: {
        visibility: "public",
        params: { id: pluginId },
        handler(ctx: Ctx<{ id: string }>): string | null {
          const p = registry.get(ctx.params.id);
          if (!p || !p.manifest.ui) return null;
          const dir = path.join(p.folder, "dist", "ui");
          return fs.existsSync(path.join(dir, p.manifest.ui.remoteEntry ?? DEFAULT_REMOTE_ENTRY)) ? dir : null;
        },
      },

      enabled: {
        rest: "GET /plugins/enabled",
        access: "user",
        params: {},
        async handler(this: any, ctx: Ctx): Promise<EnabledPlugin[]> {
          const tenantId: number = tenantOf(ctx);
          const profile = profileOf(ctx.meta.user!);
          const [tier, switches] = await Promise.all([tenantTier(ctx, tenantId), switchesOf(tenantId)]);
          return registry
            .loaded()
            .filter((p) => (switches.get(p.id) ?? true) && (p.manifest.profiles ?? PLUGIN_PROFILES).includes(profile) && tierAtLeast(tier, p.manifest.tier))
            .map(enabledView);
        },
      },

      setEnabled: {
        rest: "PUT /plugins/:id/enabled",
        access: "admin",
        // The path names a plugin, which no tenant owns: the switch written is always the
        // caller's own tenant's, so another tenant's token can only change its own switch.
        resource: "own",
        params: { id: pluginId, enabled: { type: "boolean", convert: true } },
        async handler(this: any, ctx: Ctx<{ id: string; enabled: boolean }>) {
          const tenantId: number = tenantOf(ctx);
          const p = registry.get(ctx.params.id);
          if (!p) throw new AppError("ERR_PLUGIN_NOT_FOUND", { id: ctx.params.id });
          await setSwitch(tenantId, p.id, ctx.params.enabled, ctx.meta.user?.id ?? null);
          const evt: PluginsChangedEvent = { tenantId, id: p.id, enabled: ctx.params.enabled };
          await emit(ctx, "plugins.changed", evt);
          return { id: p.id, enabled: ctx.params.enabled };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      get: {
        visibility: "public",
        params: { id: pluginId },
        handler(ctx: Ctx<{ id: string }>) {
          const rec = registry.records().find((r) => r.id === ctx.params.id && r.status === "loaded") ?? registry.records().find((r) => r.id === ctx.params.id);
          if (!rec) throw new AppError("ERR_PLUGIN_NOT_FOUND", { id: ctx.params.id });
          return { ...rec, manifest: registry.manifestOf(rec.id) };
        },
      },

      registry: {
        visibility: "public",
        params: {},
        handler() {
          return registry.records();
        },
      },

      /**
       * Whether a tenant may use a plugin now: loaded, switched on and allowed by the
       * tenant's tier, with the reason when not. With `assert`, a "no" is thrown instead:
       * ERR_PLUGIN_NOT_FOUND, ERR_PLUGIN_UNAVAILABLE, ERR_PLUGIN_DISABLED or ERR_LICENSE_TIER_REQUIRED.
       */
      availability: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true }, id: pluginId, assert: { type: "boolean", optional: true } },
        handler(ctx: Ctx<{ tenantId: number; id: string; assert?: boolean }>): Promise<IsEnabledResult> {
          return availability(ctx, ctx.params.tenantId, ctx.params.id, !!ctx.params.assert);
        },
      },

      /** The same check as a boolean (what the connections service asks before using a channel). */
      isEnabled: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true }, id: pluginId, assert: { type: "boolean", optional: true } },
        async handler(ctx: Ctx<{ tenantId: number; id: string; assert?: boolean }>): Promise<boolean> {
          return (await availability(ctx, ctx.params.tenantId, ctx.params.id, !!ctx.params.assert)).enabled;
        },
      },

      /** The channel plugin serving a connection type (or plugin id), with its service name. */
      channelFor: {
        visibility: "public",
        params: { type: { type: "string", min: 1, max: 64 } },
        handler(this: any, ctx: Ctx<{ type: string }>): ChannelForResult {
          const p = registry.channel(ctx.params.type);
          if (!p) {
            if (registry.refused(ctx.params.type)) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { type: ctx.params.type });
            throw new AppError("ERR_PLUGIN_NOT_FOUND", { type: ctx.params.type });
          }
          if (!this.broker.registry.hasService(p.service)) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { type: ctx.params.type, id: p.id });
          return {
            id: p.id,
            service: p.service,
            version: p.version,
            major: p.major,
            type: p.channelType!,
            capabilities: [...p.manifest.channel!.capabilities],
            settingsSchema: p.manifest.settingsSchema ?? null,
          };
        },
      },
    },
  };
}
