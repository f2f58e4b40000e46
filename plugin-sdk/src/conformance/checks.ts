/**
 * The checks of the channel conformance kit, as plain async functions that throw a
 * ConformanceError saying what the plugin got wrong. runChannelConformance() wraps each in a
 * jest `it`; they can also be called directly (the kit's own tests do, against plugins that
 * break the contract on purpose).
 *
 * Order matters: startHarness, checkDefinition, checkActions, checkConnect, checkStatus,
 * checkSend (per capability), checkUnsupported, checkTest, checkInbound, checkChange (per
 * declared reaction/edit/delete), checkContact, checkDisconnect.
 */
import * as os from "node:os";
import Validator from "fastest-validator";
import { ServiceBroker } from "moleculer";
import {
  CHANNEL_ACTIONS,
  OPTIONAL_CHANNEL_ACTIONS,
  CHANNEL_CAPABILITIES,
  CONNECTION_STATUSES,
  ChannelCapability,
  ConnectionRef,
  ERR_CHANNEL_UNSUPPORTED,
  MediaRef,
  OutboundMessage,
  StatusResult,
} from "../channel-contract";
import { DefinedPlugin, isDefinedPlugin, pluginServiceName } from "../define-plugin";
import { callChannel } from "../helpers";
import { createFakeCore, FakeCore } from "./fake-core";
import { sampleMessage } from "./samples";

export { sampleMessage };
import { PluginContext, PluginContextInput, withPluginContext } from "../plugin-context";

export class ConformanceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConformanceError";
  }
}

/** Makes the plugin receive a provider message, the way the real provider would deliver it. */
export interface InboundDriver {
  /**
   * Delivers the provider message identified by `key` to the plugin's connection `ref`
   * (a webhook call, a frame on a fake provider socket, …). Called again with the same key,
   * the provider redelivers the same message (a replay).
   */
  triggerInbound(broker: ServiceBroker, ref: ConnectionRef, key: string): Promise<void>;
  /**
   * Optional: the provider reports a change to the message `key` it delivered before — someone
   * reacts to it ("reaction"), the same person takes the reaction away ("unreaction"), its
   * sender edits it ("edit") or deletes it for everyone ("delete"). With it, the kit checks
   * that each change the plugin declares among its capabilities (reaction, edit, delete)
   * reaches channels.change naming the message by the provider id channels.inbound got.
   */
  triggerChange?(broker: ServiceBroker, ref: ConnectionRef, key: string, change: ChangeTrigger): Promise<void>;
  /**
   * Optional: the provider tells the plugin something new of the person who sent message
   * `key` (a new name or picture). With it, the kit checks it reaches channels.contact for the
   * same externalId channels.inbound named as `from`.
   */
  triggerContact?(broker: ServiceBroker, ref: ConnectionRef, key: string): Promise<void>;
}

export type ChangeTrigger = "reaction" | "unreaction" | "edit" | "delete";
/** Outbound capabilities whose inbound counterpart (a change made on the channel) the kit checks. */
export const CHANGE_KINDS: readonly ChannelCapability[] = ["reaction", "edit", "delete"];

export interface ChannelConformanceOptions {
  plugin: DefinedPlugin;
  /** Valid connection settings for the plugin (checked against its settingsSchema); a function is called after setup. */
  settings: Record<string, unknown> | (() => Record<string, unknown> | Promise<Record<string, unknown>>);
  /** Without a driver the inbound check is skipped. */
  driver?: InboundDriver;
  /** The connection used by the kit (default tenant 101, connection 7). */
  ref?: ConnectionRef;
  /** The recipient of sends (default externalId "conformance-recipient"). */
  to?: { externalId: string };
  /** The media sent by the media check (default a small PNG by URL). */
  media?: MediaRef;
  /** The WebP sent by the sticker check (default a 512x512 transparent WebP, inline). */
  sticker?: MediaRef;
  /** How long to wait for what the plugin reports asynchronously (default 5000 ms). */
  timeoutMs?: number;
  /** The platform context the plugin's service gets (default: a namespace of its own, local Redis, the OS temp folder); a function is called after setup. */
  context?: Partial<PluginContext> | (() => Partial<PluginContext>);
  /** Runs before the broker starts (start a fake provider server here) and after it stops. */
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
}

