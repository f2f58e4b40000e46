/**
 * The typed client of the core API (contract.ts). Made from the plugin's service (`this` in
 * created/started and in actions) or from the Context of an action or event being handled:
 *
 *   const api = coreApi(ctx);
 *   const { rows } = await api.tickets.list({ tenantId, status: ["open"], tagIds: [3] });
 *   await api.realtime.push({ tenantId, event: "card.moved", payload: card });
 *
 * Calls made from a Context keep its request chain (timeouts, tracing). The core learns who is
 * calling from the plugin's identity, not from these calls' parameters; the `$caller` the client
 * adds names the plugin for a plugin in the core's own process and is replaced by the verified
 * identity for a plugin in a node of its own.
 */
import { Readable } from "node:stream";
import type { Context, ServiceBroker } from "moleculer";
import type { PlatformActions, PlatformFile } from "./contract";
import { base64Chunks } from "../media-transfer";

type ServiceLike = { name: string; broker: ServiceBroker; metadata?: Record<string, unknown> };
type Source = ServiceLike | Context;

type Params<A extends keyof PlatformActions> = PlatformActions[A]["params"];
type Result<A extends keyof PlatformActions> = Promise<PlatformActions[A]["result"]>;

function isContext(x: Source): x is Context {
  return typeof (x as Context).call === "function" && "params" in (x as object);
}

/** The plugin id of a service made by definePlugin (its metadata), else its name. */
function pluginIdOf(svc: ServiceLike | undefined): string {
  const meta = svc?.metadata?.plugin as { id?: string } | undefined;
  const id = meta?.id ?? svc?.name;
  if (!id) throw new Error("coreApi: call it with the plugin's service (this) or the Context of one of its actions");
  return id;
}

export interface CoreApi {
  call<A extends keyof PlatformActions>(action: A, params: Params<A>): Result<A>;
  contacts: {
    get(p: Params<"platform.contacts.get">): Result<"platform.contacts.get">;
    list(p: Params<"platform.contacts.list">): Result<"platform.contacts.list">;
    after(p: Params<"platform.contacts.after">): Result<"platform.contacts.after">;
    byTags(p: Params<"platform.contacts.byTags">): Result<"platform.contacts.byTags">;
    update(p: Params<"platform.contacts.update">): Result<"platform.contacts.update">;
    addresses(p: Params<"platform.contacts.addresses">): Result<"platform.contacts.addresses">;
  };
  tickets: {
    get(p: Params<"platform.tickets.get">): Result<"platform.tickets.get">;
    list(p: Params<"platform.tickets.list">): Result<"platform.tickets.list">;
    after(p: Params<"platform.tickets.after">): Result<"platform.tickets.after">;
    update(p: Params<"platform.tickets.update">): Result<"platform.tickets.update">;
  };
  messages: {
    list(p: Params<"platform.messages.list">): Result<"platform.messages.list">;
    get(p: Params<"platform.messages.get">): Result<"platform.messages.get">;
    send(p: Params<"platform.messages.send">): Result<"platform.messages.send">;
    sendTo(p: Params<"platform.messages.sendTo">): Result<"platform.messages.sendTo">;
  };
  templates: { list(p: Params<"platform.templates.list">): Result<"platform.templates.list"> };
  connections: { balance(p: Params<"platform.connections.balance">): Result<"platform.connections.balance"> };
  queues: { list(p: Params<"platform.queues.list">): Result<"platform.queues.list"> };
  users: {
    list(p: Params<"platform.users.list">): Result<"platform.users.list">;
    get(p: Params<"platform.users.get">): Result<"platform.users.get">;
    availability(p: Params<"platform.users.availability">): Result<"platform.users.availability">;
  };
  tags: { list(p: Params<"platform.tags.list">): Result<"platform.tags.list"> };
  settings: { get(p: Params<"platform.settings.get">): Result<"platform.settings.get"> };
  notes: { list(p: Params<"platform.notes.list">): Result<"platform.notes.list"> };
  businessTime: { state(p: Params<"platform.businessTime.state">): Result<"platform.businessTime.state"> };
  realtime: { push(p: Params<"platform.realtime.push">): Result<"platform.realtime.push"> };
  chatbots: {
    bindings(p: Params<"platform.chatbots.bindings">): Result<"platform.chatbots.bindings">;
    bind(p: Params<"platform.chatbots.bind">): Result<"platform.chatbots.bind">;
    start(p: Params<"platform.chatbots.start">): Result<"platform.chatbots.start">;
    handoff(p: Params<"platform.chatbots.handoff">): Result<"platform.chatbots.handoff">;
  };
  plan: { assertWithin(p: Params<"platform.plan.assertWithin">): Result<"platform.plan.assertWithin"> };
  /** Claims on a contact's next messages (hooks-contract.ts onClaimedInbound). */
  inbound: {
    claim(p: Params<"platform.inbound.claim">): Result<"platform.inbound.claim">;
    release(p: Params<"platform.inbound.release">): Result<"platform.inbound.release">;
  };
  /** Stores a file among the tenant's files, its bytes streamed in base64 chunks (the SDK's uploadPlatformFile). */
  files: { upload(p: PlatformFileUpload): Promise<PlatformFile> };
}

