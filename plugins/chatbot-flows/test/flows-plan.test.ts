/**
 * The flows' routes that reach past the plugin's tables, against a real core on MariaDB: the free
 * plan's one active flow (the core's plan check inside the plugin's locked transaction; two
 * activations at once, exactly one wins), the connection and queue bindings (stored by the
 * plugin, the entry flow bound in the core), deletion refused while a flow is bound or has a
 * running conversation, and flow media stored among the tenant's files (5 MB at most).
 */
import { createTenant, uid, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { ChatbotBinding } from "@openatende/plugin-sdk";
import type { Flow, FlowMedia } from "../src/model";
import { coreWithFlows, expectError, link, menuSteps, ok, startNode, waitFor } from "./flows-kit";

jest.setTimeout(240_000);

let t: TestCore;
let free: TenantFixture;
let p: TenantFixture;
let conn: number;

const create = (f: TenantFixture, body: Record<string, unknown>) => ok<Flow>(t.api.post("/chatbot-flows/flows", body, f.admin));
const setActive = (f: TenantFixture, id: number, active: boolean) => t.api.put("/chatbot-flows/flows", { id, active }, f.admin);
const bind = (body: Record<string, unknown>) => t.api.put("/chatbot-flows/bindings", body, p.admin);
const coreBindings = (tenantId: number) => t.core.broker.call("chatbots.bindingsInternal", { tenantId }) as Promise<ChatbotBinding[]>;
const activeCount = async (f: TenantFixture) => (await ok<Flow[]>(t.api.get("/chatbot-flows/flows?active=true", f.admin))).length;

beforeAll(async () => {
  t = await coreWithFlows();
  [free, p] = await Promise.all([createTenant(t), createTenant(t, { tier: "PLUS" })]);
  await waitFor("the flows routes", () => t.api.get("/chatbot-flows/flows", p.admin), (r) => r.status === 200);
  conn = (await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {}, queueId: p.queueIds[0] }, p.admin), 201)).id;
});

afterAll(async () => {
  await t?.stop();
});

describe("the free plan's one active flow", () => {
  it("refuses a second active flow of any kind, and allows switching which one is active", async () => {
    const first = await create(free, { kind: "chat", name: "Principal", active: true });
    expectError(await t.api.post("/chatbot-flows/flows", { kind: "entry", name: "Outro", active: true, steps: menuSteps(free.queueIds[0], free.agent.userId) }, free.admin), 403, "ERR_FREE_PLAN_CHATFLOW_LIMIT");
    const second = await create(free, { kind: "chat", name: "Reserva" });
    expectError(await setActive(free, second.id, true), 403, "ERR_FREE_PLAN_CHATFLOW_LIMIT");
    // Saving the active flow again, duplicating it (inactive) and importing are not activations.
    await ok(t.api.put("/chatbot-flows/flows", { id: first.id, active: true, name: "Principal 2" }, free.admin));
    expect((await ok<Flow>(t.api.post("/chatbot-flows/flows/duplicate", { id: first.id }, free.admin))).active).toBe(false);
    await ok(setActive(free, first.id, false));
    expect((await ok<Flow>(setActive(free, second.id, true))).active).toBe(true);
    expect(await activeCount(free)).toBe(1);
    // A paid plan has no such cap.
    await create(p, { kind: "chat", name: "Pago 1", active: true });
    await create(p, { kind: "chat", name: "Pago 2", active: true });
  });

  it("lets exactly one of two activations at once win, round after round", async () => {
    for (const f of await ok<Flow[]>(t.api.get("/chatbot-flows/flows?active=true", free.admin))) await ok(setActive(free, f.id, false));
    const [x, y] = [await create(free, { kind: "chat", name: "X" }), await create(free, { kind: "closure", name: "Y", steps: menuSteps(free.queueIds[0], free.agent.userId) })];
    for (let round = 0; round < 4; round++) {
      const answers: Res[] = await Promise.all([setActive(free, x.id, true), setActive(free, y.id, true)]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 403]);
      expectError(answers.find((r) => r.status === 403)!, 403, "ERR_FREE_PLAN_CHATFLOW_LIMIT");
      expect(await activeCount(free)).toBe(1);
      const winner = answers.find((r) => r.status === 200)!.body as Flow;
      await ok(setActive(free, winner.id, false));
    }
  });
});

