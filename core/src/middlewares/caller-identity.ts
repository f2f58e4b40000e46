/**
 * Who is calling, over the transporter (core/src/plugins/THREAT-MODEL.md). A broker node that
 * joins the core's transporter may be a core node or a plugin node running third-party code;
 * the packets it sends say nothing trustworthy about which (sender, meta and ids are whatever
 * it writes). So every packet a node sends carries a signature in its meta (`$sig`):
 *
 * - a core node signs with the bus key, which only core nodes hold: HMAC-SHA256 of JWT_SECRET
 *   (every core node of a deployment shares it; a plugin node is never given it);
 * - a plugin node signs with its plugin token, HMAC(bus key, plugin id), which the host hands
 *   to that plugin's node only (PLUGIN_TOKENS), and names its plugin (`$plugin`).
 *
 * A signature covers the packet's kind, its context id, the action or event name and the node
 * it is sent to: one seen by a plugin node (the core calling it) is good for that very call on
 * that very node, never for another action or for a core node.
 *
 * What plugins may call is PLUGIN_ACTIONS / isPluginAction below: the SDK's `Actions` map (the
 * compiler keeps the list complete), what a plugin node needs to start, and everything of the
 * plugin-facing `platform` service.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Actions, Events } from "@openatende/plugin-sdk";

/** Meta keys the transport uses: removed before any action sees the meta. */
export const SIG_KEY = "$sig";
export const PLUGIN_KEY = "$plugin";

/**
 * Meta keys a caller's context owns: a call from a plugin node cannot set them (they are
 * cleared, $caller is set by the guard) and a response from a node that is not a core node
 * cannot change them in the caller's context.
 */
export const PROTECTED_META = ["user", "$api", "$caller", "tenant", "tenantId", "locale", "ip", "userAgent", "rawToken", "sessionHeader", "headers", SIG_KEY, PLUGIN_KEY] as const;

/** Who made a call that reached a core service from another node, as the action sees it. */
export interface CallerMeta {
  /** The plugin whose node called (proved by its token). */
  plugin: string;
}

/** The SDK's map but the platform service's actions (allowed by their prefix). */
const SDK_ACTIONS: Record<Exclude<keyof Actions, `platform.${string}`>, true> = {
  "channels.inbound": true,
  "channels.ack": true,
  "channels.change": true,
  "channels.contact": true,
  "channels.status": true,
  "channels.resolveToken": true,
  "channelFiles.upload": true,
  "channelFiles.read": true,
  "plugins.isEnabled": true,
  "plugins.availability": true,
  "plugins.channelFor": true,
  "plugins.get": true,
  "plugins.registry": true,
};

/**
 * The core actions a plugin node may call: the SDK's map, the installation's Redis prefix a
 * plugin node started on its own asks for before loading its plugins, and the core services
 * behind SDK helpers. Extend it here (or
 * with a prefix in PLUGIN_ACTION_PREFIXES) when the core offers plugins something new.
 */
export const PLUGIN_ACTIONS: ReadonlySet<string> = new Set<string>([
  ...Object.keys(SDK_ACTIONS),
  "plugins.installationPrefix",
  // The SDK's rateLimit helper (rate-limit.ts) counts in the core's Redis.
  "api.rateLimit",
  // The SDK's pluginJobs (jobs.ts, SchedulerActions): the scheduler checks the owner against $caller.
  "scheduler.schedule",
  "scheduler.cancel",
  "scheduler.list",
]);

/** Whole services meant for plugins: the plugin-facing core API (core/src/platform/). */
export const PLUGIN_ACTION_PREFIXES: readonly string[] = ["platform."];

/** Events of plugin nodes core listeners hear (none today: a plugin talks to the core by calling it). */
export const PLUGIN_EVENTS: ReadonlySet<string> = new Set<string>();

const SDK_EVENTS: Record<keyof Events, true> = { "plugins.changed": true, "plugins.installs.changed": true };

/** Core events a plugin node's services may listen to: the SDK's `Events` map and those of the platform service. */
export function isEventForPlugins(name: string): boolean {
  return name in SDK_EVENTS || PLUGIN_ACTION_PREFIXES.some((p) => name.startsWith(p));
}

export function isPluginAction(name: string): boolean {
  return PLUGIN_ACTIONS.has(name) || PLUGIN_ACTION_PREFIXES.some((p) => name.startsWith(p));
}

export function isPluginEvent(name: string): boolean {
  return PLUGIN_EVENTS.has(name);
}

const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest();

/** The bus key of a deployment's core nodes, derived from the secret they all share. */
export function busKeyOf(jwtSecret: string): Buffer {
  return hmac(jwtSecret, "openatende/bus-caller/v1");
}

/** The token of plugin `id`: what its node signs with, and nothing else can compute without the bus key. */
export function pluginTokenOf(busKey: Buffer, id: string): string {
  return hmac(busKey, `plugin-token/${id}`).toString("base64url");
}

/** `id:token,…`: the PLUGIN_TOKENS of a node that runs these plugins. */
export function pluginTokensEnv(busKey: Buffer, ids: string[]): string {
  return ids.map((id) => `${id}:${pluginTokenOf(busKey, id)}`).join(",");
}

/** What a signature covers: the packet's kind, context id, action or event name, and the node it goes to. */
export function signedText(kind: string, id: unknown, name: unknown, target: unknown): string {
  return `${kind}\n${String(id ?? "")}\n${String(name ?? "")}\n${String(target ?? "")}`;
}

export function sign(key: string | Buffer, text: string): string {
  return hmac(key, text).toString("base64url");
}

export function verify(key: string | Buffer, text: string, sig: unknown): boolean {
  if (typeof sig !== "string" || sig.length > 100) return false;
  const want = hmac(key, text);
  const got = Buffer.from(sig, "base64url");
  return got.length === want.length && timingSafeEqual(got, want);
}
