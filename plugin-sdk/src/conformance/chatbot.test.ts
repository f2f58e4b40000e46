/**
 * The chatbot conformance kit passes a chatbot that honours the contract (the menu fixture),
 * fails each one that breaks a rule with a message that says which, and its fake core keeps
 * the contract's rules (tenants apart, the owner's hand-off, media of the tenant, plan cap).
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import {
  ConformanceError,
  checkChatbotDefinition,
  checkMalformedInbound,
  checkMessage,
  checkRepeat,
  checkStarted,
  checkTenants,
  createFakePlatform,
  runChatbotConformance,
  startChatbotHarness,
  type ChatbotHarness,
} from "./index";
import { createMenuChatbot, MENU_TEXT, type MenuChatbotFaults } from "./chatbot-fixture";
import { coreApi } from "../core-api/client";
import { uploadPlatformFile } from "../platform-files";

runChatbotConformance({ plugin: createMenuChatbot(), ref: "menu" });
// A ref made per tenant, as a plugin creates its bot in its own store.
runChatbotConformance({ plugin: createMenuChatbot({ id: "chatbot-menu-b" }), ref: (_h, tenantId) => `flow-${tenantId}`, answer: "quero ajuda", fake: { tenants: [7, 8] }, name: "chatbot conformance: per-tenant refs" });

async function firstFailure(faults: MenuChatbotFaults, steps: Array<(h: ChatbotHarness) => Promise<void>>): Promise<Error | null> {
  const h = await startChatbotHarness({ plugin: createMenuChatbot({ faults }), ref: "menu", timeoutMs: 500, settleMs: 100 });
  try {
    for (const step of steps) await step(h);
    return null;
  } catch (err) {
    return err as Error;
  } finally {
    await h.stop();
  }
}

describe("the chatbot kit fails plugins that break the contract", () => {
  it("a plugin of another kind", () => {
    expect(() => checkChatbotDefinition(createMenuChatbot({ faults: { notAChatbot: true } }))).toThrow(new ConformanceError('manifest kind is "module", not "chatbot"'));
    expect(() => checkChatbotDefinition({ id: "x" })).toThrow("the plugin is not an object made by definePlugin()");
  });

  it("a chatbotMessage action that validates nothing, and takes a malformed inbound to the core", async () => {
    const plugin = createMenuChatbot({ faults: { lenientInbound: true } });
    expect(() => checkChatbotDefinition(plugin)).toThrow(/^chatbotMessage does not validate id, tenantId, ref, reason, ticket, contact, message, at of the ChatbotInbound/);
    const h = await startChatbotHarness({ plugin, ref: "menu", timeoutMs: 500 });
    try {
      await expect(checkMalformedInbound(h)).rejects.toThrow(/^an inbound with no fields must fail params validation \(VALIDATION_ERROR\); got /);
    } finally {
      await h.stop();
    }
  });

  it("a bot that acts twice on a repeated inbound", async () => {
    const err = await firstFailure({ actTwice: true }, [checkRepeat]);
    expect(err).toBeInstanceOf(ConformanceError);
    expect(err!.message).toMatch(/^chatbotMessage \(message, id \d+:\d+\) failed: \[ERR_CHATBOT_NOT_OWNER\]|^the "(message|started)" inbound \S+, delivered again, was acted on again/);
  });

  it("a bot that answers every tenant as the first one", async () => {
    const err = await firstFailure({ firstTenantOnly: true }, [checkStarted, checkTenants]);
    expect(err).toBeInstanceOf(ConformanceError);
    expect(err!.message).toMatch(/the core refused platform\.messages\.send \{"tenantId":201,"ticketId":202\d+.* with ERR_TICKET_NOT_FOUND\)$/);
  });

  it("a bot that says nothing to a customer's message", async () => {
    const err = await firstFailure({ silentOnMessage: true }, [checkMessage]);
    expect(err!.message).toMatch(/^timed out after 500 ms waiting for the bot to act on ticket \d+ after its "message" inbound/);
  });

  it("a bot whose hand-off names a queue that is not the tenant's", async () => {
    const err = await firstFailure({ foreignQueue: true }, [checkMessage]);
    expect(err!.message).toMatch(/^chatbotMessage \(message, id \S+\) failed: \[ERR_QUEUE_NOT_FOUND\].*\(the core refused platform\.chatbots\.handoff .* with ERR_QUEUE_NOT_FOUND\)$/);
  });

  it("a well-behaved bot passes the same checks called directly, and its calls are on record", async () => {
    const h = await startChatbotHarness({ plugin: createMenuChatbot(), ref: "menu" });
    try {
      checkChatbotDefinition(h.plugin);
      for (const step of [checkMalformedInbound, checkStarted, checkMessage, checkRepeat, checkTenants]) await step(h);
      expect(h.core.sent.filter((m) => m.body === MENU_TEXT).length).toBeGreaterThanOrEqual(4);
      const handoffs = h.core.calls.filter((c) => c.action === "platform.chatbots.handoff");
      expect(handoffs.map((c) => [c.params.tenantId, c.params.queueId, c.caller])).toContainEqual([202, 202003, "chatbot-menu"]);
      expect(h.core.invalid).toEqual([]);
      expect(h.core.refused).toEqual([]);
      // Each handed-off ticket's wait job was cancelled: only the started tickets still talking keep one.
      const talking = [...new Set(h.core.sent.map((m) => m.ticketId))].filter((id) => h.core.ticket(id)!.status === "chatbot");
      expect(talking.length).toBeGreaterThan(0);
      expect(h.core.jobs.map((j) => Number(j.key)).sort()).toEqual(talking.sort());
    } finally {
      await h.stop();
    }
  });

  it("the declared jest suite reports exactly the broken checks as failed (child jest run)", () => {
    const root = path.resolve(__dirname, "../../..");
    const preset = require(path.join(root, "config/jest/preset.cjs"));
    const config = { ...preset, rootDir: path.resolve(__dirname), testMatch: ["**/faulty-chatbot.conformance.ts"] };
    const run = spawnSync(process.execPath, [require.resolve("jest/bin/jest", { paths: [root] }), "--config", JSON.stringify(config), "--json", "--ci"], { cwd: root, encoding: "utf8", timeout: 120_000 });
    const report = JSON.parse(run.stdout) as { testResults: Array<{ assertionResults: Array<{ title: string; status: string }> }> };
    const results = report.testResults[0].assertionResults;
    expect(results.filter((r) => r.status === "failed").map((r) => r.title).sort()).toEqual(["calls the core only for the tenant whose ticket it handles", "does not act twice on a repeated inbound id"]);
    expect(results.filter((r) => r.status === "passed").length).toBe(results.length - 2);
    expect(run.status).toBe(1);
  }, 120_000);
});

