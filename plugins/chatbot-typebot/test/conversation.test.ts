/**
 * The Typebot plugin in a real core (MariaDB, Redis, the scheduler's clock) against a local fake
 * Typebot: a web chat connection with its Typebot section enabled hands new tickets to the bot;
 * the customer's first message starts a chat with the contact's name, number and protocol as
 * prefilled variables; replies go out through the channel (rich text as WhatsApp marks, the
 * image, the choice menu); a menu number reaches Typebot as the choice; the session id carries
 * the conversation; the restart keyword, our session timeout (the core's clock) and a session
 * Typebot forgot each start again; the flow's end and a Typebot failure hand the ticket to the
 * configured queue; the legacy API generation does the same over sendMessage; a repeated
 * delivery is skipped.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { startFakeTypebot, type FakeTypebot } from "./fake-typebot";
import { allowPlugin, Clock, Customer, logTypes, ok, platformSent, ticketRow, waitFor, waitSent, webchat } from "./support";

jest.setTimeout(240_000);

const TOKEN = "tb-token-secret-5678";
const INVALID = "Opção inválida: responda com o número da opção.";
const clock = new Clock(Date.parse("2026-03-02T12:00:00Z"));
let t: TestCore;
let fake: FakeTypebot;
let a: TenantFixture;
let conn: { id: number; token: string };

const starts = (publicId = "atendimento") => fake.requests.filter((r) => r.path === `/api/v1/typebots/${publicId}/startChat`);
const continues = () => fake.requests.filter((r) => r.path.endsWith("/continueChat"));
const settle = () => new Promise((r) => setTimeout(r, 500));

async function settings(patch: Record<string, unknown> = {}) {
  await ok(t.api.put("/typebot/settings", { viewerUrl: fake.url, apiToken: TOKEN, apiGeneration: "latest", sessionTimeoutMinutes: 30, queueId: a.queueIds[1], ...patch }, a.admin));
}

beforeAll(async () => {
  fake = await startFakeTypebot({ token: TOKEN });
  t = await startCore({ clock, env: { NAMESPACE: `typebot-${uid()}`, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  a = await createTenant(t, { tier: "PLUS" });
  await allowPlugin(t, [a]);
  conn = await webchat(t, a);
  await settings();
  await ok(t.api.put("/typebot/connection", { connectionId: conn.id, enabled: true, publicId: "atendimento", restartKeyword: "#reiniciar", invalidMessage: INVALID }, a.admin));
});

afterAll(async () => {
  await t?.stop();
  await fake?.stop();
});

describe("a conversation with a Typebot bot", () => {
  let customer: Customer;

  it("starts the chat on the first message with the prefilled variables and sends the replies through the channel", async () => {
    customer = new Customer(t, a, conn, clock, "Ana Souza");
    const { ticketId } = await customer.say("Oi");
    const sent = await waitSent(t, a.tenantId, ticketId, 3);
    const ticket = await ticketRow(t, a.tenantId, ticketId);
    expect(ticket.status).toBe("chatbot");
    expect(starts()).toHaveLength(1);
    expect(starts()[0]).toMatchObject({ authorization: `Bearer ${TOKEN}`, body: { prefilledVariables: { name: "Ana Souza", number: "", protocol: ticket.protocol }, message: { type: "text", text: "Oi" } } });
    expect(sent[0].body).toBe(`Olá, *Ana Souza*! Protocolo _${ticket.protocol}_\nVeja nossa ajuda (https://exemplo.com.br/ajuda)`);
    // The image: fetched from Typebot's address and sent as a file of the tenant's.
    expect(sent[1].mediaType).toBe("image");
    expect(sent[2].body).toBe("*1* - Vendas\n*2* - Suporte");
    expect(await logTypes(t, a.tenantId, ticketId)).toContain("chatBot");
    // The channel's side: the visitor's web chat got the texts.
    await waitFor("the web chat's texts", () => customer.received(), (texts) => texts.includes("*1* - Vendas\n*2* - Suporte"));
  });

  it("answers an invalid choice with the connection's invalid message and the menu again, carrying the session", async () => {
    await customer.say("7");
    const sent = await waitSent(t, a.tenantId, customer.ticketId, 5);
    expect(sent.slice(3).map((s) => s.body)).toEqual([INVALID, "*1* - Vendas\n*2* - Suporte"]);
    expect(continues()).toHaveLength(1);
    expect(continues()[0].path).toMatch(/^\/api\/v1\/sessions\/[0-9a-f-]{36}\/continueChat$/);
    expect(continues()[0].body.message).toEqual({ type: "text", text: "7" });
  });

  it("maps a menu number back to the choice and continues the same session", async () => {
    await customer.say("2");
    const sent = await waitSent(t, a.tenantId, customer.ticketId, 6);
    expect(sent[5].body).toBe("Suporte: descreva o problema");
    const [first, second] = continues();
    expect(second.path).toBe(first.path);
    expect(second.body.message).toEqual({ type: "text", text: "Suporte" });
  });

  it("hands the ticket to the configured queue when the flow ends", async () => {
    await customer.say("A internet caiu");
    const sent = await waitSent(t, a.tenantId, customer.ticketId, 7);
    expect(sent[6].body).toBe("Obrigado! Um atendente vai continuar.");
    const ticket = await waitFor("the hand-off", () => ticketRow(t, a.tenantId, customer.ticketId), (x) => x.status !== "chatbot");
    expect(ticket).toMatchObject({ status: "pending", queueId: a.queueIds[1], userId: null });
    expect(await logTypes(t, a.tenantId, customer.ticketId)).toContain("queue");
  });

  it("skips a repeated delivery of a message it already handled", async () => {
    const c = new Customer(t, a, conn, clock, "Bruno Dias");
    const { ticketId } = await c.say("Olá");
    await waitSent(t, a.tenantId, ticketId, 3);
    const { messageId } = await c.say("1");
    await waitSent(t, a.tenantId, ticketId, 4);
    // The plugin records a delivery once its replies are out: wait for that record.
    const handled = async () => {
      const [row] = (await t.core.sequelize.query(`SELECT handled FROM \`${t.config.database.database}__chatbot_typebot\`.sessions WHERE tenantId = ? AND ticketId = ?`, { replacements: [a.tenantId, ticketId] }))[0] as Array<{ handled: unknown }>;
      return JSON.stringify(row?.handled ?? null);
    };
    await waitFor("the delivery recorded", handled, (h) => h.includes(`${ticketId}:${messageId}`));
    const before = fake.requests.length;
    const ticket = await ticketRow(t, a.tenantId, ticketId);
    const message = { id: messageId, ticketId, fromMe: false, userId: null, body: "1", mediaType: null, status: "received", createdAt: new Date().toISOString() };
    const inbound = { id: `${ticketId}:${messageId}`, tenantId: a.tenantId, ref: String(conn.id), reason: "message", ticket: { ...ticket, connectionId: conn.id }, contact: { id: 1, name: "Bruno Dias", number: null, email: null }, message, at: Date.now() };
    await t.core.broker.call("v1.chatbot-typebot.chatbotMessage", inbound);
    await settle();
    expect(fake.requests.length).toBe(before);
    expect(await platformSent(t, a.tenantId, ticketId)).toHaveLength(4);
    // The same message under a new delivery id is a new message: Typebot hears it.
    await t.core.broker.call("v1.chatbot-typebot.chatbotMessage", { ...inbound, id: `${ticketId}:${messageId}:again` });
    expect(fake.requests.length).toBe(before + 1);
  });

  it("starts over on the restart keyword, without sending the keyword to Typebot", async () => {
    const c = new Customer(t, a, conn, clock, "Carla Lima");
    await c.say("Bom dia");
    await waitSent(t, a.tenantId, c.ticketId, 3);
    const n = starts().length;
    await c.say("#REINICIAR");
    await waitSent(t, a.tenantId, c.ticketId, 6);
    expect(starts()).toHaveLength(n + 1);
    expect(starts()[n].body.message).toBeUndefined();
    // The new session is the one continued.
    await c.say("1");
    const sent = await waitSent(t, a.tenantId, c.ticketId, 7);
    expect(sent[6].body).toBe("Você escolheu *Vendas*");
    const sessions = [...fake.sessions.keys()];
    expect(continues().at(-1)!.path).toBe(`/api/v1/sessions/${sessions.at(-1)}/continueChat`);
  });

  it("starts a new session after our timeout (the core's clock) and when Typebot no longer knows the session", async () => {
    const c = new Customer(t, a, conn, clock, "Diego Prado");
    await c.say("Oi");
    await waitSent(t, a.tenantId, c.ticketId, 3);
    const expiry = () => t.core.broker.call("scheduler.list", { owner: "chatbot-typebot", tenantId: a.tenantId, name: "expire" }) as Promise<Array<{ key: string; runAt: number }>>;
    const mine = await waitFor("the session's expiry job", expiry, (jobs) => jobs.some((j) => j.key === String(c.ticketId)));
    expect(mine.find((j) => j.key === String(c.ticketId))!.runAt).toBe(clock.now() + 30 * 60_000);
    let n = starts().length;
    clock.advance(31 * 60_000);
    await waitFor("the expiry to run", expiry, (jobs) => !jobs.some((j) => j.key === String(c.ticketId)));
    await c.say("1");
    await waitSent(t, a.tenantId, c.ticketId, 6);
    expect(starts()).toHaveLength(n + 1);
    expect(starts()[n].body.message).toEqual({ type: "text", text: "1" });
    expect((await platformSent(t, a.tenantId, c.ticketId)).map((s) => s.body).slice(-1)).toEqual(["*1* - Vendas\n*2* - Suporte"]);

    // Typebot forgot the session (expired on its side): 404 on continue, then a new start.
    const live = continues().length;
    fake.expire([...fake.sessions.keys()].at(-1)!);
    n = starts().length;
    await c.say("2");
    await waitSent(t, a.tenantId, c.ticketId, 9);
    expect(continues()).toHaveLength(live + 1);
    expect(starts()).toHaveLength(n + 1);
    expect((await ticketRow(t, a.tenantId, c.ticketId)).status).toBe("chatbot");
  });

  it("hands the ticket off and records the failure when Typebot answers an error, at the start or in the middle", async () => {
    const mid = new Customer(t, a, conn, clock, "Hugo Alves");
    await mid.say("Oi");
    await waitSent(t, a.tenantId, mid.ticketId, 3);
    fake.fail(500);
    try {
      const c = new Customer(t, a, conn, clock, "Elisa Rocha");
      await c.say("Oi");
      const ticket = await waitFor("the hand-off", () => ticketRow(t, a.tenantId, c.ticketId), (x) => x.status !== "chatbot", 30_000);
      expect(ticket).toMatchObject({ status: "pending", queueId: a.queueIds[1] });
      expect(await platformSent(t, a.tenantId, c.ticketId)).toEqual([]);
      const failures = await ok(t.api.get("/typebot/failures", a.admin));
      expect(failures[0]).toMatchObject({ ticketId: c.ticketId, kind: "http", status: 500, message: "Internal server error" });

      // In the middle of a conversation: the customer's answer meets the failure.
      await mid.say("1");
      expect(await waitFor("the hand-off", () => ticketRow(t, a.tenantId, mid.ticketId), (x) => x.status !== "chatbot", 30_000)).toMatchObject({ status: "pending", queueId: a.queueIds[1] });
      expect(continues().at(-1)!.body.message).toEqual({ type: "text", text: "Vendas" });
      expect((await ok(t.api.get("/typebot/failures", a.admin)))[0]).toMatchObject({ ticketId: mid.ticketId, status: 500 });
      expect(await platformSent(t, a.tenantId, mid.ticketId)).toHaveLength(3);
    } finally {
      fake.fail(null);
    }
  });

  it("sends media it cannot fetch, and a hosted video, as their addresses; a flow that ends at once hands off", async () => {
    const other = await webchat(t, a);
    await ok(t.api.put("/typebot/connection", { connectionId: other.id, enabled: true, publicId: "midia" }, a.admin));
    const c = new Customer(t, a, other, clock, "Iris Costa");
    await c.say("Oi");
    const sent = await waitSent(t, a.tenantId, c.ticketId, 2);
    expect(sent).toEqual([
      { body: `${fake.url}/files/missing/foto.png`, mediaType: null },
      { body: "https://youtu.be/abc", mediaType: null },
    ]);
    expect(await waitFor("the hand-off", () => ticketRow(t, a.tenantId, c.ticketId), (x) => x.status !== "chatbot")).toMatchObject({ status: "pending", queueId: a.queueIds[1] });
  });

  it("hands off when Typebot is down (nothing listens at the viewer URL)", async () => {
    await settings({ viewerUrl: "http://127.0.0.1:9" });
    try {
      const c = new Customer(t, a, conn, clock, "Fábio Reis");
      await c.say("Oi");
      const ticket = await waitFor("the hand-off", () => ticketRow(t, a.tenantId, c.ticketId), (x) => x.status !== "chatbot", 30_000);
      expect(ticket).toMatchObject({ status: "pending", queueId: a.queueIds[1] });
      const failures = await ok(t.api.get("/typebot/failures", a.admin));
      expect(failures[0]).toMatchObject({ ticketId: c.ticketId, kind: "network", status: null });
    } finally {
      await settings();
    }
  });

  it("speaks the legacy generation (sendMessage with startParams, then the session id)", async () => {
    await settings({ apiGeneration: "legacy" });
    try {
      const c = new Customer(t, a, conn, clock, "Gabi Nunes");
      const { ticketId } = await c.say("Oi");
      await waitSent(t, a.tenantId, ticketId, 3);
      const ticket = await ticketRow(t, a.tenantId, ticketId);
      const legacy = () => fake.requests.filter((r) => r.path === "/api/v1/sendMessage");
      expect(legacy()).toHaveLength(1);
      expect(legacy()[0].body).toMatchObject({ startParams: { publicId: "atendimento", prefilledVariables: { name: "Gabi Nunes", protocol: ticket.protocol } }, message: "Oi" });
      await c.say("1");
      const sent = await waitSent(t, a.tenantId, ticketId, 4);
      expect(sent[3].body).toBe("Você escolheu *Vendas*");
      expect(legacy()[1].body).toEqual({ sessionId: expect.any(String), message: "Vendas" });
      expect(fake.sessions.has(legacy()[1].body.sessionId)).toBe(true);
    } finally {
      await settings();
    }
  });
});
