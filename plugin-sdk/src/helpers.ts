/**
 * Typed broker calls across packages, and the helpers a channel plugin uses to talk to the
 * core. A plugin never writes an action name of the core by hand: it calls `inbound`,
 * `ack`, `changeMessage`, `updateContact` and `reportStatus`, which call
 * CORE_CHANNEL_ACTIONS with typed params.
 *
 * How to extend the contract maps: add entries here (they are the contract), or, for a
 * service-local addition, augment them from your package:
 *
 *   declare module "@openatende/plugin-sdk" {
 *     interface Actions { "reports.run": { params: { id: string }; result: ReportResult } }
 *   }
 */
import { Errors } from "moleculer";
import type { CallingOptions } from "moleculer";
import {
  ACK_STATUSES,
  AckEvent,
  CHANNEL_CAPABILITIES,
  CONNECTION_STATUSES,
  CORE_CHANNEL_ACTIONS,
  ChannelCapability,
  CheckNumberParams,
  CheckNumberResult,
  TemplatesListParams,
  TemplatesListResult,
  TemplateCreateParams,
  TemplateCreateResult,
  TemplateDeleteParams,
  TemplateDeleteResult,
  BalanceParams,
  BalanceResult,
  ConnectParams,
  ConnectionRef,
  ContactUpdateEvent,
  ContactUpdateResult,
  ERR_CHANNEL_UNSUPPORTED,
  InboundMessage,
  InboundResult,
  MarkReadParams,
  MarkReadResult,
  MediaRef,
  MessageChangeEvent,
  MessageChangeResult,
  OutboundMessage,
  ResolvedToken,
  SendParams,
  SendResult,
  StatusEvent,
  StatusResult,
  STICKER_MIME_TYPE,
  TestParams,
  TestResult,
} from "./channel-contract";
import type { ChannelForResult, IsEnabledResult, PluginRecord, PluginsChangedEvent, PluginsInstallsChangedEvent } from "./host-contract";
import type { PluginManifest } from "./manifest";
import type { PlatformActions } from "./core-api/contract";
import { INLINE_MEDIA_MAX_CHARS, uploadMedia, type UploadMediaParams } from "./media-transfer";

/** Actions of the core plugins may call, with their params and results (the core API of every kind: PlatformActions). */
export interface Actions extends PlatformActions {
  "channels.inbound": { params: InboundMessage; result: InboundResult };
  "channels.ack": { params: AckEvent; result: { applied: boolean } };
  "channels.change": { params: MessageChangeEvent; result: MessageChangeResult };
  "channels.contact": { params: ContactUpdateEvent; result: ContactUpdateResult };
  "channels.status": { params: StatusEvent; result: unknown };
  "channels.resolveToken": { params: { token: string }; result: ResolvedToken | null };
  "channelFiles.upload": { params: UploadMediaParams; result: MediaRef };
  "channelFiles.read": { params: ConnectionRef & { path: string }; result: AsyncIterable<string> };
  "plugins.isEnabled": { params: { tenantId: number; id: string; major?: number; assert?: boolean }; result: boolean };
  "plugins.availability": { params: { tenantId: number; id: string; major?: number; assert?: boolean }; result: IsEnabledResult };
  /** With `tenantId`, refused (the availability errors) unless the tenant may use it; with `major`, that major's service. */
  "plugins.channelFor": { params: { type: string; tenantId?: number; major?: number }; result: ChannelForResult };
  "plugins.get": { params: { id: string }; result: PluginRecord & { manifest: PluginManifest | null } };
  "plugins.registry": { params: Record<string, never>; result: PluginRecord[] };
}

/** Events of the contract, with their payloads. */
export interface Events {
  "plugins.changed": PluginsChangedEvent;
  "plugins.installs.changed": PluginsInstallsChangedEvent;
}

