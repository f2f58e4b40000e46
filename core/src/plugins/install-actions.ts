/**
 * The plugins service's routes for plugins installed from the marketplace (super): the list,
 * and install (or upgrade), rollback and uninstall. The three changes run on the plugin host
 * that runs the installed plugins' nodes (the host lock, ./install-host.ts): on another node
 * the call is handed to that one. After a change every node forgets what it kept of the plugin
 * and the shells of the tenants allowed to use it load their plugins again.
 */
import type { ActionSchema, Service } from "moleculer";
import { PluginsInstallsChangedEvent, emit } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import type { PluginInstalls } from "./installs";
import type { InstalledView } from "./contract";
import type { TenantPlugins } from "./tenant-plugins";
import { pushPluginsChanged } from "./views";

const pluginId = { type: "string", min: 1, max: 64, trim: true } as const;
const versionParam = { type: "string", min: 1, max: 64, trim: true } as const;

type Change = "install" | "rollback" | "uninstall";

export function installActions(o: { installs: () => PluginInstalls | undefined; tenants: TenantPlugins }): Record<string, ActionSchema> {
  /** The node to hand a change to; null: run it here. */
  async function hostElsewhere(svc: Service): Promise<string | null> {
    const installs = o.installs();
    if (!installs || !installs.enabled) throw new AppError("ERR_PLUGIN_INSTALLS_DISABLED");
    if (installs.isHost) return null;
    const host = await installs.hostNode();
    if (!host || host === svc.broker.nodeID || !svc.broker.registry.nodes.get(host)?.available) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { id: "plugin-host" });
    return host;
  }

  /** Runs one change of plugin `id` on the host, then tells every node and the tenants' shells. */
  async function change<R extends { id: string; version?: string }>(svc: Service, ctx: Ctx<{ id: string }>, action: Change, run: (installs: PluginInstalls) => Promise<R>): Promise<R> {
    const host = await hostElsewhere(svc);
    if (host) return ctx.call(`plugins.${action}`, ctx.params, { nodeID: host }) as Promise<R>;
    // Asked before the change: an uninstall forgets the tenants' settings of the plugin.
    const allowedFor = await o.tenants.tenantsAllowed(ctx.params.id);
    const res = await run(o.installs()!);
    o.tenants.dropState();
    const evt: PluginsInstallsChangedEvent = { id: res.id, version: res.version ?? null };
    await emit(ctx, "plugins.installs.changed", evt);
    pushPluginsChanged(ctx, allowedFor, res.id);
    return res;
  }

  const by = (ctx: Ctx) => ctx.meta.user?.id ?? null;

  return {
    installed: {
      rest: "GET /plugins/installed",
      access: "super",
      params: {},
      handler(): Promise<InstalledView[]> | InstalledView[] {
        const installs = o.installs();
        return installs ? installs.list() : [];
      },
    },

    install: {
      rest: "POST /plugins/installed",
      access: "super",
      params: { id: pluginId, version: versionParam },
      async handler(this: Service, ctx: Ctx<{ id: string; version: string }>) {
        return change(this, ctx, "install", (i) => i.install(ctx.params.id, ctx.params.version, by(ctx)));
      },
    },

    rollback: {
      rest: "POST /plugins/installed/:id/rollback",
      access: "super",
      resource: "plugins",
      params: { id: pluginId },
      async handler(this: Service, ctx: Ctx<{ id: string }>) {
        return change(this, ctx, "rollback", (i) => i.rollback(ctx.params.id, by(ctx)));
      },
    },

    uninstall: {
      rest: "DELETE /plugins/installed/:id",
      access: "super",
      resource: "plugins",
      params: { id: pluginId },
      async handler(this: Service, ctx: Ctx<{ id: string }>) {
        if (!o.installs()) throw new AppError("ERR_PLUGIN_NOT_INSTALLED", { id: ctx.params.id });
        return change(this, ctx, "uninstall", (i) => i.uninstall(ctx.params.id));
      },
    },
  };
}
