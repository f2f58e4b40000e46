import * as path from "node:path";
import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
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
  PluginsInstallsChangedEvent,
  TenantPluginView,
  channelTypeOf,
  emit,
} from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import type { CoreDeps } from "../deps";
import { AuthUser, Ctx, isAdmin } from "../types";
import { Tier, tierAtLeast } from "../licence/tiers";
import { loadPlugins } from "./loader";
import { pluginContextOf } from "./external";
import { pluginDataPreparer } from "./data";
import { LoadedPlugin, PluginRegistry } from "./registry";
import { defineTenantPlugin } from "./model";
import { PluginInstalls } from "./installs";
import { AVAILABILITY_ERRORS } from "./availability";
import { pushRealtime, rooms } from "../realtime/push";

export interface PluginsServiceOptions {
  /** Extra folders whose subfolders are plugins, besides the repo's plugins/ (tests). */
  pluginDirs?: string[];
  /** How long one plugin service may take to start (default 15 s). */
  startTimeoutMs?: number;
}

const pluginId = { type: "string", min: 1, max: 64, trim: true } as const;
const tenantIdParam = { type: "number", integer: true, positive: true, convert: true } as const;
const majorParam = { type: "number", integer: true, min: 0, optional: true, nullable: true } as const;
const versionParam = { type: "string", min: 1, max: 64, trim: true } as const;

/** How long a tenant's plugin settings stay in a process's memory (a safety net: changes drop them at once). */
const STATE_TTL_MS = 5_000;

/** A tenant's settings for one plugin: the admin's switch and the super's decision (null: none). */
interface TenantPluginState {
  enabled: boolean;
  allowed: boolean | null;
}

/** The profile a user sees plugins as: platform-level and support users count as admin. */
function profileOf(u: AuthUser): PluginProfile {
  return isAdmin(u) ? "admin" : (u.profile as PluginProfile);
}

/** Module Federation's default file name, for a plugin that exposes modules without naming its entry. */
const DEFAULT_REMOTE_ENTRY = "remoteEntry.js";

function remoteEntryUrl(p: LoadedPlugin): string | null {
  const ui = p.manifest.ui;
  const file = ui?.remoteEntry ?? (ui?.exposes.length ? DEFAULT_REMOTE_ENTRY : undefined);
  if (!file) return null;
  // An installed plugin changes version while the platform runs: the version in the URL keeps
  // a browser from mixing an old remote entry with the new chunks.
  return `/api/plugins/${p.id}/remote/${file.replace(/^\.?\//, "")}${p.installed ? `?v=${encodeURIComponent(p.version)}` : ""}`;
}

/** The manifest's icon and colour, only those it declares (the shell draws the channel with them). */
function looksOf(p: LoadedPlugin): Pick<EnabledPlugin, "icon" | "color"> {
  return { ...(p.manifest.icon ? { icon: p.manifest.icon } : {}), ...(p.manifest.color ? { color: p.manifest.color } : {}) };
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
  return { ...entry, ...looksOf(p) };
}

/**
 * The plugin host. At start it discovers the plugin folders (the repo's plugins/ and
 * `opts.pluginDirs`), validates each manifest and core API range, loads the entry and starts
 * the plugin's service; a broken or incompatible plugin is refused with one log line and the
 * rest go on. It also owns the tenants' plugin settings (tenant_plugins) and answers the
 * shell which plugins to load (GET /plugins/enabled: loaded, allowed for the tenant, switched
 * on, allowed for the user's profile and at or below the tenant's tier).
 *
 * Per tenant, a plugin is usable when three say yes, checked in this order:
 * - the platform level allows it for the tenant (PUT /plugins/:id/tenants/:tenantId, super
 *   only: the product has no reseller level apart from super). With no decision recorded the
 *   default policy applies: plugins shipped in the platform's own plugins/ folder with tier
 *   FREE are allowed for every tenant; anything else (a paid tier, or a plugin installed from
 *   elsewhere) only where the super allows it;
 * - the tenant admin's switch is on (PUT /plugins/:id/enabled; on when never set);
 * - the tenant's licence tier covers the plugin's tier.
 * When the answer changes, the tenant's connections of the plugin are stopped (status
 * "inactive" with the reason's error code) or resumed (connections.reconcilePlugins).
 *
 * Several majors of a plugin may run side by side ("v1.<id>", "v2.<id>"): new connections
 * use the newest; a connection keeps the major it was made with.
 */