/** Actions every channel plugin exposes (called as "v<major>.<id>.<action>"). */
export interface ChannelActions {
  connect: { params: ConnectParams; result: StatusResult };
  disconnect: { params: ConnectionRef; result: StatusResult };
  status: { params: ConnectionRef; result: StatusResult };
  send: { params: SendParams; result: SendResult };
  test: { params: TestParams; result: TestResult };
  /** Optional: only on a channel whose manifest declares `receipts`. */
  markRead: { params: MarkReadParams; result: MarkReadResult };
  /** Optional: only on a channel whose manifest declares `numberCheck`. */
  checkNumber: { params: CheckNumberParams; result: CheckNumberResult };
  /** Optional (contract 1.3): only on a channel whose manifest declares `templates`. */
  templatesList: { params: TemplatesListParams; result: TemplatesListResult };
  templateCreate: { params: TemplateCreateParams; result: TemplateCreateResult };
  templateDelete: { params: TemplateDeleteParams; result: TemplateDeleteResult };
  /** Optional (contract 1.4): only on a channel whose manifest declares `balance`. */
  balance: { params: BalanceParams; result: BalanceResult };
}

/** Anything with a Moleculer `call`: a Context, a ServiceBroker, a Service's broker. */
export interface Caller {
  call(actionName: string, params?: unknown, opts?: CallingOptions): Promise<unknown>;
}
/** Anything with a Moleculer `emit`. */
export interface Emitter {
  emit(eventName: string, payload?: unknown, opts?: unknown): Promise<unknown> | unknown;
}

/** `ctx.call` checked against the Actions map. */
export function call<A extends keyof Actions>(ctx: Caller, action: A, params: Actions[A]["params"], opts?: CallingOptions): Promise<Actions[A]["result"]> {
  return ctx.call(action, params, opts) as Promise<Actions[A]["result"]>;
}

/** `ctx.emit` checked against the Events map. */
export async function emit<E extends keyof Events>(ctx: Emitter, event: E, payload: Events[E], opts?: unknown): Promise<void> {
  await ctx.emit(event, payload, opts);
}

/** Calls an action of a channel plugin's service ("v1.channel-webchat", from plugins.channelFor). */
export function callChannel<A extends keyof ChannelActions>(
  ctx: Caller,
  service: string,
  action: A,
  params: ChannelActions[A]["params"],
  opts?: CallingOptions,
): Promise<ChannelActions[A]["result"]> {
  return ctx.call(`${service}.${action}`, params, opts) as Promise<ChannelActions[A]["result"]>;
}

// --- channel → core ------------------------------------------------------------------------

/**
 * Hands a message that arrived on the channel to the core (contact → ticket → message). A
 * large inline file (`media.data` beyond INLINE_MEDIA_MAX_CHARS) is streamed into the core's
 * storage first and handed over by reference: a transporter's packets stay small, whether
 * the plugin runs in the core's process or in its own.
 */
export async function inbound(ctx: Caller, msg: InboundMessage, opts?: CallingOptions): Promise<InboundResult> {
  if (msg.media?.data && msg.media.data.length > INLINE_MEDIA_MAX_CHARS) {
    const { data, ...rest } = msg.media;
    const stored = await uploadMedia(ctx, msg, { data: Buffer.from(data, "base64"), mimeType: rest.mimeType, fileName: rest.fileName }, opts);
    msg = { ...msg, media: { ...rest, ...stored } };
  }
  return ctx.call(CORE_CHANNEL_ACTIONS.inbound, msg, opts) as Promise<InboundResult>;
}

/** Tells the core a sent message was delivered, read, played or failed (a group's receipts name the `participant`). */
export async function ack(ctx: Caller, evt: AckEvent, opts?: CallingOptions): Promise<void> {
  await ctx.call(CORE_CHANNEL_ACTIONS.ack, evt, opts);
}

/**
 * Tells the core of a change made on the channel to a message it stored: a reaction (emoji ""
 * takes the reactor's away), an edit, a deletion by its sender. Safe to repeat; answers
 * `{ applied: false }` for a message the core never stored.
 */
