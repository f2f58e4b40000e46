/**
 * definePlugin(): turns a plugin's manifest and Moleculer service schema into the tagged,
 * versioned object the core's plugin host loads. The host refuses anything without the tag
 * (a plain schema, an object built by an incompatible SDK), so the contract can evolve: a
 * breaking change of this object is a new PLUGIN_TAG value.
 *
 *   // plugins/channel-telegram/src/service.ts
 *   import pkg from "../package.json";
 *   export const telegramChannelPlugin = definePlugin({ pkgJson: pkg, service: { actions: {…} } });
 *   export default telegramChannelPlugin;
 */
import * as semver from "semver";
import type { Context, ServiceSchema } from "moleculer";
import { PluginManifest, toPackageJson, validateManifest } from "./manifest";
import { PLATFORM_EVENT_ACTION, PLATFORM_EVENT_NAMES, type PlatformEventEnvelope, type PlatformEventName } from "./core-api/contract";
import { CHATBOT_MESSAGE_ACTION, type ChatbotInbound } from "./chatbot-contract";
import { CLAIMED_INBOUND_ACTION, TICKET_BEFORE_CLOSE_ACTION, type ClaimedInbound, type ClaimedInboundReply, type PluginHookName, type TicketCloseCheck } from "./hooks-contract";

/** Version of the tagged object's shape; the host only loads objects whose tag it knows. */
export const PLUGIN_TAG = 1 as const;

/** A plugin's service schema: name and version are not the author's to choose, they come from the manifest. */
export type PluginServiceSchema<S = Record<string, unknown>> = Omit<ServiceSchema<S>, "name" | "version"> & { name?: string; version?: number };

/**
 * Handlers of the core's events (core-api/contract.ts PlatformEvents), one per event the plugin
 * wants. The core delivers each event for each tenant that has the plugin available, in order,
 * at least once (a failed handler is retried): `envelope.id` tells a repeat apart.
 */
export type PlatformEventHandlers = { [E in PlatformEventName]?: (envelope: PlatformEventEnvelope<E>, ctx: Context) => unknown };

/**
 * A chatbot plugin's handler of its tickets' inbound messages (chatbot-contract.ts): only for
 * plugins of kind "chatbot". Delivered in order per ticket, at least once (`inbound.id` tells a
 * repeat apart); a handler that throws is tried again.
 */
export interface ChatbotHandlers {
  onMessage(inbound: ChatbotInbound, ctx: Context): unknown;
}

/** The core's hooks (hooks-contract.ts): asked before the core goes on. */
export interface PluginHooks {
  /** A user closes a ticket: throw a PluginError to refuse. */
  beforeClose?(check: TicketCloseCheck, ctx: Context): void | Promise<void>;
  /** A message of a contact the plugin claimed (platform.inbound.claim). */
  onClaimedInbound?(inbound: ClaimedInbound, ctx: Context): ClaimedInboundReply | Promise<ClaimedInboundReply>;
}

type PluginExtras = { platformEvents?: PlatformEventHandlers; chatbot?: ChatbotHandlers; hooks?: PluginHooks };

export type DefinePluginInput<S = Record<string, unknown>> =
  | ({ pkgJson: unknown; manifest?: undefined; service: PluginServiceSchema<S> } & PluginExtras)
  | ({ manifest: PluginManifest; pkgJson?: undefined; service: PluginServiceSchema<S> } & PluginExtras);

export interface DefinedPlugin {
  readonly $$openatendePlugin: typeof PLUGIN_TAG;
  /** Manifest id, also the Moleculer service name. */
  readonly id: string;
  /** Full semver version of the plugin package. */
  readonly version: string;
  /** Major version: the Moleculer service `version`, so the service is "v<major>.<id>". */
  readonly major: number;
  readonly manifest: PluginManifest;
  /** The schema to give broker.createService(): name, version and plugin metadata filled in. */
  readonly schema: ServiceSchema;
}

export class PluginDefinitionError extends Error {
  constructor(
    message: string,
    readonly errors: string[],
  ) {
    super(`${message}:\n  - ${errors.join("\n  - ")}`);
    this.name = "PluginDefinitionError";
  }
}

