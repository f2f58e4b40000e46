/**
 * The core's guard against the other nodes of its transporter (core/src/plugins/THREAT-MODEL.md).
 * A core node:
 *
 * - signs every request, event and response it sends with the bus key (caller-identity.ts),
 *   bound to the context id, the action or event and the node it goes to; and its INFO (the
 *   services it offers), bound to its node id;
 * - checks each request and event that arrives from another node: a core signature passes
 *   as it is; a plugin's (its id and token) may call only what isPluginAction allows, with
 *   `ctx.meta.$caller = { plugin }` set, any `user` or `$api` it wrote cleared and `ctx.caller`
 *   (the calling service, which channels checks) naming that plugin; anything
 *   else is refused with ERR_PLUGIN_FORBIDDEN. Events of plugin nodes reach core listeners
 *   only when isPluginEvent allows them, the others are dropped;
 * - keeps its context's protected meta (PROTECTED_META) when a node that is not a core node
 *   answers: the response cannot make the caller someone else;
 * - registers, of a node that is not a core node, only the services of the plugins it proves
 *   (`v<major>.<id>`, whose events it may hear restricted to those meant for plugins): no
 *   plugin node can stand in for a core service or for another plugin.
 *
 * Calls inside the process (bundled plugins in the core's broker, services calling services)
 * never cross the transporter and are not touched.
 */
import { createHash } from "node:crypto";
import type { Middleware, ServiceBroker, ActionHandler, ActionSchema, Context, Service } from "moleculer";
import { AppError } from "../errors/app-error";
import { PLUGIN_KEY, PROTECTED_META, SIG_KEY, busKeyOf, isEventForPlugins, isPluginAction, isPluginEvent, pluginTokenOf, sign, signedText, verify } from "./caller-identity";

/** Set by the transit hook on the meta of a request that came over the transporter (not enumerable: never copied to a child call's meta). */
const VERDICT = Symbol("caller-verdict");
type Verdict = { kind: "core" } | { kind: "plugin"; id: string } | { kind: "unknown" };

type Packet = { type: string; target?: string | null; payload: Record<string, any> };
type ServiceInfo = { name: string; version?: string | number; fullName?: string; actions?: Record<string, unknown>; events?: Record<string, unknown> };

const PLUGIN_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === "object" && !Array.isArray(v);

/** What an INFO signature covers: the services, their actions and events. */
export function servicesDigest(services: unknown): string {
  const list = Array.isArray(services) ? (services as ServiceInfo[]) : [];
  const shape = list.map((s) => [s.fullName ?? s.name, Object.keys(s.actions ?? {}).sort(), Object.keys(s.events ?? {}).sort()]);
  return createHash("sha256").update(JSON.stringify(shape)).digest("base64url");
}

/** Signs the INFO this node sends (metadata[key] = what `sigOf` answers for the services). */
export function signNodeInfo(broker: ServiceBroker, key: string, sigOf: (services: unknown) => unknown): void {
  const registry = broker.registry as unknown as { regenerateLocalRawInfo(incSeq?: boolean, stopping?: boolean): { metadata?: Record<string, unknown>; services?: unknown } };
  const regenerate = registry.regenerateLocalRawInfo.bind(registry);
  registry.regenerateLocalRawInfo = (incSeq?: boolean, stopping?: boolean) => {
    const info = regenerate(incSeq, stopping);
    info.metadata = { ...(info.metadata ?? {}), [key]: sigOf(info.services) };
    return info;
  };
}

/** A copy of the packet whose meta carries `extra` (the payload's meta object is the context's own). */
function withMeta(packet: Packet, extra: Record<string, string>): Packet {
  packet.payload = { ...packet.payload, meta: { ...(isObject(packet.payload.meta) ? packet.payload.meta : {}), ...extra } };
  return packet;
}