export function changeMessage(ctx: Caller, evt: MessageChangeEvent, opts?: CallingOptions): Promise<MessageChangeResult> {
  return ctx.call(CORE_CHANNEL_ACTIONS.change, evt, opts) as Promise<MessageChangeResult>;
}

/**
 * Tells the core what the channel learnt of a contact: name, picture (null: none), validated
 * on the network, phone; with `previousExternalId`, that another id of the channel is the
 * same person (the core merges the two contacts). Safe to repeat.
 */
export function updateContact(ctx: Caller, evt: ContactUpdateEvent, opts?: CallingOptions): Promise<ContactUpdateResult> {
  return ctx.call(CORE_CHANNEL_ACTIONS.contact, evt, opts) as Promise<ContactUpdateResult>;
}

/** Tells the core the connection's status changed (qrcode, connected, disconnected, …). */
export async function reportStatus(ctx: Caller, evt: StatusEvent, opts?: CallingOptions): Promise<void> {
  await ctx.call(CORE_CHANNEL_ACTIONS.status, evt, opts);
}

/** A connection's public token (widget, webhook URL) → its tenant, id, status and settings; null when unknown. */
export function resolveToken(ctx: Caller, token: string, opts?: CallingOptions): Promise<ResolvedToken | null> {
  return ctx.call(CORE_CHANNEL_ACTIONS.resolveToken, { token }, opts) as Promise<ResolvedToken | null>;
}

// --- errors and validation -----------------------------------------------------------------

/** What `send` throws for a message kind the channel does not support (HTTP 400). */
export class ChannelUnsupportedError extends Errors.MoleculerClientError {
  constructor(kind: string, data: Record<string, unknown> = {}) {
    super(`This channel cannot send "${kind}" messages`, 400, ERR_CHANNEL_UNSUPPORTED, { kind, ...data });
    this.name = "ChannelUnsupportedError";
  }
}

/** Fields each outbound kind needs beyond `kind` (the params validate types, this their presence). */
const REQUIRED_BY_KIND: Record<ChannelCapability, string[]> = {
  text: ["body"],
  media: ["media"],
  reaction: ["targetProviderId", "emoji"],
  edit: ["targetProviderId", "body"],
  delete: ["targetProviderId"],
  template: ["name", "language"],
  sticker: ["media"],
};

/**
 * The first thing a channel's `send` does: throws ChannelUnsupportedError for a kind not in
 * `capabilities` (the manifest's), and a ValidationError naming the missing field of the kind
 * (or a sticker's file that is not a WebP).
 */
export function checkOutbound(capabilities: readonly ChannelCapability[], message: OutboundMessage): void {
  if (!capabilities.includes(message.kind)) throw new ChannelUnsupportedError(message.kind, { supported: [...capabilities] });
  const m = message as unknown as Record<string, unknown>;
  const missing = (REQUIRED_BY_KIND[message.kind] ?? []).filter((f) => m[f] === undefined || m[f] === null || m[f] === "");
  if (missing.length) {
    throw new Errors.ValidationError(
      "Parameters validation error!",
      "VALIDATION_ERROR",
      missing.map((f) => ({ type: "required", field: `message.${f}`, message: `The 'message.${f}' field is required for ${message.kind} messages.` })),
    );
  }
  if (message.kind === "sticker" && String(message.media.mimeType ?? "").split(";")[0].trim().toLowerCase() !== STICKER_MIME_TYPE) {
    throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [
      { type: "equalValue", field: "message.media.mimeType", expected: STICKER_MIME_TYPE, actual: message.media.mimeType, message: `A sticker must be ${STICKER_MIME_TYPE}.` },
    ]);
  }
}

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const optionalString = { type: "string", optional: true } as const;
const providerId = { type: "string", min: 1, max: 255 } as const;
const ref = { tenantId: id, connectionId: id } as const;
const settings = { type: "object" } as const;
const media = {
  type: "object",
  props: {
    path: optionalString,
    url: optionalString,
    data: optionalString,
    mimeType: { type: "string", min: 1 },
    fileName: optionalString,
    size: { type: "number", optional: true, min: 0 },
  },
} as const;

