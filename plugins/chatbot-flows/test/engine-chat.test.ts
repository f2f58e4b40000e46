/**
 * The flow engine on real tickets (MariaDB, the core's chatbot routing and hand-off): a chat
 * flow bound to a web chat connection greets, shows a numbered menu and hands the ticket to the
 * chosen queue; wrong answers get the retry and, at the attempt limit, the settings' hand-off
 * (logged retriesLimitQueue); a question saves the contact's name and the end node closes; a
 * redelivered inbound is answered once; an agent accepting the ticket ends the bot's part and
 * its timer; a message node's file goes through the core as the tenant's stored media. The runs route shows each conversation's node states, to the flow's tenant only.
 */
import { QueryTypes } from "sequelize";
import { createTenant, type TenantFixture } from "@openatende/core/testkit";
import type { FlowRun } from "../src/model";
import { botTenant, chatFlowOn, Customer, edge, endedRuns, engineCore, logsOf, node, ok, runsOf, settle, start, waitAsked, waitFor, waitStatus, type BotTenant, type TestCore } from "./engine-kit";

jest.setTimeout(180_000);

let t: TestCore;
let f: BotTenant;
let other: TenantFixture;

beforeAll(async () => {
  t = await engineCore();
  [f, other] = await Promise.all([botTenant(t), createTenant(t, { tier: "PLUS" })]);
});
afterAll(async () => {
  await t?.stop();
});

const menuFlow = (settings: Record<string, unknown> = {}) =>
  chatFlowOn(
    t,
    f,
    [
      start(),
      node("hello", { type: "message", name: "Saudação", interactions: [{ type: "text", text: "Olá {{name}}! Seu protocolo é {{protocol}}." }] }),
      node("menu", {
        type: "menu",
        name: "Menu",
        style: "buttons",
        title: "Atendimento",
        text: "Com quem quer falar?",
        footer: "Responda com o número",
        options: [
          { id: "sales", title: "Vendas" },
          { id: "support", title: "Suporte técnico" },
        ],
        sections: [],
        retryMessage: "Não entendi. Responda 1 ou 2.",
      }),
      node("toSales", { type: "transfer", name: "Vendas", queueId: f.queueIds[1], userId: null, message: "Vou te passar para Vendas." }),
      node("toSupport", { type: "transfer", name: "Suporte", queueId: f.queueIds[0], userId: null, message: "Vou te passar para o Suporte." }),
    ],
    [edge("start", "hello"), edge("hello", "menu"), edge("menu", "toSales", "sales"), edge("menu", "toSupport", "support")],
    settings,
  );

const MENU = "Atendimento\nCom quem quer falar?\n\n1 — Vendas\n2 — Suporte técnico\n\nResponda com o número";