export function createPluginsService(deps: CoreDeps, opts: PluginsServiceOptions = {}): ServiceSchema {
  const model = defineTenantPlugin(deps.sequelize);
  const bundledDir = path.join(deps.config.rootDir, "plugins");
  const dirs = [bundledDir, ...(opts.pluginDirs ?? [])];
  let registry = new PluginRegistry();
  let installs: PluginInstalls | undefined;
  /** Tenant → its plugin settings, read at `at`. */
  const stateCache = new Map<number, { at: number; rows: Map<string, TenantPluginState> }>();
  /** Bumped by every write and drop: a read that overlapped one is not cached. */
  let stateGen = 0;
  const dropState = (tenantId?: number) => {
    stateGen++;
    if (tenantId) stateCache.delete(tenantId);
    else stateCache.clear();
  };

  const isBundled = (p: LoadedPlugin) => p.folder.startsWith(bundledDir + path.sep);
  /** The default policy when the super decided nothing for a tenant: bundled FREE-tier plugins are allowed. */
  const allowedByDefault = (p: LoadedPlugin) => isBundled(p) && p.manifest.tier === "FREE";
  const isAllowed = (p: LoadedPlugin, st: TenantPluginState | undefined) => st?.allowed ?? allowedByDefault(p);
  const versionsOf = (id: string) => registry.versionsOf(id).map((v) => v.version);

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

  /**
   * The tenant's plugin settings by plugin id (absent: switched on, no decision). Asked on
   * every message a channel carries, so kept a few seconds; every write drops it, here and
   * (through `plugins.changed`) on the other nodes.
   */
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
  async function writeState(tenantId: number, id: string, patch: { enabled: boolean; updatedBy: number | null } | { allowed: boolean | null; allowedBy: number | null }): Promise<void> {
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

  async function availability(ctx: Ctx, tenantId: number, id: string, assert: boolean, major?: number | null): Promise<IsEnabledResult> {
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

  /**
   * Stops or resumes the tenant's connections of a plugin (all plugins without `id`) after
   * its availability changed. The connections service may live on another node, or not be
   * running on this one: a failure is logged, and traffic is refused regardless (every send
   * and every inbound message asks plugins.availability).
   */
  async function reconcile(svc: any, ctx: Ctx, tenantId: number, id?: string): Promise<void> {
    try {
      await ctx.call("connections.reconcilePlugins", id ? { tenantId, pluginId: id } : { tenantId });
    } catch (err) {
      svc.logger.warn(`tenant ${tenantId}: connections of plugin ${id ?? "*"} not reconciled: ${(err as Error).message}`);
    }
  }

  /**
   * Tells the tenants' open shells that their plugins changed (`<tenantId>:plugins`): they load
   * the enabled list and the remotes again, so a plugin taken away leaves the screen at once
   * and a new version's UI replaces the old one.
   */
  function pushPluginsChanged(ctx: Ctx, tenantIds: number[], id: string) {
    for (const tenantId of new Set(tenantIds)) {
      pushRealtime(ctx, { rooms: [rooms.tenant(tenantId)], event: `${tenantId}:plugins`, payload: { action: "update", id } });
    }
  }

  /** The tenants the super allowed a plugin for (an installed plugin is allowed for no one by default). */
  async function tenantsAllowed(id: string): Promise<number[]> {
    const rows = await model.findAll({ where: { pluginId: id, allowed: true }, attributes: ["tenantId"] });
    return rows.map((r) => r.get("tenantId") as number);
  }

  /** Every node forgets what it kept of the plugin (tenants' settings, the gateway's UI folder); the tenants' shells reload. */
  async function afterInstallChange(ctx: Ctx, id: string, version: string | null, tenantIds: number[]) {
    dropState();
    const evt: PluginsInstallsChangedEvent = { id, version };
    await emit(ctx, "plugins.installs.changed", evt);
    pushPluginsChanged(ctx, tenantIds, id);
  }

  /**
   * Install, rollback and uninstall run on the plugin host that runs the installed plugins'
   * nodes (the host lock): on another host the call is handed to that node. Null: run it here.
   */
  async function hostElsewhere(svc: any): Promise<string | null> {
    if (!installs || !installs.enabled) throw new AppError("ERR_PLUGIN_INSTALLS_DISABLED");
    if (installs.isHost) return null;
    const host = await installs.hostNode();
    if (!host || host === svc.broker.nodeID || !svc.broker.registry.nodes.get(host)?.available) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { id: "plugin-host" });
    return host;
  }

  /** The super's routes: the tenant must exist (404 otherwise). */
  async function assertTenant(ctx: Ctx, tenantId: number): Promise<void> {
    const t = (await ctx.call("tenants.getInternal", { id: tenantId })) as { status: string } | null;
    if (!t || t.status === "deleted") throw new AppError("ERR_TENANT_NOT_FOUND", { id: tenantId });
  }

  return {
    name: "plugins",
    settings: { rest: "/" },

    async started(this: any) {
      registry = await loadPlugins(this.broker, {
        dirs,
        startTimeoutMs: opts.startTimeoutMs,
        external: deps.config.pluginsExternal,
        context: pluginContextOf(deps.config, { external: false }),
        data: pluginDataPreparer(deps.config, (m) => this.logger.info(`Plugin data: ${m}`)),
        onLoaded: (p) => this.logger.info(`Plugin ${p.external ? "listed (it runs in a plugin node of its own)" : "loaded"}: ${p.id} ${p.version} as ${p.service} (${p.folder})`),
        onRefused: (p) => this.logger.warn(`Plugin refused: ${p.id} (${p.folder}): ${p.reason}`),
      });
      installs = new PluginInstalls({
        config: deps.config,
        sequelize: deps.sequelize,
        broker: this.broker,
        log: this.logger,
        registry: () => registry,
        isBundledFolder: (folder) => folder.startsWith(bundledDir + path.sep),
        redis: deps.redis,
      });
      await installs.start();
      const refused = registry.records().filter((r) => r.status === "refused").length;
      this.logger.info(`Plugins: ${registry.loaded().length} loaded, ${refused} refused`);
    },

    async stopped() {
      await installs?.stop();
    },

    events: {
      "plugins.installs.changed": {
        group: `plugins-installs-${randomBytes(6).toString("hex")}`,
        async handler(this: any, ctx: Ctx<PluginsInstallsChangedEvent>) {
          dropState();
          // Made by the plugin host that runs the installed plugins: this one's registry follows.
          if (ctx.nodeID !== this.broker.nodeID && ctx.params?.id) await installs?.resync(ctx.params.id);
        },
      },
      // A group of its own per instance: every node drops its copy of the tenant's settings.
      "plugins.changed": {
        group: `plugins-state-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<PluginsChangedEvent>) {
          dropState(ctx.params?.tenantId);
        },
      },
      // A new licence may lower or raise the tenant's tier: its connections follow. Deferred a
      // turn so the licence service has dropped its cached tier first.
      async "licence.changed"(this: any, ctx: Ctx<{ tenantId?: number }>) {
        const tenantId = ctx.params?.tenantId;
        if (!tenantId) return;
        await new Promise((r) => setImmediate(r));
        await reconcile(this, ctx, tenantId);
        pushPluginsChanged(ctx, [tenantId], "*");
      },
    },

    actions: {
      list: {
        rest: "GET /plugins",
        access: "admin",
        params: {},
        async handler(this: any, ctx: Ctx): Promise<InstalledPlugin[]> {
          const tenantId: number = tenantOf(ctx);
          const [tier, state] = await Promise.all([tenantTier(ctx, tenantId), stateOf(tenantId)]);
          return registry.latest().map((p) => ({
            id: p.id,
            kind: p.manifest.kind,
            version: p.version,
            tier: p.manifest.tier,
            displayName: p.manifest.displayName,
            profiles: [...(p.manifest.profiles ?? PLUGIN_PROFILES)],
            enabled: state.get(p.id)?.enabled ?? true,
            tierAllowed: tierAtLeast(tier, p.manifest.tier),
            allowed: isAllowed(p, state.get(p.id)),
            versions: versionsOf(p.id),
            ...looksOf(p),
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
          const [tier, state] = await Promise.all([tenantTier(ctx, tenantId), stateOf(tenantId)]);
          // The newest major of each plugin: its UI remote is the one served, and new connections use it.
          return registry
            .latest()
            .filter((p) => isAllowed(p, state.get(p.id)) && (state.get(p.id)?.enabled ?? true) && (p.manifest.profiles ?? PLUGIN_PROFILES).includes(profile) && tierAtLeast(tier, p.manifest.tier))
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
          // Switching on is the tenant's call only for what the platform allows it.
          if (ctx.params.enabled && !isAllowed(p, (await stateOf(tenantId)).get(p.id))) throw new AppError("ERR_PLUGIN_NOT_ALLOWED", { id: p.id });
          await writeState(tenantId, p.id, { enabled: ctx.params.enabled, updatedBy: ctx.meta.user?.id ?? null });
          const evt: PluginsChangedEvent = { tenantId, id: p.id, enabled: ctx.params.enabled };
          await emit(ctx, "plugins.changed", evt);
          await reconcile(this, ctx, tenantId, p.id);
          pushPluginsChanged(ctx, [tenantId], p.id);
          return { id: p.id, enabled: ctx.params.enabled };
        },
      },

      // --- the platform level (super) ---------------------------------------------------------
      tenantPlugins: {
        rest: "GET /plugins/tenants/:tenantId",
        access: "super",
        resource: "tenants",
        params: { tenantId: tenantIdParam },
        async handler(this: any, ctx: Ctx<{ tenantId: number }>): Promise<TenantPluginView[]> {
          const { tenantId } = ctx.params;
          await assertTenant(ctx, tenantId);
          const [tier, state] = await Promise.all([tenantTier(ctx, tenantId), stateOf(tenantId)]);
          return registry.latest().map((p) => {
            const st = state.get(p.id);
            const allowed = isAllowed(p, st);
            const enabled = st?.enabled ?? true;
            const tierAllowed = tierAtLeast(tier, p.manifest.tier);
            return {
              id: p.id,
              kind: p.manifest.kind,
              version: p.version,
              versions: versionsOf(p.id),
              tier: p.manifest.tier,
              displayName: p.manifest.displayName,
              bundled: isBundled(p),
              decision: st?.allowed ?? null,
              allowedByDefault: allowedByDefault(p),
              allowed,
              enabled,
              tierAllowed,
              available: allowed && enabled && tierAllowed,
            };
          });
        },
      },

      setAllowed: {
        rest: "PUT /plugins/:id/tenants/:tenantId",
        access: "super",
        resource: "tenants",
        // allowed: true or false decides; null forgets the decision (the default policy applies again).
        params: { id: pluginId, tenantId: tenantIdParam, allowed: { type: "boolean", nullable: true, convert: true } },
        async handler(this: any, ctx: Ctx<{ id: string; tenantId: number; allowed: boolean | null }>) {
          const { tenantId } = ctx.params;
          const p = registry.get(ctx.params.id);
          if (!p) throw new AppError("ERR_PLUGIN_NOT_FOUND", { id: ctx.params.id });
          await assertTenant(ctx, tenantId);
          await writeState(tenantId, p.id, { allowed: ctx.params.allowed, allowedBy: ctx.meta.user?.id ?? null });
          const st = (await stateOf(tenantId)).get(p.id);
          const allowed = isAllowed(p, st);
          const evt: PluginsChangedEvent = { tenantId, id: p.id, enabled: st?.enabled ?? true, allowed };
          await emit(ctx, "plugins.changed", evt);
          await reconcile(this, ctx, tenantId, p.id);
          pushPluginsChanged(ctx, [tenantId], p.id);
          return { id: p.id, tenantId, decision: ctx.params.allowed, allowed };
        },
      },

      // --- plugins installed from the marketplace (super) ----------------------------------------
      installed: {
        rest: "GET /plugins/installed",
        access: "super",
        params: {},
        handler() {
          return installs ? installs.list() : [];
        },
      },

      install: {
        rest: "POST /plugins/installed",
        access: "super",
        params: { id: pluginId, version: versionParam },
        async handler(this: any, ctx: Ctx<{ id: string; version: string }>) {
          const host = await hostElsewhere(this);
          if (host) return ctx.call("plugins.install", ctx.params, { nodeID: host });
          const view = await installs!.install(ctx.params.id, ctx.params.version, ctx.meta.user?.id ?? null);
          await afterInstallChange(ctx, view.id, view.version, await tenantsAllowed(view.id));
          return view;
        },
      },

      rollback: {
        rest: "POST /plugins/installed/:id/rollback",
        access: "super",
        resource: "plugins",
        params: { id: pluginId },
        async handler(this: any, ctx: Ctx<{ id: string }>) {
          const host = await hostElsewhere(this);
          if (host) return ctx.call("plugins.rollback", ctx.params, { nodeID: host });
          const view = await installs!.rollback(ctx.params.id, ctx.meta.user?.id ?? null);
          await afterInstallChange(ctx, view.id, view.version, await tenantsAllowed(view.id));
          return view;
        },
      },

      uninstall: {
        rest: "DELETE /plugins/installed/:id",
        access: "super",
        resource: "plugins",
        params: { id: pluginId },
        async handler(this: any, ctx: Ctx<{ id: string }>) {
          if (!installs) throw new AppError("ERR_PLUGIN_NOT_INSTALLED", { id: ctx.params.id });
          const host = await hostElsewhere(this);
          if (host) return ctx.call("plugins.uninstall", ctx.params, { nodeID: host });
          const allowedFor = await tenantsAllowed(ctx.params.id);
          const res = await installs.uninstall(ctx.params.id);
          await afterInstallChange(ctx, res.id, null, allowedFor);
          return res;
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
        params: { tenantId: { type: "number", integer: true, positive: true }, id: pluginId, major: majorParam, assert: { type: "boolean", optional: true } },
        handler(ctx: Ctx<{ tenantId: number; id: string; major?: number | null; assert?: boolean }>): Promise<IsEnabledResult> {
          return availability(ctx, ctx.params.tenantId, ctx.params.id, !!ctx.params.assert, ctx.params.major);
        },
      },

      /** The same check as a boolean (what the connections service asks before using a channel). */
      isEnabled: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true }, id: pluginId, major: majorParam, assert: { type: "boolean", optional: true } },
        async handler(ctx: Ctx<{ tenantId: number; id: string; major?: number | null; assert?: boolean }>): Promise<boolean> {
          return (await availability(ctx, ctx.params.tenantId, ctx.params.id, !!ctx.params.assert, ctx.params.major)).enabled;
        },
      },

      /**
       * The channel plugin serving a connection type (or plugin id), with its service name:
       * the newest major, or `major` (a connection's pinned one; ERR_PLUGIN_VERSION_UNAVAILABLE
       * when that major is not loaded). With `tenantId`, only when the tenant may use it now
       * (the availability errors otherwise).
       */
      channelFor: {
        visibility: "public",
        params: { type: { type: "string", min: 1, max: 64 }, tenantId: { type: "number", integer: true, positive: true, optional: true }, major: majorParam },
        async handler(this: any, ctx: Ctx<{ type: string; tenantId?: number; major?: number | null }>): Promise<ChannelForResult> {
          const newest = registry.channel(ctx.params.type);
          if (!newest) {
            if (registry.refused(ctx.params.type)) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { type: ctx.params.type });
            throw new AppError("ERR_PLUGIN_NOT_FOUND", { type: ctx.params.type });
          }
          const p = registry.channel(ctx.params.type, ctx.params.major);
          if (!p) throw new AppError("ERR_PLUGIN_VERSION_UNAVAILABLE", { type: ctx.params.type, id: newest.id, major: ctx.params.major });
          if (ctx.params.tenantId) await availability(ctx, ctx.params.tenantId, p.id, true, p.major);
          if (!this.broker.registry.hasService(p.service)) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { type: ctx.params.type, id: p.id });
          return {
            id: p.id,
            service: p.service,
            version: p.version,
            major: p.major,
            type: p.channelType!,
            capabilities: [...p.manifest.channel!.capabilities],
            settingsSchema: p.manifest.settingsSchema ?? null,
            // The optional actions the core may call (absent when not declared).
            ...(p.manifest.channel!.receipts ? { receipts: true as const } : {}),
            ...(p.manifest.channel!.numberCheck ? { numberCheck: true as const } : {}),
          };
        },
      },
    },
  };
}