/** What a plugin uploads: the file's bytes and names; `maxBytes` lowers the core's 10 MB cap (flow media: 5 MB). */
export interface PlatformFileUpload {
  tenantId: number;
  data: Buffer;
  mimeType: string;
  fileName: string;
  maxBytes?: number;
}

export function coreApi(source: Source): CoreApi {
  const ctx = isContext(source) ? source : null;
  const plugin = pluginIdOf(ctx ? (ctx.service as unknown as ServiceLike | undefined) : (source as ServiceLike));
  const broker = ctx ? null : (source as ServiceLike).broker;
  const call = <A extends keyof PlatformActions>(action: A, params: Params<A>): Result<A> => {
    const opts = { meta: { $caller: { plugin } } };
    return (ctx ? ctx.call(action, params, opts) : broker!.call(action, params, opts)) as Result<A>;
  };
  const upload = (f: PlatformFileUpload): Promise<PlatformFile> => {
    const params: Params<"platform.files.upload"> = { tenantId: f.tenantId, fileName: f.fileName, mimeType: f.mimeType, ...(f.maxBytes !== undefined ? { maxBytes: f.maxBytes } : {}) };
    const opts = { meta: { $caller: { plugin } }, stream: Readable.from(base64Chunks(f.data), { objectMode: true }) };
    return (ctx ? ctx.call("platform.files.upload", params, opts) : broker!.call("platform.files.upload", params, opts)) as Promise<PlatformFile>;
  };
  const fn =
    <A extends keyof PlatformActions>(action: A) =>
    (p: Params<A>) =>
      call(action, p);
  return {
    call,
    contacts: { get: fn("platform.contacts.get"), list: fn("platform.contacts.list"), after: fn("platform.contacts.after"), byTags: fn("platform.contacts.byTags"), update: fn("platform.contacts.update"), addresses: fn("platform.contacts.addresses") },
    tickets: { get: fn("platform.tickets.get"), list: fn("platform.tickets.list"), after: fn("platform.tickets.after"), update: fn("platform.tickets.update") },
    messages: { list: fn("platform.messages.list"), get: fn("platform.messages.get"), send: fn("platform.messages.send"), sendTo: fn("platform.messages.sendTo") },
    templates: { list: fn("platform.templates.list") },
    connections: { balance: fn("platform.connections.balance") },
    queues: { list: fn("platform.queues.list") },
    users: { list: fn("platform.users.list"), get: fn("platform.users.get"), availability: fn("platform.users.availability") },
    tags: { list: fn("platform.tags.list") },
    settings: { get: fn("platform.settings.get") },
    notes: { list: fn("platform.notes.list") },
    businessTime: { state: fn("platform.businessTime.state") },
    realtime: { push: fn("platform.realtime.push") },
    chatbots: { bindings: fn("platform.chatbots.bindings"), bind: fn("platform.chatbots.bind"), start: fn("platform.chatbots.start"), handoff: fn("platform.chatbots.handoff") },
    plan: { assertWithin: fn("platform.plan.assertWithin") },
    inbound: { claim: fn("platform.inbound.claim"), release: fn("platform.inbound.release") },
    files: { upload },
  };
}