/** "v<major>.<id>": the full name of a plugin's Moleculer service, as used in `ctx.call("v1.channel-webchat.send", …)`. */
export function pluginServiceName(id: string, major: number): string {
  return `v${major}.${id}`;
}

export function definePlugin<S = Record<string, unknown>>(input: DefinePluginInput<S>): DefinedPlugin {
  const checked = validateManifest(input.manifest ? toPackageJson(input.manifest) : input.pkgJson);
  if (!checked.ok) throw new PluginDefinitionError("Invalid plugin manifest", checked.errors);
  const manifest = checked.manifest;
  const service = input.service as PluginServiceSchema;
  if (!service || typeof service !== "object") throw new PluginDefinitionError(`Plugin ${manifest.id}`, ["service must be a Moleculer service schema object"]);

  const major = semver.major(manifest.version);
  const errors: string[] = [];
  if (service.name !== undefined && service.name !== manifest.id) errors.push(`service.name ${JSON.stringify(service.name)} must be the manifest id ${JSON.stringify(manifest.id)} (or left out)`);
  if (service.version !== undefined && service.version !== major) errors.push(`service.version ${JSON.stringify(service.version)} must be the major of ${manifest.version} (${major}) (or left out)`);
  const handlers = input.platformEvents ?? {};
  const events = Object.keys(handlers) as PlatformEventName[];
  for (const e of events) {
    if (!PLATFORM_EVENT_NAMES.includes(e)) errors.push(`platformEvents.${e} is not a core event (known: ${PLATFORM_EVENT_NAMES.join(", ")})`);
    else if (typeof handlers[e] !== "function") errors.push(`platformEvents.${e} must be a function`);
  }
  if (events.length && service.actions && PLATFORM_EVENT_ACTION in service.actions) errors.push(`actions.${PLATFORM_EVENT_ACTION} is made by definePlugin from platformEvents: do not declare it`);
  const chatbot = input.chatbot;
  if (chatbot && manifest.kind !== "chatbot") errors.push(`chatbot handlers are for plugins of kind "chatbot" (this one is "${manifest.kind}")`);
  if (manifest.kind === "chatbot" && typeof chatbot?.onMessage !== "function") errors.push("a chatbot plugin needs chatbot.onMessage (the core hands it its tickets' messages)");
  if (chatbot && service.actions && CHATBOT_MESSAGE_ACTION in service.actions) errors.push(`actions.${CHATBOT_MESSAGE_ACTION} is made by definePlugin from chatbot.onMessage: do not declare it`);
  const hooks = checkHooks(input.hooks, service, errors);
  if (errors.length) throw new PluginDefinitionError(`Plugin ${manifest.id}`, errors);

  const schema = {
    ...service,
    name: manifest.id,
    version: major,
    metadata: {
      ...(service.metadata ?? {}),
      plugin: { id: manifest.id, version: manifest.version, kind: manifest.kind, coreApi: manifest.coreApi, ...(events.length ? { events } : {}), ...(chatbot ? { chatbot: true } : {}), ...(hooks.names.length ? { hooks: hooks.names } : {}) },
    },
    actions: {
      ...(service.actions ?? {}),
      ...(events.length ? { [PLATFORM_EVENT_ACTION]: eventAction(handlers) } : {}),
      ...(chatbot ? { [CHATBOT_MESSAGE_ACTION]: chatbotAction(chatbot) } : {}),
      ...hooks.actions,
    },
  } as ServiceSchema;

  return Object.freeze({ $$openatendePlugin: PLUGIN_TAG, id: manifest.id, version: manifest.version, major, manifest, schema });
}

/** The action the core delivers events to: checks the envelope and runs the plugin's handler. */
function eventAction(handlers: PlatformEventHandlers) {
  return {
    visibility: "public" as const,
    params: { id: "string", event: { type: "enum", values: PLATFORM_EVENT_NAMES }, tenantId: { type: "number", integer: true, positive: true }, at: "number", data: "object" },
    async handler(ctx: Context<PlatformEventEnvelope>) {
      const h = handlers[ctx.params.event] as ((e: PlatformEventEnvelope, c: Context) => unknown) | undefined;
      if (h) await h(ctx.params, ctx);
      return { handled: !!h };
    },
  };
}

