/**
 * A plugin node's half of "who is calling" (caller-identity.ts): every request and event it
 * sends names its plugin and carries that plugin's signature, made with the token the host
 * gave this node (PLUGIN_TOKENS), bound to the context id, the action or event and the node
 * it goes to; its INFO proves the plugins whose services it offers. The core's guard
 * (caller-guard.middleware.ts) checks both.
 *
 * A node runs one plugin (installed plugins always do) or a few bundled ones: a call is signed
 * as the plugin whose service makes it (its `$caller`, or the calling service's name), else as
 * the node's first plugin. Plugins that share a node share their tokens: only a node of its own
 * keeps a plugin's identity to itself.
 */
import type { Middleware, ServiceBroker } from "moleculer";
import { PLUGIN_KEY, SIG_KEY, sign, signedText } from "./caller-identity";
import { servicesDigest, signNodeInfo } from "./caller-guard.middleware";

type Packet = { type: string; target?: string | null; payload: Record<string, any> };

export function createPluginSigner(tokens: Record<string, string>): Middleware {
  const ids = Object.keys(tokens);
  let nodeID = "";

  function pluginOf(payload: Record<string, any>): string | undefined {
    const claimed = payload.meta?.$caller?.plugin;
    if (typeof claimed === "string" && tokens[claimed]) return claimed;
    const caller = typeof payload.caller === "string" ? /^v\d+\.(.+)$/.exec(payload.caller)?.[1] : undefined;
    if (caller && tokens[caller]) return caller;
    return ids[0];
  }

  return {
    name: "PluginSigner",
    created(broker: ServiceBroker) {
      nodeID = broker.nodeID;
      signNodeInfo(broker, PLUGIN_KEY, (services) => {
        const text = signedText("INFO", nodeID, servicesDigest(services), "");
        return Object.fromEntries(ids.map((id) => [id, sign(tokens[id], text)]));
      });
    },
    transitPublish(next: (packet: Packet) => Promise<void>) {
      return (packet: Packet) => {
        if (packet.type !== "REQ" && packet.type !== "EVENT") return next(packet);
        const p = packet.payload;
        const plugin = pluginOf(p);
        const meta = { ...(p.meta && typeof p.meta === "object" ? p.meta : {}) };
        delete meta[SIG_KEY];
        delete meta[PLUGIN_KEY];
        if (plugin) {
          meta[PLUGIN_KEY] = plugin;
          meta[SIG_KEY] = sign(tokens[plugin], signedText(packet.type, p.id, packet.type === "REQ" ? p.action : p.event, packet.target ?? ""));
        }
        packet.payload = { ...p, meta };
        return next(packet);
      };
    },
  } as unknown as Middleware;
}