describe("bindings of connections and queues", () => {
  it("binds only active flows of the right kind, in the plugin and in the core, and refuses to delete what is bound", async () => {
    const steps = menuSteps(p.queueIds[0], p.agent.userId);
    const entry = await create(p, { kind: "entry", name: "Entrada", active: true, steps });
    const closure = await create(p, { kind: "closure", name: "Encerramento", active: true, steps });
    const idle = await create(p, { kind: "entry", name: "Parada", steps });
    const chat = await create(p, { kind: "chat", name: "Chat", active: true });

    expect(await ok(t.api.get(`/chatbot-flows/bindings?scope=connection&targetId=${conn}`, p.admin))).toEqual({ entryFlowId: null, closureFlowId: null });
    expectError(await bind({ scope: "connection", targetId: conn, entryFlowId: idle.id }), 400, "ERR_FLOW_BIND_INACTIVE", { field: "entryFlowId" });
    expectError(await bind({ scope: "connection", targetId: conn, entryFlowId: closure.id }), 400, "ERR_FLOW_BIND_KIND", { field: "entryFlowId" });
    expectError(await bind({ scope: "connection", targetId: conn, closureFlowId: entry.id }), 400, "ERR_FLOW_BIND_KIND", { field: "closureFlowId" });
    expect(await coreBindings(p.tenantId)).toEqual([]);

    expect(await ok(bind({ scope: "connection", targetId: conn, entryFlowId: entry.id, closureFlowId: closure.id }))).toEqual({ entryFlowId: entry.id, closureFlowId: closure.id });
    expect(await ok(t.api.get(`/chatbot-flows/bindings?scope=connection&targetId=${conn}`, p.admin))).toEqual({ entryFlowId: entry.id, closureFlowId: closure.id });
    expect(await coreBindings(p.tenantId)).toEqual([expect.objectContaining({ scope: "connection", targetId: conn, pluginId: "chatbot-flows", ref: String(entry.id) })]);
    // A queue with only a closure flow hands no new ticket to a bot.
    await ok(bind({ scope: "queue", targetId: p.queueIds[1], closureFlowId: closure.id }));
    expect((await coreBindings(p.tenantId)).map((b) => b.scope)).toEqual(["connection"]);

    expectError(await t.api.del(`/chatbot-flows/flows?id=${entry.id}`, p.admin), 409, "ERR_AUTO_REPLY_IN_USE", { bindings: 1, tickets: 0 });
    expectError(await t.api.del(`/chatbot-flows/flows?id=${closure.id}&kind=entry,closure`, p.admin), 409, "ERR_AUTO_REPLY_IN_USE");

    // The connection now starts in a chat flow: the core's binding follows.
    await ok(bind({ scope: "connection", targetId: conn, entryFlowId: chat.id, closureFlowId: null }));
    expect((await coreBindings(p.tenantId)).map((b) => b.ref)).toEqual([String(chat.id)]);
    expectError(await t.api.del(`/chatbot-flows/flows?id=${chat.id}`, p.admin), 409, "ERR_FLOW_IN_USE");
    expect(await ok(t.api.del(`/chatbot-flows/flows?id=${entry.id}`, p.admin))).toEqual({ id: entry.id });
    expectError(await t.api.get(`/chatbot-flows/flows/one?id=${entry.id}&kind=entry`, p.admin), 404, "ERR_AUTO_REPLY_NOT_FOUND");

    await ok(bind({ scope: "connection", targetId: conn, entryFlowId: null, closureFlowId: null }));
    await ok(bind({ scope: "queue", targetId: p.queueIds[1], entryFlowId: null, closureFlowId: null }));
    expect(await coreBindings(p.tenantId)).toEqual([]);
    expect(await ok(t.api.get(`/chatbot-flows/bindings?scope=queue&targetId=${p.queueIds[1]}`, p.admin))).toEqual({ entryFlowId: null, closureFlowId: null });
    await ok(t.api.del(`/chatbot-flows/flows?id=${closure.id}`, p.admin));
    await ok(t.api.del(`/chatbot-flows/flows?id=${chat.id}`, p.admin));
  });

  it("drops the bindings of a deleted connection or queue instead of keeping the flow in use forever", async () => {
    const flow = await create(p, { kind: "closure", name: "Fechamento", active: true, steps: menuSteps(p.queueIds[0], p.agent.userId) });
    const gone = (await ok(t.api.post("/connections", { name: `Velha ${uid()}`, type: "channel-webchat", settings: {} }, p.admin), 201)).id;
    const queue = (await ok(t.api.post("/queues", { name: `Fila ${uid()}`, color: "#123456" }, p.admin), 201)).id;
    await ok(bind({ scope: "connection", targetId: gone, closureFlowId: flow.id }));
    await ok(bind({ scope: "queue", targetId: queue, closureFlowId: flow.id }));
    expectError(await t.api.del(`/chatbot-flows/flows?id=${flow.id}`, p.admin), 409, "ERR_AUTO_REPLY_IN_USE", { bindings: 2 });
    await ok(t.api.call("DELETE", `/connections/${gone}`, { confirmation: "EXCLUIR" }, p.admin));
    expectError(await t.api.del(`/chatbot-flows/flows?id=${flow.id}`, p.admin), 409, "ERR_AUTO_REPLY_IN_USE", { bindings: 1 });
    await ok(t.api.del(`/queues/${queue}`, p.admin));
    await ok(t.api.del(`/chatbot-flows/flows?id=${flow.id}`, p.admin));
  });

  it("refuses to delete a flow with a running conversation, even once unbound", async () => {
    const graph = {
      nodes: [startNode(), { id: "ask", type: "question", position: { x: 0, y: 100 }, data: { type: "question", name: "Nome", text: "Qual é o seu nome?", saveTo: "contact.name", validate: "any" } }],
      edges: [link("start", "ask")],
    };
    const flow = await create(p, { kind: "chat", name: "Pergunta", active: true, graph });
    await ok(bind({ scope: "connection", targetId: conn, entryFlowId: flow.id }));
    const r = (await t.core.broker.call("channels.inbound", { tenantId: p.tenantId, connectionId: conn, providerMessageId: `m-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}`, name: "Ana" }, body: "Oi" })) as { ticketId: number };
    await waitFor("the bot's question", () => t.core.sequelize.query(`SELECT body FROM messages WHERE tenantId = ${p.tenantId} AND ticketId = ${r.ticketId} AND fromMe = 1`), ([rows]) => (rows as unknown[]).length > 0);
    await ok(bind({ scope: "connection", targetId: conn, entryFlowId: null }));
    expectError(await t.api.del(`/chatbot-flows/flows?id=${flow.id}`, p.admin), 409, "ERR_FLOW_IN_USE", { bindings: 0, tickets: 1 });
    // The agent takes the ticket: the conversation ends and the flow may go.
    await ok(t.api.put(`/tickets/${r.ticketId}`, { status: "open", userId: p.admin.userId }, p.admin));
    await waitFor("the flow to be free", () => t.api.del(`/chatbot-flows/flows?id=${flow.id}`, p.admin), (d) => d.status === 200);
  });
});