/** The action the core hands a chatbot's inbound messages to. */
function chatbotAction(h: ChatbotHandlers) {
  return {
    visibility: "public" as const,
    params: {
      id: "string",
      tenantId: { type: "number", integer: true, positive: true },
      ref: "string",
      reason: { type: "enum", values: ["started", "message"] },
      ticket: "object",
      contact: "object",
      message: { type: "object", nullable: true },
      at: "number",
    },
    async handler(ctx: Context<ChatbotInbound>) {
      await h.onMessage(ctx.params, ctx);
      return { handled: true };
    },
  };
}

const HOOK_ACTIONS: Record<PluginHookName, string> = { beforeClose: TICKET_BEFORE_CLOSE_ACTION, onClaimedInbound: CLAIMED_INBOUND_ACTION };

/** The hooks' names (for the core to find them on the bus) and the actions it calls. */
function checkHooks(hooks: PluginHooks | undefined, service: PluginServiceSchema, errors: string[]) {
  const names: PluginHookName[] = [];
  const actions: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(hooks ?? {})) {
    const action = HOOK_ACTIONS[name as PluginHookName];
    if (!action) errors.push(`hooks.${name} is not a core hook (known: ${Object.keys(HOOK_ACTIONS).join(", ")})`);
    else if (typeof fn !== "function") errors.push(`hooks.${name} must be a function`);
    else if (service.actions && action in service.actions) errors.push(`actions.${action} is made by definePlugin from hooks.${name}: do not declare it`);
    else {
      names.push(name as PluginHookName);
      actions[action] = name === "beforeClose" ? beforeCloseAction(fn as NonNullable<PluginHooks["beforeClose"]>) : claimedAction(fn as NonNullable<PluginHooks["onClaimedInbound"]>);
    }
  }
  return { names, actions };
}

function beforeCloseAction(fn: NonNullable<PluginHooks["beforeClose"]>) {
  return {
    visibility: "public" as const,
    params: { tenantId: { type: "number", integer: true, positive: true }, ticket: "object", userId: { type: "number", integer: true, positive: true } },
    async handler(ctx: Context<TicketCloseCheck>) {
      await fn(ctx.params, ctx);
      return { allowed: true };
    },
  };
}

function claimedAction(fn: NonNullable<PluginHooks["onClaimedInbound"]>) {
  return {
    visibility: "public" as const,
    params: {
      id: "string",
      tenantId: { type: "number", integer: true, positive: true },
      ref: "string",
      ticketId: { type: "number", nullable: true },
      connectionId: { type: "number", integer: true, positive: true },
      contact: "object",
      message: "object",
      at: "number",
    },
    async handler(ctx: Context<ClaimedInbound>): Promise<ClaimedInboundReply> {
      const r = await fn(ctx.params, ctx);
      return { consumed: !!r?.consumed, ...(r?.release ? { release: true } : {}) };
    },
  };
}

/** True for an object made by definePlugin() of a compatible SDK. */
export function isDefinedPlugin(x: unknown): x is DefinedPlugin {
  if (typeof x !== "object" || x === null) return false;
  const p = x as Partial<DefinedPlugin>;
  return (
    p.$$openatendePlugin === PLUGIN_TAG &&
    typeof p.id === "string" &&
    typeof p.version === "string" &&
    typeof p.major === "number" &&
    typeof p.manifest === "object" &&
    p.manifest !== null &&
    typeof p.schema === "object" &&
    p.schema !== null
  );
}

/**
 * Finds the definePlugin() object a plugin module exports: its default export, a named
 * export, or the module itself (CommonJS `module.exports = definePlugin(…)`).
 */
export function findDefinedPlugin(mod: unknown): DefinedPlugin | undefined {
  if (isDefinedPlugin(mod)) return mod;
  if (typeof mod !== "object" || mod === null) return undefined;
  const m = mod as Record<string, unknown>;
  if (isDefinedPlugin(m.default)) return m.default;
  const found = Object.values(m).filter(isDefinedPlugin);
  return found.length === 1 ? found[0] : undefined;
}
