/**
 * Third-party code that knows the protocol (core/src/plugins/THREAT-MODEL.md). The test calls
 * these actions; each tries a path from inside the plugin's node and answers what happened.
 * `forge` rewrites the packet after this node's own middleware signed it, right before the
 * transporter sends it: `sig` / `plugin` replace the signature and the plugin id in its meta
 * (null removes them), `caller` the calling service's name, as a node that bypasses its own
 * host code would.
 */
import { Context } from "moleculer";
import type { ServiceBroker } from "moleculer";
import Redis from "ioredis";
import { createConnection } from "mysql2/promise";
import { definePlugin, openPluginData, pluginContext } from "@openatende/plugin-sdk";
import pkg from "../package.json";

type Forge = { sig?: string | null; plugin?: string | null; caller?: string };
type Outcome = { ok: true; result?: unknown } | { ok: false; type?: string; code?: unknown; message: string };

const fail = (err: unknown): Outcome => {
  const e = err as { type?: string; code?: unknown; message?: string };
  return { ok: false, type: e.type, code: e.code, message: String(e.message ?? err) };
};

/** The last call the core made to this plugin, as seen here (its signature included). */
let seen: { id: string; action: string; sig: unknown } | undefined;

function installForge(broker: ServiceBroker) {
  const tx = (broker as unknown as { transit: { tx: { prepublish(p: any): Promise<void> } } }).transit.tx;
  const send = tx.prepublish.bind(tx);
  tx.prepublish = (packet: any) => {
    const meta = packet.payload?.meta;
    const forge = meta?.__forge as Forge | undefined;
    if (forge) {
      const { __forge: _, ...rest } = meta;
      const out: Record<string, unknown> = { ...rest };
      if ("sig" in forge) forge.sig == null ? delete out.$sig : (out.$sig = forge.sig);
      if ("plugin" in forge) forge.plugin == null ? delete out.$plugin : (out.$plugin = forge.plugin);
      packet.payload = { ...packet.payload, meta: out, ...("caller" in forge ? { caller: forge.caller } : {}) };
    }
    return send(packet);
  };
}

const any = { type: "any", optional: true } as const;

export const intruderPlugin = definePlugin({
  pkgJson: pkg,
  service: {
    started() {
      installForge(this.broker);
    },
    actions: {
      /** Calls a core action with the meta and forgery given. */
      call: {
        params: { action: "string", params: any, meta: any, forge: any },
        async handler(ctx): Promise<Outcome> {
          const { action, params, meta, forge } = ctx.params as { action: string; params?: object; meta?: object; forge?: Forge };
          try {
            return { ok: true, result: await ctx.call(action, params ?? {}, { meta: { ...(meta ?? {}), ...(forge ? { __forge: forge } : {}) } }) };
          } catch (err) {
            return fail(err);
          }
        },
      },
      /** Called by the core: keeps what it saw, and tries to change who the caller is through the response's meta. */
      meddle: {
        handler(ctx) {
          const meta = ctx.meta as Record<string, unknown>;
          seen = { id: ctx.id, action: String(ctx.action?.name), sig: meta.$sig };
          meta.user = { id: 1, tenantId: 1, profile: "super", isMaster: true, isSupport: true, name: "forged" };
          meta.$caller = { plugin: "someone-else" };
          meta.tenant = 999;
          meta.$api = true;
          return { saw: seen };
        },
      },
      /** Replays the signature the core sent with its last call, with that call's id, for another action. */
      replay: {
        params: { action: "string", params: any },
        async handler(ctx): Promise<Outcome> {
          if (!seen) return { ok: false, message: "the core has not called yet" };
          const p = (ctx.params as { params?: object }).params ?? {};
          const c = Context.create(this.broker, null as never, p, { meta: { __forge: { sig: seen.sig, plugin: null } } });
          c.id = seen.id;
          try {
            return { ok: true, result: await this.broker.call((ctx.params as { action: string }).action, p, { ctx: c } as never) };
          } catch (err) {
            return fail(err);
          }
        },
      },
      /** Emits (or broadcasts) an event towards the core's listeners. */
      emit: {
        params: { event: "string", payload: any, broadcast: { type: "boolean", optional: true } },
        async handler(ctx) {
          const { event, payload, broadcast } = ctx.params as { event: string; payload?: unknown; broadcast?: boolean };
          if (broadcast) await this.broker.broadcast(event, payload ?? {});
          else await this.broker.emit(event, payload ?? {});
          return true;
        },
      },
      /** Offers services named like the core's and like another plugin's. */
      impostors: {
        async handler() {
          this.broker.createService({ name: "tenants", actions: { hijack: () => "hijacked" } });
          this.broker.createService({ name: "module-victim", version: 1, actions: { steal: () => "stolen" } });
          await this.broker.waitForServices(["tenants", "v1.module-victim"]);
          return this.broker.nodeID;
        },
      },
      /** Its own table, through the SDK (the allowed path). */
      own: {
        async handler() {
          const data = await openPluginData(this);
          await data.forTenant(1).table<{ id: string; text: string }>("secrets").upsert({ id: "a", text: "mine" });
          return data.forTenant(1).table<{ id: string; text: string }>("secrets").find({});
        },
      },
      /** Connects with the database credentials it was given, to `database`, and reads a table there. */
      database: {
        params: { database: "string", table: "string" },
        async handler(ctx): Promise<Outcome> {
          const { database, table } = ctx.params as { database: string; table: string };
          const u = new URL(pluginContext(this).database!.url);
          try {
            const conn = await createConnection({ host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username), password: decodeURIComponent(u.password) });
            try {
              const [rows] = await conn.query(`SELECT COUNT(*) AS n FROM \`${database}\`.\`${table}\``);
              return { ok: true, result: rows };
            } finally {
              await conn.end();
            }
          } catch (err) {
            return fail(err);
          }
        },
      },
      /** Runs one Redis command with the Redis URL it was given. */
      redis: {
        params: { command: { type: "array", items: "string" } },
        async handler(ctx): Promise<Outcome> {
          const [name, ...args] = (ctx.params as { command: string[] }).command;
          const r = new Redis(pluginContext(this).redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
          try {
            await r.connect();
            return { ok: true, result: await r.call(name, ...args) };
          } catch (err) {
            return fail(err);
          } finally {
            r.disconnect();
          }
        },
      },
      /** What it was given: its Redis prefix and user, its database's user and name (no passwords). */
      given: {
        handler() {
          const c = pluginContext(this);
          const db = c.database ? new URL(c.database.url) : null;
          return { redisPrefix: c.redisPrefix, redisUser: decodeURIComponent(new URL(c.redisUrl).username), dbUser: db && decodeURIComponent(db.username), database: db?.pathname.slice(1) };
        },
      },
    },
  },
});

export default intruderPlugin;