describe("flow media", () => {
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

  it("stores a file among the tenant's files and answers what a message node sends", async () => {
    const media = await ok<FlowMedia>(t.api.post("/chatbot-flows/media", { file: { fileName: "menu.png", mimeType: "image/png", data: png.toString("base64") } }, p.admin));
    expect(media).toMatchObject({ mimeType: "image/png", fileName: "menu.png", size: png.length });
    const file = await fetch(`${t.url}${media.url}`, { headers: { Authorization: `Bearer ${p.admin.token}`, "X-Session-Id": p.admin.sessionId } });
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
  });

  it("refuses more than 5 MB, an empty file and what is not base64", async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1).toString("base64");
    expectError(await t.api.post("/chatbot-flows/media", { file: { fileName: "big.bin", mimeType: "application/octet-stream", data: big } }, p.admin), 413, "ERR_FLOW_MEDIA_TOO_LARGE");
    expectError(await t.api.post("/chatbot-flows/media", { file: { fileName: "x.png", mimeType: "image/png", data: "@@@" } }, p.admin), 400, "ERR_VALIDATION", { field: "file.data" });
    expectError(await t.api.post("/chatbot-flows/media", { file: { fileName: "x.png", mimeType: "image/png", data: "" } }, p.admin), 400, "ERR_VALIDATION");
  });
});