/**
 * fastest-validator params of the five channel actions: every channel declares them as is
 * (`params: channelActionParams.send`), so the core gets the same validation from every plugin.
 */
export const channelActionParams = {
  connect: { ...ref, settings, token: optionalString, publicUrl: optionalString, dataDir: optionalString },
  disconnect: { ...ref },
  status: { ...ref },
  send: {
    ...ref,
    to: { type: "object", props: { externalId: { type: "string", min: 1 } } },
    message: {
      type: "object",
      props: {
        kind: { type: "enum", values: [...CHANNEL_CAPABILITIES] },
        body: optionalString,
        media: { ...media, optional: true },
        replyToProviderId: { ...optionalString },
        targetProviderId: { ...optionalString },
        emoji: optionalString,
        name: optionalString,
        language: optionalString,
        parameters: { type: "array", optional: true },
      },
    },
    messageId: { ...id, optional: true },
  },
  test: { tenantId: id, settings },
  markRead: {
    ...ref,
    to: { type: "object", props: { externalId: { type: "string", min: 1 } } },
    providerMessageIds: { type: "array", items: providerId, min: 1, max: 100 },
  },
  checkNumber: { ...ref, number: { type: "string", pattern: /^\d{6,20}$/ } },
} as const;

/**
 * fastest-validator params of the core's channel actions (channels.inbound / ack / change /
 * contact / status): the conformance kit's fake core declares these; the core's `channels`
 * service declares the same fields with the lengths its tables keep.
 */
export const coreChannelParams = {
  inbound: {
    ...ref,
    providerMessageId: providerId,
    timestamp: { type: "number", positive: true, integer: true },
    from: {
      type: "object",
      props: {
        externalId: { type: "string", min: 1 },
        name: optionalString,
        phone: optionalString,
        email: optionalString,
        avatarUrl: optionalString,
      },
    },
    body: optionalString,
    media: { ...media, optional: true },
    location: { type: "object", optional: true, props: { latitude: "number", longitude: "number", name: optionalString } },
    contactCard: { type: "object", optional: true, props: { name: "string", phone: optionalString } },
    replyToProviderId: optionalString,
    isGroup: { type: "boolean", optional: true },
    fromMe: { type: "boolean", optional: true },
    participant: { type: "object", optional: true, props: { externalId: { type: "string", min: 1 }, name: optionalString, phone: optionalString } },
    verifiedBizName: { type: "string", optional: true, max: 200 },
    imported: { type: "object", optional: true, props: { closeTicket: { type: "boolean", optional: true } } },
  },
  ack: {
    ...ref,
    providerMessageId: providerId,
    status: { type: "enum", values: [...ACK_STATUSES] },
    reason: optionalString,
    timestamp: { type: "number", optional: true, positive: true },
    participant: { type: "string", optional: true, min: 1 },
  },
  change: {
    ...ref,
    providerMessageId: providerId,
    change: {
      type: "object",
      props: {
        type: { type: "enum", values: ["reaction", "edit", "delete"] },
        emoji: optionalString,
        by: { type: "string", optional: true, min: 1 },
        fromMe: { type: "boolean", optional: true },
        body: optionalString,
      },
    },
    timestamp: { type: "number", optional: true, positive: true },
  },
  contact: {
    ...ref,
    externalId: { type: "string", min: 1 },
    name: optionalString,
    avatarUrl: { type: "string", optional: true, nullable: true },
    phone: optionalString,
    validated: { type: "boolean", optional: true },
    previousExternalId: { type: "string", optional: true, min: 1 },
    create: { type: "boolean", optional: true },
  },
  status: {
    ...ref,
    status: { type: "enum", values: [...CONNECTION_STATUSES] },
    qrcode: optionalString,
    detail: optionalString,
  },
} as const;
