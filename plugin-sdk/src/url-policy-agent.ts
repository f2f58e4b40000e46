/**
 * The outbound URL policy at connect time, for clients that take an http.Agent rather than a
 * fetch (telegraf's Bot API client, node-fetch, got…): every socket such an agent opens goes to
 * an address the policy just accepted — an IP literal is checked as it is, a name is resolved
 * through the policy and the socket connects to that very answer (no DNS rebinding between a
 * check and the connection), and a redirect the client follows opens its socket here too.
 *
 *   const agents = outboundAgents({ allow: pluginContext(this).outboundAllow });
 *   new Telegram(token, { apiRoot, agent: agents.https });   // or agents.for(url)
 *
 * safeFetch (url-policy-fetch.ts) uses the same resolver.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { LookupFunction, Socket } from "node:net";
import { allowListOf, checkOutboundHost, OutboundUrlError, type OutboundPolicy } from "./url-policy";
import { isPublicAddress, parseIp } from "./url-policy-address";

/** A socket's resolver: resolves and checks at connect time, and connects to that very address. */
export function policyLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    checkOutboundHost(hostname, policy).then(
      (checked) => {
        if (!checked.ok) return callback(new OutboundUrlError(checked) as unknown as NodeJS.ErrnoException, "", 0);
        if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: checked.address, family: checked.family }]);
        else callback(null, checked.address, checked.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, "", 0),
    );
  };
}

type ConnectOptions = { host?: string | null; hostname?: string | null; lookup?: LookupFunction };
type Created = (err: Error | null, socket?: Socket) => void;
type CreateConnection = (this: http.Agent, options: ConnectOptions, callback?: Created) => Socket | undefined;

/**
 * The agent's createConnection with the policy: an IP literal the policy refuses fails the
 * request (the callback's error reaches the request as its 'error'), a name gets the policy's
 * resolver.
 */
function guarded(policy: OutboundPolicy, base: CreateConnection): CreateConnection {
  const allow = allowListOf(policy);
  const p = { ...policy, allow };
  return function (this: http.Agent, options, callback) {
    const host = String(options.host ?? options.hostname ?? "").replace(/^\[(.*)\]$/, "$1");
    const ip = parseIp(host);
    if (ip && !isPublicAddress(ip) && !allow.hasAddress(ip)) {
      const err = new OutboundUrlError({ ok: false, reason: "private-address", host, address: host });
      if (callback) {
        callback(err);
        return undefined;
      }
      throw err;
    }
    return base.call(this, { ...options, lookup: policyLookup(p) }, callback);
  };
}

export interface OutboundAgents {
  http: http.Agent;
  https: https.Agent;
  /** The agent for a URL's protocol (node-fetch's `agent` may be this function: it passes a url.parse() object). */
  for(url: string | { protocol?: string | null }): http.Agent;
}

/** An http and an https agent that open sockets only to addresses the policy accepts (keep-alive: sockets are reused only within these agents). */
export function outboundAgents(policy: OutboundPolicy = {}, options: http.AgentOptions = {}): OutboundAgents {
  const plain = new http.Agent({ keepAlive: true, ...options });
  const secure = new https.Agent({ keepAlive: true, ...options });
  const agentProto = http.Agent.prototype as unknown as { createConnection: CreateConnection };
  const tlsProto = https.Agent.prototype as unknown as { createConnection: CreateConnection };
  (plain as unknown as { createConnection: CreateConnection }).createConnection = guarded(policy, agentProto.createConnection);
  (secure as unknown as { createConnection: CreateConnection }).createConnection = guarded(policy, tlsProto.createConnection);
  return {
    http: plain,
    https: secure,
    for: (url) => ((typeof url === "string" ? new URL(url).protocol : url.protocol) === "https:" ? secure : plain),
  };
}
