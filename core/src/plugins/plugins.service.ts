import * as path from "node:path";
import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import type { Service, ServiceSchema } from "moleculer";
import { ChannelForResult, EnabledPlugin, InstalledPlugin, IsEnabledResult, PLUGIN_PROFILES, PluginsChangedEvent, PluginsInstallsChangedEvent, PluginRouteView, TenantPluginView, emit } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { tierAtLeast } from "../licence/tiers";
import { loadPlugins } from "./loader";
import { pluginContextOf } from "./external";
import { pluginDataPreparer } from "./data";
import { PluginRegistry } from "./registry";
import { PluginInstalls } from "./installs";
import { createTenantPlugins } from "./tenant-plugins";
import { installActions } from "./install-actions";
import { DEFAULT_REMOTE_ENTRY, enabledView, looksOf, profileOf, pushPluginsChanged } from "./views";
import { call } from "../bus/call";

export interface PluginsServiceOptions {
  /** Extra folders whose subfolders are plugins, besides the repo's plugins/ (tests). */
  pluginDirs?: string[];
  /** How long one plugin service may take to start (default 15 s). */
  startTimeoutMs?: number;
}

const pluginId = { type: "string", min: 1, max: 64, trim: true } as const;
const tenantIdParam = { type: "number", integer: true, positive: true, convert: true } as const;
const majorParam = { type: "number", integer: true, min: 0, optional: true, nullable: true } as const;

/**
 * The plugin host. At start it discovers the plugin folders (the repo's plugins/ and
 * `opts.pluginDirs`), validates each manifest and core API range, loads the entry and starts
 * the plugin's service; a broken or incompatible plugin is refused with one log line and the
 * rest go on. It also owns the tenants' plugin settings (tenant_plugins) and answers the
 * shell which plugins to load (GET /plugins/enabled: loaded, allowed for the tenant, switched
 * on, allowed for the user's profile and at or below the tenant's tier).
 *
 * By concern: whether a tenant may use a plugin, ./tenant-plugins.ts; what the shell is
 * told, ./views.ts; plugins installed from the marketplace, ./install-actions.ts (routes) and
 * ./installs.ts (files, nodes, versions). When a tenant's answer changes, the tenant's
 * connections of the plugin are stopped (status "inactive" with the reason's error code) or
 * resumed (connections.reconcilePlugins).
 *
 * Several majors of a plugin may run side by side ("v1.<id>", "v2.<id>"): new connections
 * use the newest; a connection keeps the major it was made with.
 */
export function createPluginsService(deps: CoreDeps, opts: PluginsServiceOptions = {}): ServiceSchema {
  const bundledDir = path.join(deps.config.rootDir, "plugins");
  const dirs = [bundledDir, ...(opts.pluginDirs ?? [])];
  let registry = new PluginRegistry();
  let installs: PluginInstalls | undefined;
  const tenants = createTenantPlugins({ sequelize: deps.sequelize, registry: () => registry, bundledDir });
  const { dropState, isBundled, allowedByDefault, isAllowed, tenantTier, stateOf, writeState, availability } = tenants;
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

  /**
   * Stops or resumes the tenant's connections of a plugin (all plugins without `id`) after
   * its availability changed. The connections service may live on another node, or not be
   * running on this one: a failure is logged, and traffic is refused regardless (every send
   * and every inbound message asks plugins.availability).
   */
  async function reconcile(svc: Service, ctx: Ctx, tenantId: number, id?: string): Promise<void> {
    try {
      await call(ctx, "connections.reconcilePlugins", id ? { tenantId, pluginId: id } : { tenantId });
    } catch (err) {
      svc.logger.warn(`tenant ${tenantId}: connections of plugin ${id ?? "*"} not reconciled: ${(err as Error).message}`);
    }
  }

  /** The super's routes: the tenant must exist (404 otherwise). */
  async function assertTenant(ctx: Ctx, tenantId: number): Promise<void> {
    const t = await call(ctx, "tenants.getInternal", { id: tenantId });
    if (!t || t.status === "deleted") throw new AppError("ERR_TENANT_NOT_FOUND", { id: tenantId });
  }

  return {
    name: "plugins",
    settings: { rest: "/" },

    async started(this: Service) {
      registry = await loadPlugins(this.broker, {
        dirs,
        startTimeoutMs: opts.startTimeoutMs,
        external: deps.config.pluginsExternal,
        context: pluginContextOf(deps.config, { external: false, installationPrefix: deps.redisPrefix() }),
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
        redisPrefix: deps.redisPrefix,
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
        async handler(this: Service, ctx: Ctx<PluginsInstallsChangedEvent>) {
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
      async "licence.changed"(this: Service, ctx: Ctx<{ tenantId?: number }>) {
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
        async handler(this: Service, ctx: Ctx): Promise<InstalledPlugin[]> {
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

      /** The shell paths the plugins' UIs declare (manifest ui.routes) with their tiers: every loaded plugin, so the shell names the tier of a route the tenant cannot reach. */
      routes: {
        rest: "GET /plugins/routes",
        access: "user",
        params: {},
        handler(): PluginRouteView[] {
          return registry.latest().flatMap((p) => (p.manifest.ui?.routes ?? []).map((route) => ({ path: route, pluginId: p.id, tier: p.manifest.ui?.routeTiers?.[route] ?? p.manifest.tier })));
        },
      },

      enabled: {
        rest: "GET /plugins/enabled",
        access: "user",
        params: {},
        async handler(this: Service, ctx: Ctx): Promise<EnabledPlugin[]> {
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
        async handler(this: Service, ctx: Ctx<{ id: string; enabled: boolean }>) {
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
        async handler(this: Service, ctx: Ctx<{ tenantId: number }>): Promise<TenantPluginView[]> {
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
        async handler(this: Service, ctx: Ctx<{ id: string; tenantId: number; allowed: boolean | null }>) {
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
      ...installActions({ installs: () => installs, tenants }),

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

      /** The installation's Redis prefix, for plugin nodes (their plugins' redisPrefix). */
      installationPrefix: {
        visibility: "public",
        params: {},
        handler() {
          return deps.redisPrefix();
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
        async handler(this: Service, ctx: Ctx<{ type: string; tenantId?: number; major?: number | null }>): Promise<ChannelForResult> {
          const newest = registry.channel(ctx.params.type);
          if (!newest) {
            if (registry.refused(ctx.params.type)) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { type: ctx.params.type });
            throw new AppError("ERR_PLUGIN_NOT_FOUND", { type: ctx.params.type });
          }
          const p = registry.channel(ctx.params.type, ctx.params.major);
          if (!p) throw new AppError("ERR_PLUGIN_VERSION_UNAVAILABLE", { type: ctx.params.type, id: newest.id, major: ctx.params.major });
          if (ctx.params.tenantId) await availability(ctx, ctx.params.tenantId, p.id, true, p.major);
          if (!this.broker.registry.hasService(p.service, undefined as unknown as string)) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { type: ctx.params.type, id: p.id });
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
            ...(p.manifest.channel!.templates ? { templates: true as const } : {}),
            ...(p.manifest.channel!.balance ? { balance: true as const } : {}),
            ...(p.manifest.channel!.serviceWindowHours ? { serviceWindowHours: p.manifest.channel!.serviceWindowHours } : {}),
          };
        },
      },
    },
  };
}
