/**
 * The conformance kit of the chatbot kind (chatbot-contract.ts): a jest suite a chatbot plugin
 * runs against itself, with a fake core that records every core API call (chatbot-fake-core.ts).
 *
 *   // plugins/chatbot-acme/test/conformance.test.ts
 *   import { runChatbotConformance } from "@openatende/plugin-sdk";
 *   import plugin from "../src/service";
 *   runChatbotConformance({ plugin, ref: async (h, tenantId) => createBot(h.broker, tenantId), answer: "1" });
 *
 * It proves the plugin: is of kind "chatbot" with the chatbotMessage action taking the
 * contract's ChatbotInbound; refuses a malformed inbound without calling the core; acts on a
 * "started" inbound and on a customer's message (a message sent, a hand-off, a close) with
 * calls the core accepts; skips a repeated inbound id; and, handling one tenant's ticket, calls
 * the core for that tenant only. The checks are plain functions too (the kit's tests call them).
 */
import * as os from "node:os";
import { ServiceBroker, type ServiceSchema } from "moleculer";
import { CHATBOT_MESSAGE_ACTION, type ChatbotInbound } from "../chatbot-contract";
import { isDefinedPlugin, pluginServiceName, type DefinedPlugin } from "../define-plugin";
import { withPluginContext, type PluginContext, type PluginContextInput } from "../plugin-context";
import { ConformanceError } from "./checks";
import { checkPluginDefinition, checkEvents, checkRoutes, checkUi } from "./generic";
import { createFakePlatform, isActingCall, type FakePlatform, type FakePlatformCall, type FakePlatformOptions } from "./chatbot-fake-core";

export interface ChatbotConformanceOptions {
  plugin: DefinedPlugin;
  /**
   * The bot the kit's tickets are handed to (the plugin's ref: a flow id…). A function is called
   * once per tenant after the broker started: create the bot there (its database, its settings).
   */
  ref: string | ((h: ChatbotHarness, tenantId: number) => string | Promise<string>);
  /** The customer's message after the start (default "1"): the bot must still be talking when it comes. */
  answer?: string;
  /** The message that opened the ticket, in the "started" inbound (default "Olá"; null: none). */
  opening?: string | null;
  /** The fake core's tenants (two at least; default 201 and 202), business time, plan cap. */
  fake?: FakePlatformOptions;
  /** The platform context of the plugin's service (default: the OS temp folder, local Redis); a function is called after setup. */
  context?: Partial<PluginContext> | (() => Partial<PluginContext>);
  /** More stand-ins the plugin calls, created on the kit's broker. */
  services?: ServiceSchema[];
  /** Runs before the broker starts (a fake Typebot server…) and after it stops. */
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** How long to wait for what the bot does (default 5000 ms). */
  timeoutMs?: number;
  /** How long a repeated inbound is watched for a second action (default 300 ms). */
  settleMs?: number;
  name?: string;
}

export interface ChatbotHarness {
  broker: ServiceBroker;
  core: FakePlatform;
  plugin: DefinedPlugin;
  /** "v<major>.<id>" */
  service: string;
  /** The tenant the checks use, and another one. */
  tenants: [number, number];
  refs: Map<number, string>;
  opts: ChatbotConformanceOptions;
  stop(): Promise<void>;
}

const show = (x: unknown) => JSON.stringify(x)?.slice(0, 300) ?? String(x);

function fail(message: string): never {
  throw new ConformanceError(message);
}