describe("the chatbot kit's fake core keeps the contract's rules", () => {
  const fake = createFakePlatform({ chatflowMax: 1 });
  const broker = new ServiceBroker({ logger: false });
  const svc = { name: "chatbot-probe", broker, metadata: { plugin: { id: "chatbot-probe" } } };
  const other = { name: "chatbot-other", broker, metadata: { plugin: { id: "chatbot-other" } } };
  beforeAll(async () => {
    for (const s of fake.schemas) broker.createService(s);
    await broker.start();
  });
  afterAll(() => broker.stop());

  it("another tenant's ticket is not found (and noted as a reach across tenants); a made-up one is not found", async () => {
    const mine = fake.newTicket(201, { pluginId: "chatbot-probe", ref: "r" });
    const theirs = fake.newTicket(202, { pluginId: "chatbot-probe", ref: "r" });
    expect(await coreApi(svc).messages.send({ tenantId: 201, ticketId: mine, body: "oi" })).toMatchObject({ ticketId: mine, fromMe: true, body: "oi" });
    await expect(coreApi(svc).messages.send({ tenantId: 201, ticketId: theirs, body: "oi" })).rejects.toMatchObject({ type: "ERR_TICKET_NOT_FOUND", code: 404 });
    await expect(coreApi(svc).tickets.get({ tenantId: 201, id: 9 })).rejects.toMatchObject({ type: "ERR_TICKET_NOT_FOUND" });
    expect(fake.refused.map((r) => [r.action, r.crossTenant])).toEqual([
      ["platform.messages.send", true],
      ["platform.tickets.get", false],
    ]);
  });

  it("only the owning bot hands off; a ticket handed off is no bot's any more", async () => {
    const t = fake.newTicket(201, { pluginId: "chatbot-probe", ref: "r" });
    const [q] = fake.world(201).queueIds;
    await expect(coreApi(other).chatbots.handoff({ tenantId: 201, ticketId: t, queueId: q })).rejects.toMatchObject({ type: "ERR_CHATBOT_NOT_OWNER", code: 409 });
    expect(await coreApi(svc).chatbots.handoff({ tenantId: 201, ticketId: t, queueId: q, distribute: "balance" })).toMatchObject({ status: "open", queueId: q, userId: fake.world(201).userId });
    await expect(coreApi(svc).chatbots.handoff({ tenantId: 201, ticketId: t })).rejects.toMatchObject({ type: "ERR_CHATBOT_NOT_OWNER" });
  });

  it("media must be a file uploaded for the tenant; plan cap; params checked; a call without $caller is invalid", async () => {
    const t = fake.newTicket(201, { pluginId: "chatbot-probe", ref: "r" });
    const file = await uploadPlatformFile(svc, { tenantId: 201, data: Buffer.from("%PDF-1.4"), mimeType: "application/pdf", fileName: "a.pdf" });
    const theirs = await uploadPlatformFile(svc, { tenantId: 202, data: Buffer.from("x"), mimeType: "text/plain", fileName: "b.txt" });
    expect(await coreApi(svc).messages.send({ tenantId: 201, ticketId: t, body: "", media: file })).toMatchObject({ mediaType: "application" });
    await expect(coreApi(svc).messages.send({ tenantId: 201, ticketId: t, body: "", media: theirs })).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "media" } });
    await expect(coreApi(svc).messages.send({ tenantId: 201, ticketId: t, body: " " })).rejects.toMatchObject({ type: "ERR_REQUIRED_BODY" });
    await expect(uploadPlatformFile(svc, { tenantId: 201, data: Buffer.alloc(11), mimeType: "text/plain", fileName: "c.txt", maxBytes: 10 })).rejects.toMatchObject({ type: "ERR_MEDIA_TOO_LARGE" });
    expect(await coreApi(svc).plan.assertWithin({ tenantId: 201, kind: "chatflows", current: 0 })).toEqual({ max: 1 });
    await expect(coreApi(svc).plan.assertWithin({ tenantId: 201, kind: "chatflows", current: 1 })).rejects.toMatchObject({ type: "ERR_FREE_PLAN_CHATFLOW_LIMIT", code: 403 });
    await expect(coreApi(svc).chatbots.handoff({ tenantId: 201, ticketId: t, distribute: "everyone" as never })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    await expect(broker.call("platform.queues.list", { tenantId: 201 })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    expect(fake.invalid.map((i) => i.errors)).toEqual([
      ["The 'distribute' field value 'none, balance, random' does not match any of the allowed values."],
      ["the call names no plugin ($caller): use the SDK's coreApi(ctx)"],
    ]);
  });
});