export interface ConformanceHarness {
  broker: ServiceBroker;
  core: FakeCore;
  plugin: DefinedPlugin;
  /** "v<major>.<id>" */
  service: string;
  ref: ConnectionRef;
  settings: Record<string, unknown>;
  opts: ChannelConformanceOptions;
  /** Provider ids answered by sends, for reaction/edit/delete targets. */
  sent: string[];
  stop(): Promise<void>;
}

const DEFAULT_REF: ConnectionRef = { tenantId: 101, connectionId: 7 };
/** Send order: kinds that produce a target first, then the kinds that point at one. */
export const SEND_ORDER: readonly ChannelCapability[] = ["text", "media", "sticker", "template", "reaction", "edit", "delete"];
/** 2001-09-09 in ms: a smaller timestamp is almost surely in seconds. */
const MIN_MS_TIMESTAMP = 1e12;

const show = (x: unknown) => JSON.stringify(x)?.slice(0, 300) ?? String(x);

function fail(message: string): never {
  throw new ConformanceError(message);
}

async function waitFor(h: ConformanceHarness, what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + (h.opts.timeoutMs ?? 5000);
  while (!ok()) {
    if (Date.now() > deadline) fail(`timed out after ${h.opts.timeoutMs ?? 5000} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function attempt<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { message?: string; type?: string; data?: unknown };
    fail(`${what} failed: ${e.type ? `[${e.type}] ` : ""}${e.message ?? String(err)}${e.data ? ` ${show(e.data)}` : ""}`);
  }
}

function noInvalidCalls(h: ConformanceHarness) {
  if (h.core.invalid.length) {
    fail(`the plugin called the core with invalid params: ${h.core.invalid.map((i) => `channels.${i.action}: ${i.errors.join("; ")} in ${show(i.params)}`).join(" | ")}`);
  }
}

/** Delivers message `key` and answers what channels.inbound got for it. */
async function deliverOne(h: ConformanceHarness, driver: InboundDriver, key: string) {
  const mine = () => h.core.inbound.filter((m) => sameRef(m, h.ref));
  await attempt("driver.triggerInbound", () => driver.triggerInbound(h.broker, { ...h.ref }, key));
  await waitFor(h, `a channels.inbound call for connection ${show(h.ref)}`, () => mine().length > 0 || h.core.invalid.length > 0);
  noInvalidCalls(h);
  return mine()[0];
}

function isStatusResult(x: unknown): x is StatusResult {
  return typeof x === "object" && x !== null && (CONNECTION_STATUSES as readonly unknown[]).includes((x as StatusResult).status);
}

function expectStatusResult(action: string, res: unknown): StatusResult {
  if (!isStatusResult(res)) fail(`${action} must answer { status } with status one of ${CONNECTION_STATUSES.join(", ")}; got ${show(res)}`);
  if (res.status === "qrcode" && typeof res.qrcode !== "string") fail(`${action} answered status "qrcode" without a qrcode string`);
  return res;
}

/** No redisPrefix: the plugin's keys go under the namespace (the test's own, which it may name). */
function defaultContext(): PluginContextInput {
  return {
    namespace: `conformance-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    redisUrl: "redis://127.0.0.1:6379",
    dataDir: os.tmpdir(),
    publicUrl: "http://localhost",
    localFiles: true,
    external: false,
  };
}

const sameRef = (a: ConnectionRef, b: ConnectionRef) => a.tenantId === b.tenantId && a.connectionId === b.connectionId;

export async function startHarness(opts: ChannelConformanceOptions): Promise<ConformanceHarness> {
  if (!isDefinedPlugin(opts.plugin)) fail("the plugin is not an object made by definePlugin()");
  await opts.setup?.();
  const settings = typeof opts.settings === "function" ? await opts.settings() : opts.settings;
  const broker = new ServiceBroker({ logger: false, nodeID: `conformance-${process.pid}-${Math.random().toString(36).slice(2, 8)}` });
  const core = createFakeCore();
  const h: ConformanceHarness = {
    broker,
    core,
    plugin: opts.plugin,
    service: pluginServiceName(opts.plugin.id, opts.plugin.major),
    ref: { ...(opts.ref ?? DEFAULT_REF) },
    settings,
    opts,
    sent: [],
    async stop() {
      await broker.stop();
      await opts.teardown?.();
    },
  };
  try {
    broker.createService(core.schema);
    broker.createService(withPluginContext(opts.plugin.schema, { ...defaultContext(), ...((typeof opts.context === "function" ? opts.context() : opts.context) ?? {}) }));
    await broker.start();
  } catch (err) {
    await broker.stop().catch(() => undefined);
    await opts.teardown?.();
    throw err;
  }
  return h;
}

/** A tagged channel plugin whose service name/version follow the manifest and whose test settings match its settingsSchema. */
export function checkDefinition(h: Pick<ConformanceHarness, "plugin" | "settings">): void {
  const p = h.plugin;
  if (!isDefinedPlugin(p)) fail("the plugin is not an object made by definePlugin()");
  if (p.manifest.kind !== "channel") fail(`manifest kind is ${show(p.manifest.kind)}, not "channel"`);
  const caps = p.manifest.channel?.capabilities ?? [];
  if (!caps.length) fail("manifest declares no platform.channel.capabilities");
  if (p.schema.name !== p.id || p.schema.version !== p.major) fail(`service must be named ${p.id} version ${p.major}; got ${show(p.schema.name)} version ${show(p.schema.version)}`);
  if (p.manifest.settingsSchema) {
    const res = new Validator().validate(h.settings, p.manifest.settingsSchema as never);
    if (res !== true) fail(`the kit's settings do not match the manifest's settingsSchema: ${(res as Array<{ message?: string }>).map((e) => e.message).join("; ")}`);
  }
}

/** The five actions exist, declare params, and the params are enforced. */
export async function checkActions(h: ConformanceHarness): Promise<void> {
  const svc = h.broker.getLocalService({ name: h.plugin.id, version: h.plugin.major });
  if (!svc) fail(`service ${h.service} did not start`);
  const actions = (svc.schema.actions ?? {}) as Record<string, unknown>;
  for (const a of CHANNEL_ACTIONS) {
    const def = actions[a];
    if (!def || (typeof def !== "object" && typeof def !== "function")) fail(`action ${a} is missing`);
    const params = typeof def === "object" ? (def as { params?: unknown }).params : undefined;
    if (!params || typeof params !== "object" || Object.keys(params).length === 0) fail(`action ${a} declares no params (use channelActionParams.${a})`);
  }
  // The optional actions the manifest's flags declare (receipts → markRead, templates → templatesList…).
  const declared = (h.plugin.manifest.channel ?? {}) as Record<string, unknown>;
  for (const [a, flag] of Object.entries(OPTIONAL_CHANNEL_ACTIONS)) {
    if (declared[flag] !== true) continue;
    const def = actions[a];
    if (!def || (typeof def !== "object" && typeof def !== "function")) fail(`action ${a} is missing (the manifest declares platform.channel.${flag})`);
  }
  let refused: { type?: string } | null = null;
  try {
    await h.broker.call(`${h.service}.send`, { tenantId: h.ref.tenantId });
  } catch (err) {
    refused = err as { type?: string };
  }
  if (!refused || refused.type !== "VALIDATION_ERROR") fail(`send without connectionId, to and message must fail params validation (VALIDATION_ERROR); got ${refused ? show(refused.type) : "success"}`);
}

/** connect answers a valid status and reports it through channels.status. */
export async function checkConnect(h: ConformanceHarness): Promise<void> {
  h.core.reset();
  const res = expectStatusResult("connect", await attempt("connect", () => callChannel(h.broker, h.service, "connect", { ...h.ref, settings: h.settings })));
  await waitFor(h, `a channels.status report with status ${show(res.status)} for connection ${show(h.ref)} after connect`, () =>
    h.core.statuses.some((s) => sameRef(s, h.ref) && s.status === res.status) || h.core.invalid.length > 0,
  );
  noInvalidCalls(h);
}

export async function checkStatus(h: ConformanceHarness): Promise<void> {
  expectStatusResult("status", await attempt("status", () => callChannel(h.broker, h.service, "status", { ...h.ref })));
}

/** send of a declared kind answers { providerMessageId, timestamp } (ms). */
export async function checkSend(h: ConformanceHarness, kind: ChannelCapability): Promise<void> {
  const message = sampleMessage(kind, h.sent[0] ?? "conformance-target", h.opts.media, h.opts.sticker);
  const res = (await attempt(`send ${kind}`, () =>
    callChannel(h.broker, h.service, "send", { ...h.ref, to: h.opts.to ?? { externalId: "conformance-recipient" }, message, messageId: 1 }),
  )) as unknown as Record<string, unknown> | null;
  if (!res || typeof res.providerMessageId !== "string" || !res.providerMessageId) fail(`send ${kind} must answer a non-empty providerMessageId string; got ${show(res)}`);
  if (typeof res.timestamp !== "number" || !Number.isFinite(res.timestamp) || res.timestamp < MIN_MS_TIMESTAMP) {
    fail(`send ${kind} must answer timestamp in ms since the epoch; got ${show(res.timestamp)}`);
  }
  if (kind === "text" || kind === "media" || kind === "sticker" || kind === "template") h.sent.push(res.providerMessageId);
  noInvalidCalls(h);
}

/** send of each undeclared kind throws ERR_CHANNEL_UNSUPPORTED (400). */
export async function checkUnsupported(h: ConformanceHarness, kinds: readonly ChannelCapability[] = undeclaredKinds(h.plugin)): Promise<void> {
  for (const kind of kinds) {
    let err: { type?: string; code?: number } | null = null;
    try {
      await callChannel(h.broker, h.service, "send", { ...h.ref, to: h.opts.to ?? { externalId: "conformance-recipient" }, message: sampleMessage(kind, "conformance-target", h.opts.media, h.opts.sticker) });
    } catch (e) {
      err = e as { type?: string; code?: number };
    }
    if (!err) fail(`send ${kind} is not declared in platform.channel.capabilities but succeeded; it must throw ChannelUnsupportedError`);
    if (err.type !== ERR_CHANNEL_UNSUPPORTED || err.code !== 400) fail(`send ${kind} (undeclared) must throw ${ERR_CHANNEL_UNSUPPORTED} with code 400; got ${show({ type: err.type, code: err.code })}`);
  }
}

export function declaredKinds(plugin: DefinedPlugin): ChannelCapability[] {
  const caps = plugin.manifest.channel?.capabilities ?? [];
  return SEND_ORDER.filter((k) => caps.includes(k));
}

export function undeclaredKinds(plugin: DefinedPlugin): ChannelCapability[] {
  const caps = plugin.manifest.channel?.capabilities ?? [];
  return CHANNEL_CAPABILITIES.filter((k) => !caps.includes(k));
}

export async function checkTest(h: ConformanceHarness): Promise<void> {
  const res = (await attempt("test", () => callChannel(h.broker, h.service, "test", { tenantId: h.ref.tenantId, settings: h.settings }))) as unknown as Record<string, unknown> | null;
  if (!res || typeof res.ok !== "boolean") fail(`test must answer { ok: boolean }; got ${show(res)}`);
}

/**
 * A provider message reaches channels.inbound with tenantId, connectionId, providerMessageId,
 * a ms timestamp and from.externalId; its replay carries the same providerMessageId.
 */
export async function checkInbound(h: ConformanceHarness, driver: InboundDriver | undefined = h.opts.driver): Promise<void> {
  if (!driver) fail("checkInbound needs a driver");
  h.core.reset();
  const key = `conformance-${Date.now()}`;
  const mine = () => h.core.inbound.filter((m) => sameRef(m, h.ref));
  await attempt("driver.triggerInbound", () => driver.triggerInbound(h.broker, { ...h.ref }, key));
  await waitFor(h, `a channels.inbound call for connection ${show(h.ref)}`, () => mine().length > 0 || h.core.invalid.length > 0);
  noInvalidCalls(h);
  const first = mine()[0];
  if (first.timestamp < MIN_MS_TIMESTAMP) fail(`inbound timestamp must be in ms since the epoch; got ${first.timestamp}`);
  await attempt("driver.triggerInbound (replay)", () => driver.triggerInbound(h.broker, { ...h.ref }, key));
  await waitFor(h, "the replayed message at channels.inbound", () => mine().length > 1 || h.core.invalid.length > 0);
  noInvalidCalls(h);
  const replay = mine()[1];
  if (replay.providerMessageId !== first.providerMessageId) {
    fail(`a replay of the same provider message must carry the same providerMessageId; got ${show(first.providerMessageId)} then ${show(replay.providerMessageId)}`);
  }
}

/** Which changes made on the channel the kit checks for this plugin: its declared reaction/edit/delete, when the driver can make them. */
export function checkedChanges(plugin: DefinedPlugin, driver: InboundDriver | undefined): ChannelCapability[] {
  if (!driver?.triggerChange) return [];
  const caps = plugin.manifest.channel?.capabilities ?? [];
  return CHANGE_KINDS.filter((k) => caps.includes(k));
}

/**
 * A change made on the channel to a delivered message reaches channels.change naming that
 * message's provider id (as channels.inbound got it) with the right kind; a reaction names who
 * reacted, and that person taking it away is the same `by` with emoji "".
 */
export async function checkChange(h: ConformanceHarness, kind: ChannelCapability, driver: InboundDriver | undefined = h.opts.driver): Promise<void> {
  if (!driver?.triggerChange) fail("checkChange needs a driver with triggerChange");
  h.core.reset();
  const key = `conformance-${kind}-${Date.now()}`;
  const target = (await deliverOne(h, driver, key)).providerMessageId;
  const mine = () => h.core.changes.filter((c) => sameRef(c, h.ref));
  const expectChange = async (trigger: ChangeTrigger, n: number) => {
    await attempt(`driver.triggerChange (${trigger})`, () => driver.triggerChange!(h.broker, { ...h.ref }, key, trigger));
    await waitFor(h, `a channels.change call (${trigger}) for connection ${show(h.ref)}`, () => mine().length >= n || h.core.invalid.length > 0);
    noInvalidCalls(h);
    const c = mine()[n - 1];
    if (c.providerMessageId !== target) fail(`channels.change must name the changed message by the provider id channels.inbound got (${show(target)}); got ${show(c.providerMessageId)}`);
    const type = trigger === "unreaction" ? "reaction" : trigger;
    if (c.change.type !== type) fail(`a ${trigger} on the channel must reach channels.change as change.type ${show(type)}; got ${show(c.change.type)}`);
    return c.change;
  };
  if (kind === "reaction") {
    const added = await expectChange("reaction", 1);
    if (added.type !== "reaction" || !added.emoji) fail(`a reaction must carry its emoji; got ${show(added)}`);
    const removed = await expectChange("unreaction", 2);
    if (removed.type !== "reaction" || removed.emoji !== "" || removed.by !== added.by) {
      fail(`a reaction taken away must be emoji "" by the same reactor (${show(added.by)}); got ${show(removed)}`);
    }
  } else await expectChange(kind === "edit" ? "edit" : "delete", 1);
}

/** What the provider tells of a contact reaches channels.contact for the externalId inbound messages name as `from`. */
export async function checkContact(h: ConformanceHarness, driver: InboundDriver | undefined = h.opts.driver): Promise<void> {
  if (!driver?.triggerContact) fail("checkContact needs a driver with triggerContact");
  h.core.reset();
  const key = `conformance-contact-${Date.now()}`;
  const from = (await deliverOne(h, driver, key)).from.externalId;
  const mine = () => h.core.contacts.filter((c) => sameRef(c, h.ref));
  await attempt("driver.triggerContact", () => driver.triggerContact!(h.broker, { ...h.ref }, key));
  await waitFor(h, `a channels.contact call for connection ${show(h.ref)}`, () => mine().length > 0 || h.core.invalid.length > 0);
  noInvalidCalls(h);
  const u = mine()[0];
  if (u.externalId !== from) fail(`channels.contact must name the contact by the externalId its messages come from (${show(from)}); got ${show(u.externalId)}`);
}

/** disconnect answers a valid status and reports "disconnected" through channels.status. */
export async function checkDisconnect(h: ConformanceHarness): Promise<void> {
  h.core.reset();
  expectStatusResult("disconnect", await attempt("disconnect", () => callChannel(h.broker, h.service, "disconnect", { ...h.ref })));
  await waitFor(h, `a channels.status report "disconnected" for connection ${show(h.ref)}`, () =>
    h.core.statuses.some((s) => sameRef(s, h.ref) && s.status === "disconnected") || h.core.invalid.length > 0,
  );
  noInvalidCalls(h);
}