export function createCallerGuard(jwtSecret: string): Middleware {
  const key = busKeyOf(jwtSecret);
  const tokens = new Map<string, string>();
  const tokenOf = (id: string) => {
    let t = tokens.get(id);
    if (!t) {
      // Ids come from the packets: the cache stays small whatever a node sends.
      if (tokens.size >= 1000) tokens.clear();
      tokens.set(id, (t = pluginTokenOf(key, id)));
    }
    return t;
  };
  let nodeID = "";

  /** Who sent this request or event, read (and removed) from its meta. */
  function verdictOf(kind: string, payload: Record<string, any>): Verdict {
    const meta = payload.meta as Record<string, unknown>;
    const sig = meta[SIG_KEY];
    const plugin = meta[PLUGIN_KEY];
    delete meta[SIG_KEY];
    delete meta[PLUGIN_KEY];
    const text = signedText(kind, payload.id, kind === "REQ" ? payload.action : payload.event, nodeID);
    if (plugin === undefined && verify(key, text, sig)) return { kind: "core" };
    if (typeof plugin === "string" && PLUGIN_ID.test(plugin) && verify(tokenOf(plugin), text, sig)) return { kind: "plugin", id: plugin };
    return { kind: "unknown" };
  }

  /** Of a node that is not a core node: only the services of the plugins it proves, hearing only the events meant for plugins. */
  function trustedServices(node: { id: string; metadata?: Record<string, any> }, services: ServiceInfo[]): ServiceInfo[] {
    const digest = servicesDigest(services);
    const meta = isObject(node.metadata) ? node.metadata : {};
    if (verify(key, signedText("INFO", node.id, digest, ""), meta[SIG_KEY])) return services;
    const claims = isObject(meta[PLUGIN_KEY]) ? meta[PLUGIN_KEY] : {};
    const proven = Object.keys(claims).filter((id) => PLUGIN_ID.test(id) && verify(tokenOf(id), signedText("INFO", node.id, digest, ""), claims[id]));
    const owned = (prefix: string, map: Record<string, unknown> | undefined, keep: (name: string) => boolean) =>
      Object.fromEntries(Object.entries(map ?? {}).filter(([k, v]) => {
        const n = isObject(v) && typeof v.name === "string" ? v.name : k;
        return n === k && keep(n) && (prefix === "" || n.startsWith(prefix));
      }));
    // A plugin's service is "v<major>.<id>": its name a proved id, its full name made of both (the registry keys services by it).
    const fullOf = (s: ServiceInfo) => (s.name === "$node" && s.version === undefined ? "$node" : `v${s.version}.${s.name}`);
    return services
      .filter((s) => (s.fullName === undefined || s.fullName === fullOf(s)) && (s.name === "$node" ? s.version === undefined : proven.includes(s.name) && /^\d{1,6}$/.test(String(s.version))))
      .map((s) => {
        const full = fullOf(s);
        // Its own actions only (an action's name, not its key, is what the registry routes), and the events meant for plugins.
        return { ...s, actions: owned(`${full}.`, s.actions, () => true), events: s.name === "$node" ? {} : owned("", s.events, isEventForPlugins) };
      });
  }

  return {
    name: "CallerGuard",

    created(broker: ServiceBroker) {
      nodeID = broker.nodeID;
      signNodeInfo(broker, SIG_KEY, (services) => sign(key, signedText("INFO", nodeID, servicesDigest(services), "")));
      const registry = broker.registry as unknown as { registerServices(node: { id: string; local?: boolean; metadata?: Record<string, any> }, list: ServiceInfo[]): void };
      const register = registry.registerServices.bind(registry);
      registry.registerServices = (node, list) => register(node, node.local ? list : trustedServices(node, Array.isArray(list) ? list : []));
    },

    transitPublish(next: (packet: Packet) => Promise<void>) {
      return (packet: Packet) => {
        const p = packet.payload;
        if (packet.type === "REQ" || packet.type === "EVENT") {
          const name = packet.type === "REQ" ? p.action : p.event;
          return next(withMeta(packet, { [SIG_KEY]: sign(key, signedText(packet.type, p.id, name, packet.target ?? "")) }));
        }
        if (packet.type === "RES") return next(withMeta(packet, { [SIG_KEY]: sign(key, signedText("RES", p.id, "", packet.target ?? "")) }));
        return next(packet);
      };
    },

    transitMessageHandler(next: (cmd: string, packet: Packet) => Promise<boolean>) {
      return (cmd: string, packet: Packet) => {
        const p = packet?.payload;
        if (!isObject(p)) return next(cmd, packet);
        if (cmd === "REQ" || cmd === "EVENT") {
          if (!isObject(p.meta)) p.meta = {};
          const verdict = verdictOf(cmd, p);
          if (cmd === "EVENT" && verdict.kind !== "core") {
            // A plugin's event reaches core listeners only when meant for them, as the plugin's.
            if (verdict.kind !== "plugin" || !isPluginEvent(String(p.event))) return Promise.resolve(true);
            for (const k of PROTECTED_META) delete p.meta[k];
            p.meta.$caller = { plugin: verdict.id };
          }
          Object.defineProperty(p.meta, VERDICT, { value: verdict, enumerable: false, configurable: true });
        } else if (cmd === "RES") {
          const meta = isObject(p.meta) ? p.meta : (p.meta = {});
          const fromCore = verify(key, signedText("RES", p.id, "", nodeID), meta[SIG_KEY]);
          delete meta[SIG_KEY];
          // Another node than a core node answers for its call only: it cannot change who the caller is.
          if (!fromCore) for (const k of PROTECTED_META) delete meta[k];
        }
        return next(cmd, packet);
      };
    },

    localAction(next: ActionHandler, action: ActionSchema): ActionHandler {
      const name = String(action.name);
      return function callerGuard(this: Service, ctx: Context<unknown, Record<string | symbol, any>>) {
        const meta = ctx.meta;
        const verdict = meta[VERDICT] as Verdict | undefined;
        if (!verdict) return next.call(this, ctx);
        delete meta[VERDICT];
        if (verdict.kind === "core") return next.call(this, ctx);
        if (verdict.kind === "unknown" || !isPluginAction(name)) {
          return Promise.reject(new AppError("ERR_PLUGIN_FORBIDDEN", { action: name, ...(verdict.kind === "plugin" ? { plugin: verdict.id } : {}) }));
        }
        for (const k of PROTECTED_META) delete meta[k];
        meta.$caller = { plugin: verdict.id };
        // The calling service's name travels in the packet too: it names this plugin ("v<major>.<id>") or becomes its id.
        if (String(ctx.caller ?? "").replace(/^v\d+\./, "") !== verdict.id) ctx.caller = verdict.id;
        return next.call(this, ctx);
      };
    },
  } as unknown as Middleware;
}