describe("chat flows on real tickets (MariaDB)", () => {
  it("greets with the placeholders filled, shows a numbered menu and hands the ticket to the queue the customer chose", async () => {
    const flow = await menuFlow();
    const c = new Customer(t, f);
    await c.say("Oi");
    const tk = await waitFor("the bot's ticket", () => c.ticket(), (x) => x.status === "chatbot");
    expect({ plugin: tk.chatbotPluginId, ref: tk.chatbotRef }).toEqual({ plugin: "chatbot-flows", ref: String(flow.id) });
    const protocol = (await t.core.broker.call("tickets.getInternal", { tenantId: f.tenantId, id: c.ticketId }) as { protocol: string }).protocol;
    expect(await c.waitSent(2)).toEqual([`Olá Ana! Seu protocolo é ${protocol}.`, MENU]);

    await c.say("  SUPORTE TECNICO ");
    const after = await waitStatus(c, "pending");
    expect(after.queueId).toBe(f.queueIds[0]);
    expect(await c.sent()).toEqual([`Olá Ana! Seu protocolo é ${protocol}.`, MENU, "Vou te passar para o Suporte."]);
    expect((await logsOf(t, f.tenantId, c.ticketId)).map((l) => l.type)).toEqual(expect.arrayContaining(["chatBot", "queue"]));

    const runs = await endedRuns(t, f.admin, flow.id, c.ticketId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ flowId: flow.id, ticketId: c.ticketId, contactName: "Ana Souza", status: "handedOff" });
    expect(runs[0].endedAt).not.toBeNull();
    expect(runs[0].steps.map((s) => [s.nodeId, s.state, s.detail])).toEqual([
      ["start", "success", null],
      ["hello", "success", null],
      ["menu", "success", "Suporte técnico"],
      ["toSupport", "success", `queue ${f.queueIds[0]}`],
    ]);

    // The runs are the flow's tenant's, and an admin's.
    const foreign = await runsOf(t, other.admin, flow.id);
    expect({ status: foreign.status, error: foreign.body.error }).toEqual({ status: 404, error: "ERR_FLOW_NOT_FOUND" });
    expect((await runsOf(t, f.agent, flow.id)).status).toBe(403);
  });

  it("answers a wrong option with the retry message and, at the attempt limit, hands off as the settings say (retriesLimitQueue)", async () => {
    const flow = await menuFlow({ maxAttempts: 3, handoffQueueId: f.queueIds[1] });
    const c = new Customer(t, f, "Bruno Lima");
    await c.say("Bom dia");
    await c.waitSent(2);
    await c.say("banana");
    expect((await c.waitSent(3))[2]).toBe("Não entendi. Responda 1 ou 2.");
    await c.say("7");
    expect((await c.waitSent(4))[3]).toBe("Não entendi. Responda 1 ou 2.");
    expect((await c.ticket()).status).toBe("chatbot");
    await c.say("nenhum");
    const after = await waitStatus(c, "pending");
    expect(after.queueId).toBe(f.queueIds[1]);
    await settle();
    expect(await c.sent()).toHaveLength(4); // no retry after the last wrong answer
    const logs = await logsOf(t, f.tenantId, c.ticketId);
    expect(logs.find((l) => l.type === "retriesLimitQueue")?.data).toMatchObject({ queueId: f.queueIds[1], reason: "attempts" });

    const [run] = await endedRuns(t, f.admin, flow.id, c.ticketId);
    expect(run.status).toBe("handedOff");
    expect(run.steps.filter((s) => s.nodeId === "menu").map((s) => [s.state, s.detail])).toEqual([
      ["warning", "invalid option (3/3): attempts ran out"],
      ["warning", "invalid option (1/3)"],
      ["warning", "invalid option (2/3)"],
    ]);
  });

  it("a question saves the contact's name, the next text uses it, and the end node closes the ticket", async () => {
    await chatFlowOn(
      t,
      f,
      [
        start(),
        node("ask", { type: "question", name: "Nome", text: "Qual é o seu nome completo?", saveTo: "contact.name", validate: "any" }),
        node("mail", { type: "question", name: "E-mail", text: "E o seu e-mail, {{name}}?", saveTo: "var.mail", validate: "email", retryMessage: "Esse e-mail não parece certo." }),
        node("thanks", { type: "message", name: "Obrigado", interactions: [{ type: "text", text: "Obrigado, {{name}}! Vamos escrever para {{var.mail}}." }] }),
        node("bye", { type: "end", name: "Fim", message: "Até logo!", close: true }),
      ],
      [edge("start", "ask"), edge("ask", "mail"), edge("mail", "thanks"), edge("thanks", "bye")],
    );
    const c = new Customer(t, f, "Visitante");
    await c.say("Olá");
    await c.waitSent(1);
    await c.say("Beatriz Campos");
    expect((await c.waitSent(2))[1]).toBe("E o seu e-mail, Beatriz?");
    await c.say("beatriz@exemplo");
    expect((await c.waitSent(3))[2]).toBe("Esse e-mail não parece certo.");
    await c.say("Beatriz@Exemplo.com");
    await waitStatus(c, "closed");
    expect(await c.sent()).toEqual(["Qual é o seu nome completo?", "E o seu e-mail, Beatriz?", "Esse e-mail não parece certo.", "Obrigado, Beatriz! Vamos escrever para beatriz@exemplo.com.", "Até logo!"]);
    const contactId = (await c.ticket()).contactId;
    const contact = (await t.core.broker.call("contacts.getInternal", { tenantId: f.tenantId, id: contactId })) as { name: string };
    expect(contact.name).toBe("Beatriz Campos");
  });

  it("a redelivered inbound (the core delivers at least once) is answered once, even when both copies come at once", async () => {
    const flow = await menuFlow();
    const c = new Customer(t, f, "Carla Dias");
    const first = await c.say("Oi");
    await c.waitSent(2);
    const tk = (await t.core.broker.call("tickets.getInternal", { tenantId: f.tenantId, id: c.ticketId })) as Record<string, any>;
    const contact = (await t.core.broker.call("contacts.getInternal", { tenantId: f.tenantId, id: tk.contactId })) as Record<string, any>;
    const inbound = (id: string, body: string | null) => ({
      id,
      tenantId: f.tenantId,
      ref: String(flow.id),
      reason: body === null ? "started" : "message",
      ticket: { id: tk.id, protocol: tk.protocol, status: "chatbot", contactId: tk.contactId, connectionId: tk.connectionId, queueId: tk.queueId, userId: null, isGroup: false, unreadMessages: 0, lastMessage: null, lastMessageAt: 0, closedAt: null, createdAt: "", updatedAt: "" },
      contact: { id: contact.id, name: contact.name, number: null, email: null },
      message: body === null ? null : { id: 1, ticketId: tk.id, fromMe: false, userId: null, body, mediaType: null, status: "received", createdAt: "" },
      at: Date.now(),
    });
    // The start again, as the core delivered it: nothing new.
    await t.core.broker.call("v1.chatbot-flows.chatbotMessage", inbound(`${c.ticketId}:${first.messageId}`, null));
    await settle(300);
    expect(await c.sent()).toHaveLength(2);
    // A wrong answer delivered twice at the same moment: one retry message.
    const twice = inbound(`${c.ticketId}:999999`, "xyz");
    await Promise.all([t.core.broker.call("v1.chatbot-flows.chatbotMessage", twice), t.core.broker.call("v1.chatbot-flows.chatbotMessage", twice)]);
    await settle(300);
    expect(await c.sent()).toHaveLength(3);
    const [run] = await ok<FlowRun[]>(runsOf(t, f.admin, flow.id));
    expect(run.steps.filter((s) => s.state === "warning")).toHaveLength(1);
  });

  it("an agent accepting the ticket ends the bot's part: no more answers, the run cancelled, no timer left", async () => {
    const flow = await chatFlowOn(t, f, [start(), node("ask", { type: "question", name: "Pedido", text: "Qual é o número do pedido?", saveTo: "var.order", validate: "number" })], [edge("start", "ask")]);
    const c = new Customer(t, f, "Davi Rocha");
    await c.say("Oi");
    await waitAsked(t, f.admin, flow.id, c.ticketId, "ask");
    const jobs = () => t.core.broker.call("scheduler.list", { owner: "chatbot-flows", tenantId: f.tenantId }) as Promise<Array<{ name: string; data: { sessionId: number } }>>;
    const [run0] = await ok<FlowRun[]>(runsOf(t, f.admin, flow.id));
    expect((await jobs()).filter((j) => j.data.sessionId === run0.id).map((j) => j.name)).toEqual(["flowWait"]);

    expect((await t.api.put(`/tickets/${c.ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
    const [run] = await waitFor("the run cancelled", () => ok<FlowRun[]>(runsOf(t, f.admin, flow.id)), (r) => r[0]?.status === "cancelled");
    expect(run.steps.at(-1)).toMatchObject({ nodeId: "ask", state: "warning" });
    expect((await jobs()).filter((j) => j.data.sessionId === run.id)).toEqual([]);
    await c.say("12345");
    await settle();
    expect(await c.sent()).toEqual(["Qual é o número do pedido?"]);
    expect((await c.ticket()).userId).toBe(f.agent.userId);
  });

  it("a message node sends its file through the core (the tenant's stored file, its caption filled)", async () => {
    // A 1×1 PNG, stored among the tenant's files through the plugin's upload route.
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const media = await ok(t.api.post("/chatbot-flows/media", { file: { fileName: "catalogo.png", mimeType: "image/png", data: png } }, f.admin));
    await chatFlowOn(
      t,
      f,
      [
        start(),
        node("files", { type: "message", name: "Catálogo", interactions: [{ type: "text", text: "Segue o catálogo:" }, { type: "media", media, caption: "Catálogo para {{name}}" }] }),
        node("ask", { type: "question", name: "Dúvida", text: "Alguma dúvida?", saveTo: "var.q", validate: "any" }),
      ],
      [edge("start", "files"), edge("files", "ask")],
    );
    const c = new Customer(t, f, "Tiago Braga");
    await c.say("Oi");
    expect(await c.waitSent(3)).toEqual(["Segue o catálogo:", "Catálogo para Tiago", "Alguma dúvida?"]);
    const rows = await t.core.sequelize.query<{ mediaType: string | null; media: unknown }>("SELECT mediaType, media FROM messages WHERE tenantId = ? AND ticketId = ? AND fromMe = 1 ORDER BY id", { replacements: [f.tenantId, c.ticketId], type: QueryTypes.SELECT });
    expect(rows.map((r) => r.mediaType)).toEqual([null, "image", null]);
    const stored = typeof rows[1].media === "string" ? JSON.parse(rows[1].media) : rows[1].media;
    expect(stored).toMatchObject({ fileName: "catalogo.png", mimeType: "image/png" });
  });
});