async function waitFor(h: ChatbotHarness, what: string, ok: () => boolean): Promise<void> {
  const ms = h.opts.timeoutMs ?? 5000;
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) fail(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const describeCall = (c: FakePlatformCall) => `${c.action} ${show(c.params)}`;

/** What the core refused or found invalid among the calls from index `from` on. */
function noRejectedCalls(h: ChatbotHarness, from = 0): void {
  const invalid = h.core.invalid.filter((c) => c.seq >= from);
  if (invalid.length) fail(`the plugin called the core with invalid params: ${invalid.map((i) => `${describeCall(i)}: ${i.errors.join("; ")}`).join(" | ")}`);
  const refused = h.core.refused.filter((r) => r.seq >= from);
  const cross = refused.find((r) => r.crossTenant);
  if (cross) fail(`the plugin reached another tenant's data: ${describeCall(cross)} was refused with ${cross.type}`);
  if (refused.length) fail(`the core refused the plugin's calls: ${refused.map((r) => `${describeCall(r)} → ${r.type}`).join(" | ")}`);
}

/** Every call from index `from` on names `tenantId`. */
function onlyTenant(h: ChatbotHarness, from: number, tenantId: number): void {
  const other = h.core.calls.slice(from).find((c) => c.params?.tenantId !== tenantId);
  if (other) fail(`handling tenant ${tenantId}'s inbound, the plugin called the core for tenant ${show(other.params?.tenantId)}: ${describeCall(other)}`);
}

async function deliver(h: ChatbotHarness, inbound: ChatbotInbound): Promise<unknown> {
  try {
    return await h.broker.call(`${h.service}.${CHATBOT_MESSAGE_ACTION}`, inbound);
  } catch (err) {
    const e = err as { message?: string; type?: string; data?: unknown };
    const from = h.core.refused.length ? ` (the core refused ${describeCall(h.core.refused[h.core.refused.length - 1])} with ${h.core.refused[h.core.refused.length - 1].type})` : "";
    fail(`${CHATBOT_MESSAGE_ACTION} (${inbound.reason}, id ${inbound.id}) failed: ${e.type ? `[${e.type}] ` : ""}${e.message ?? String(err)}${e.data ? ` ${show(e.data)}` : ""}${from}`);
  }
}

const actingOn = (h: ChatbotHarness, ticketId: number, from: number) => h.core.calls.slice(from).filter((c) => isActingCall(c) && (c.params?.ticketId === ticketId || c.params?.id === ticketId));

/** Delivers `inbound` and waits until the bot acts on its ticket (answers the calls it made). */
async function deliverAndWaitAct(h: ChatbotHarness, inbound: ChatbotInbound): Promise<FakePlatformCall[]> {
  const from = h.core.calls.length;
  await deliver(h, inbound);
  await waitFor(h, `the bot to act on ticket ${inbound.ticket.id} after its "${inbound.reason}" inbound (platform.messages.send, platform.chatbots.handoff or platform.tickets.update)`, () =>
    actingOn(h, inbound.ticket.id, from).length > 0 || h.core.invalid.length > 0 || h.core.refused.length > 0,
  );
  noRejectedCalls(h, from);
  onlyTenant(h, from, inbound.tenantId);
  return h.core.calls.slice(from);
}

/** A new ticket of `tenantId` handed to the plugin's bot. */
function ticketFor(h: ChatbotHarness, tenantId: number): number {
  return h.core.newTicket(tenantId, { pluginId: h.plugin.id, ref: h.refs.get(tenantId)! });
}

function defaultContext(): PluginContextInput {
  return {
    namespace: `chatbot-conformance-${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    redisUrl: "redis://127.0.0.1:6379",
    dataDir: os.tmpdir(),
    publicUrl: "http://localhost",
    localFiles: true,
    external: false,
  };
}

export async function startChatbotHarness(opts: ChatbotConformanceOptions): Promise<ChatbotHarness> {
  if (!isDefinedPlugin(opts.plugin)) fail("the plugin is not an object made by definePlugin()");
  const core = createFakePlatform(opts.fake);
  const tenants = (opts.fake?.tenants ?? [201, 202]).slice(0, 2) as [number, number];
  if (tenants.length < 2) fail("the chatbot kit needs two tenants (fake.tenants) to check that one's tickets never reach the other");
  await opts.setup?.();
  const broker = new ServiceBroker({ logger: false, nodeID: `chatbot-conformance-${process.pid}-${Math.random().toString(36).slice(2, 8)}` });
  const h: ChatbotHarness = {
    broker,
    core,
    plugin: opts.plugin,
    service: pluginServiceName(opts.plugin.id, opts.plugin.major),
    tenants,
    refs: new Map(),
    opts,
    async stop() {
      await broker.stop();
      await opts.teardown?.();
    },
  };
  try {
    for (const s of [...core.schemas, ...(opts.services ?? [])]) broker.createService(s);
    const context = (typeof opts.context === "function" ? opts.context() : opts.context) ?? {};
    broker.createService(withPluginContext(opts.plugin.schema, { ...defaultContext(), ...context }));
    await broker.start();
    for (const t of tenants) h.refs.set(t, typeof opts.ref === "function" ? await opts.ref(h, t) : opts.ref);
  } catch (err) {
    await broker.stop().catch(() => undefined);
    await opts.teardown?.();
    throw err;
  }
  return h;
}

/** Kind "chatbot", and the chatbotMessage action (definePlugin's, from chatbot.onMessage) validating every ChatbotInbound field. */
export function checkChatbotDefinition(plugin: unknown): void {
  if (!isDefinedPlugin(plugin)) fail("the plugin is not an object made by definePlugin()");
  if (plugin.manifest.kind !== "chatbot") fail(`manifest kind is ${show(plugin.manifest.kind)}, not "chatbot"`);
  const action = (plugin.schema.actions ?? {})[CHATBOT_MESSAGE_ACTION] as { params?: Record<string, unknown> } | undefined;
  if (!action || typeof action !== "object") fail(`the service has no ${CHATBOT_MESSAGE_ACTION} action: give definePlugin({ chatbot: { onMessage } })`);
  const fields: Array<keyof ChatbotInbound> = ["id", "tenantId", "ref", "reason", "ticket", "contact", "message", "at"];
  const missing = fields.filter((f) => !action.params || !(f in action.params));
  if (missing.length) fail(`${CHATBOT_MESSAGE_ACTION} does not validate ${missing.join(", ")} of the ChatbotInbound: let definePlugin make it from chatbot.onMessage`);
  if (!(plugin.schema.metadata as { plugin?: { chatbot?: boolean } } | undefined)?.plugin?.chatbot) fail("the service's metadata does not say it takes chatbot inbounds (plugin.chatbot): let definePlugin make it");
}

/** Malformed inbounds are refused by validation, and the core hears nothing of them. */
export async function checkMalformedInbound(h: ChatbotHarness): Promise<void> {
  const [tenantId] = h.tenants;
  const good = h.core.inbound(ticketFor(h, tenantId), "message", "1");
  const bad: Array<[string, unknown]> = [
    ["no fields", {}],
    ["an unknown reason", { ...good, reason: "ended" }],
    ["tenantId as text", { ...good, tenantId: String(tenantId) }],
    ["no ticket", { ...good, ticket: undefined }],
    ["message not an object", { ...good, message: "1" }],
  ];
  const from = h.core.calls.length;
  for (const [what, params] of bad) {
    let refused: { type?: string } | null = null;
    try {
      await h.broker.call(`${h.service}.${CHATBOT_MESSAGE_ACTION}`, params);
    } catch (err) {
      refused = err as { type?: string };
    }
    if (refused?.type !== "VALIDATION_ERROR") fail(`an inbound with ${what} must fail params validation (VALIDATION_ERROR); got ${refused ? show(refused.type) : "success"}`);
  }
  const calls = h.core.calls.slice(from);
  if (calls.length) fail(`a malformed inbound reached the core: ${calls.map(describeCall).join(" | ")}`);
}

/** A "started" inbound: the bot acts on its ticket (greets, asks, hands off) with calls the core accepts. */
export async function checkStarted(h: ChatbotHarness): Promise<void> {
  const [tenantId] = h.tenants;
  await deliverAndWaitAct(h, h.core.inbound(ticketFor(h, tenantId), "started", h.opts.opening === undefined ? "Olá" : h.opts.opening));
}

/** After its start, a customer's message gets the bot's answer (a message, a hand-off or a close). */
export async function checkMessage(h: ChatbotHarness): Promise<void> {
  const [tenantId] = h.tenants;
  const ticketId = ticketFor(h, tenantId);
  await deliverAndWaitAct(h, h.core.inbound(ticketId, "started", h.opts.opening === undefined ? "Olá" : h.opts.opening));
  if (h.core.ticket(ticketId)!.status !== "chatbot") {
    fail(`the bot let ticket ${ticketId} go at its start (status ${h.core.ticket(ticketId)!.status}): the message check needs a ref whose bot asks something first`);
  }
  await deliverAndWaitAct(h, h.core.inbound(ticketId, "message", h.opts.answer ?? "1"));
}

/** The same inbound (same id) delivered again: nothing more is sent, handed off or scheduled. */
export async function checkRepeat(h: ChatbotHarness): Promise<void> {
  const [tenantId] = h.tenants;
  const ticketId = ticketFor(h, tenantId);
  const started = h.core.inbound(ticketId, "started", h.opts.opening === undefined ? "Olá" : h.opts.opening);
  await deliverAndWaitAct(h, started);
  const answer = h.core.ticket(ticketId)!.status === "chatbot" ? h.core.inbound(ticketId, "message", h.opts.answer ?? "1") : null;
  if (answer) await deliverAndWaitAct(h, answer);
  for (const inbound of answer ? [answer, started] : [started]) {
    const from = h.core.calls.length;
    await deliver(h, { ...inbound, at: Date.now() });
    await new Promise((r) => setTimeout(r, h.opts.settleMs ?? 300));
    const again = h.core.calls.slice(from).filter((c) => isActingCall(c) || c.action === "scheduler.schedule");
    if (again.length) fail(`the "${inbound.reason}" inbound ${inbound.id}, delivered again, was acted on again: ${again.map(describeCall).join(" | ")}`);
    noRejectedCalls(h, from);
  }
}

/** Another tenant's ticket: every call its inbounds cause names that tenant and its own ids. */
export async function checkTenants(h: ChatbotHarness): Promise<void> {
  const [a, b] = h.tenants;
  for (const tenantId of [a, b, a]) {
    const ticketId = ticketFor(h, tenantId);
    await deliverAndWaitAct(h, h.core.inbound(ticketId, "started", h.opts.opening === undefined ? "Olá" : h.opts.opening));
    if (h.core.ticket(ticketId)!.status === "chatbot") await deliverAndWaitAct(h, h.core.inbound(ticketId, "message", h.opts.answer ?? "1"));
  }
  const cross = h.core.refused.find((r) => r.crossTenant);
  if (cross) fail(`the plugin reached another tenant's data: ${describeCall(cross)} was refused with ${cross.type}`);
}

/** The chatbot kit as a jest suite (call it at the top level of a test file). */
export function runChatbotConformance(opts: ChatbotConformanceOptions): void {
  const { plugin } = opts;
  const title = opts.name ?? `chatbot conformance: ${isDefinedPlugin(plugin) ? plugin.id : "(not a definePlugin() object)"}`;
  const hookTimeout = Math.max(30_000, (opts.timeoutMs ?? 5000) * 4);
  describe(title, () => {
    let h: ChatbotHarness | undefined;
    const harness = (): ChatbotHarness => {
      if (!h) throw new Error("the chatbot conformance harness did not start (see the beforeAll error)");
      return h;
    };
    beforeAll(async () => {
      h = await startChatbotHarness(opts);
    }, hookTimeout);
    afterAll(async () => {
      await h?.stop();
    }, hookTimeout);

    it('is a plugin of kind "chatbot" whose chatbotMessage action takes the contract\'s ChatbotInbound', () => checkChatbotDefinition(plugin));
    it("follows the rules of every plugin (manifest, routes, core events, UI remote)", () => {
      checkPluginDefinition(plugin);
      checkRoutes(plugin);
      checkEvents(plugin);
      checkUi(plugin);
    });
    it("refuses a malformed inbound without calling the core", () => checkMalformedInbound(harness()), hookTimeout);
    it('acts on a "started" inbound with calls the core accepts', () => checkStarted(harness()), hookTimeout);
    it("answers a customer's message after the start", () => checkMessage(harness()), hookTimeout);
    it("does not act twice on a repeated inbound id", () => checkRepeat(harness()), hookTimeout);
    it("calls the core only for the tenant whose ticket it handles", () => checkTenants(harness()), hookTimeout);
  });
}
