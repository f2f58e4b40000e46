/**
 * A customer's message travels through a real channel plugin (web chat, loaded by the
 * plugin host) into a ticket that an agent sees live, and the agent's reply travels back.
 * Real MariaDB, Redis and socket.io; nothing of ours is mocked.
 */
import { io as ioClient, Socket } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture, Auth, uid } from "./helpers";

interface Visitor {
  visitorId: string;
  send(body: string, clientMessageId?: string): Promise<{ status: number; body: { duplicate?: boolean; error?: string } }>;
  poll(after?: number, wait?: number): Promise<Array<{ seq: number; kind: string; body?: string; targetId?: string; emoji?: string; id: string }>>;
}

async function connectWebchat(t: TestCore, f: TenantFixture, name = `Site ${uid()}`, queueId?: number) {
  const c = await t.api.post("/connections", { name, type: "channel-webchat", settings: { title: "Fale conosco" }, queueId }, f.admin);
  expect(c.status).toBe(201);
  const on = await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin);
  expect(on.status).toBe(200);
  expect(on.body.status).toBe("connected");
  return c.body as { id: number; token: string };
}

async function visitor(t: TestCore, token: string): Promise<Visitor> {
  const s = await t.api.post(`/webchat/${token}/session`, {});
  expect(s.status).toBe(200);
  const visitorId = s.body.visitorId as string;
  return {
    visitorId,
    send: (body, clientMessageId) => t.api.post(`/webchat/${token}/messages`, { visitorId, body, clientMessageId }),
    poll: async (after = 0, wait = 0) => (await t.api.get(`/webchat/${token}/messages?visitorId=${visitorId}&after=${after}&wait=${wait}`)).body.items,
  };
}

function agentSocket(t: TestCore, auth: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: auth.token, sessionId: auth.sessionId }, reconnection: false });
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.on("ready", () => resolve({ socket, events }));
    socket.on("connect_error", reject);
  });
}

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};

async function pendingTickets(t: TestCore, who: Auth) {
  const r = await t.api.get("/tickets?status=pending&showAll=true", who);
  expect(r.status).toBe(200);
  return r.body.tickets as Array<{ id: number; contactId: number; unreadMessages: number; queueId: number | null; userId: number | null; contact: { name: string }; lastMessage: string }>;
}

describe("conversations through the web chat channel (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let conn: { id: number; token: string };

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    conn = await connectWebchat(t, a, "Site", a.queueIds[0]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a visitor's message becomes a pending ticket the agent sees live, and the reply reaches the visitor", async () => {
    const agent = await agentSocket(t, a.agent);
    const other = await agentSocket(t, b.admin);
    try {
      const v = await visitor(t, conn.token);
      const sent = await v.send("Olá, preciso de ajuda");
      expect(sent.status).toBe(201);
      await waitFor(() => agent.events.some((e) => e.event === `${a.tenantId}:ticketList` && e.payload.type === "chat:create"));
      const create = agent.events.find((e) => e.payload?.type === "chat:create")!.payload.payload;
      expect(create).toMatchObject({ body: "Olá, preciso de ajuda", read: false, isGroup: false });
      expect(create.ticket).toMatchObject({ queueId: a.queueIds[0], userId: null, isGroup: false });
      expect(create.ticket.contact.name).toMatch(/^Visitante/);

      const list = await pendingTickets(t, a.agent);
      const ticket = list.find((x) => x.id === create.ticket.id)!;
      expect(ticket).toMatchObject({ unreadMessages: 1, lastMessage: "Olá, preciso de ajuda" });

      // Accept, read, reply.
      const acc = await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.agent);
      expect(acc.status).toBe(200);
      expect(acc.body).toMatchObject({ status: "open", userId: a.agent.userId });
      const msgs = await t.api.get(`/messages/${ticket.id}`, a.agent);
      expect(msgs.body.messages.map((m: { body: string }) => m.body)).toEqual(["Olá, preciso de ajuda"]);
      const reply = await t.api.post(`/messages/${ticket.id}`, { body: "Claro! Como posso ajudar?" }, a.agent);
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ fromMe: true, status: "sent" });
      const items = await v.poll(0, 2);
      expect(items.map((i) => [i.kind, i.body])).toEqual([["text", "Claro! Como posso ajudar?"]]);

      // Tenant B's socket heard nothing of tenant A.
      expect(other.events.filter((e) => e.event.startsWith(`${a.tenantId}:`))).toEqual([]);
      expect(other.events.every((e) => e.event === "ready")).toBe(true);
    } finally {
      agent.socket.disconnect();
      other.socket.disconnect();
    }
  });

  it("50 messages at once from a new visitor make exactly one contact and one open ticket", async () => {
    const v = await visitor(t, conn.token);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => v.send(`mensagem ${i}`, `c-${i}`)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const [rows] = (await t.core.sequelize.query(
      "SELECT COUNT(DISTINCT t.id) AS tickets, COUNT(DISTINCT t.contactId) AS contacts, COUNT(m.id) AS messages FROM tickets t JOIN messages m ON m.ticketId = t.id JOIN contact_identities ci ON ci.contactId = t.contactId WHERE t.tenantId = ? AND ci.externalId = ?",
      { replacements: [a.tenantId, v.visitorId] },
    )) as [Array<{ tickets: number; contacts: number; messages: number }>, unknown];
    expect(rows[0]).toMatchObject({ tickets: 1, contacts: 1, messages: 50 });
  });

  it("a replayed delivery stores nothing new and emits nothing", async () => {
    const v = await visitor(t, conn.token);
    expect((await v.send("primeira", "same-id")).body.duplicate).toBe(false);
    const agent = await agentSocket(t, a.admin);
    try {
      const again = await v.send("primeira (de novo)", "same-id");
      expect(again.status).toBe(201);
      expect(again.body.duplicate).toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(agent.events.filter((e) => e.event !== "ready")).toEqual([]);
      const [rows] = (await t.core.sequelize.query("SELECT COUNT(*) AS n FROM messages WHERE tenantId = ? AND providerId = ?", {
        replacements: [a.tenantId, `${v.visitorId}:same-id`],
      })) as [Array<{ n: number }>, unknown];
      expect(Number(rows[0].n)).toBe(1);
    } finally {
      agent.socket.disconnect();
    }
  });

  it("orders messages by provider timestamp, then id, whatever the arrival order", async () => {
    const externalId = `ext-${uid()}`;
    const base = Date.now() - 60_000;
    for (const [i, ts] of [
      [3, base + 3000],
      [1, base + 1000],
      [2, base + 2000],
      [4, base + 3000],
    ] as const) {
      await t.core.broker.call("channels.inbound", { tenantId: a.tenantId, connectionId: conn.id, providerMessageId: `o-${externalId}-${i}`, timestamp: ts, from: { externalId }, body: `m${i}` });
    }
    const list = await pendingTickets(t, a.admin);
    const contactTicket = (await t.core.sequelize.query(
      "SELECT t.id FROM tickets t JOIN contact_identities ci ON ci.contactId = t.contactId WHERE t.tenantId = ? AND ci.externalId = ?",
      { replacements: [a.tenantId, externalId] },
    )) as [Array<{ id: number }>, unknown];
    const ticketId = contactTicket[0][0].id;
    expect(list.some((x) => x.id === ticketId)).toBe(true);
    const msgs = await t.api.get(`/messages/${ticketId}`, a.admin);
    expect(msgs.body.messages.map((m: { body: string }) => m.body)).toEqual(["m1", "m2", "m3", "m4"]);
    // The ticket's last message is the newest by time, not the last to arrive.
    expect(list.find((x) => x.id === ticketId)!.lastMessage).toBe("m4");
  });

  it("edit, react, delete within 5 minutes reach the visitor; an older message cannot be deleted", async () => {
    const v = await visitor(t, conn.token);
    await v.send("oi");
    const ticket = (await pendingTickets(t, a.admin)).find((x) => x.lastMessage === "oi")!;
    await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.admin);
    const m1 = (await t.api.post(`/messages/${ticket.id}`, { body: "texto" }, a.admin)).body;
    const m2 = (await t.api.post(`/messages/${ticket.id}`, { body: "antigo" }, a.admin)).body;
    expect((await t.api.post(`/messagesEdit/${m1.id}`, { body: "texto editado" }, a.admin)).body).toMatchObject({ body: "texto editado", isEdited: true });
    expect((await t.api.post(`/messagesReaction/${m1.id}`, { emoji: "👍" }, a.admin)).body.reactions).toEqual([{ by: `user:${a.admin.userId}`, emoji: "👍" }]);
    await t.core.sequelize.query("UPDATE messages SET createdAt = ? WHERE id = ?", { replacements: [new Date(Date.now() - 6 * 60_000), m2.id] });
    const old = await t.api.del(`/messages/${m2.id}`, a.admin);
    expect(old.status).toBe(400);
    expect(old.body.error).toBe("ERR_MESSAGE_TOO_OLD_TO_DELETE");
    const del = await t.api.del(`/messages/${m1.id}`, a.admin);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ isDeleted: true, body: null });
    const kinds = (await v.poll(0, 1)).map((i) => i.kind);
    expect(kinds).toEqual(["text", "text", "edit", "reaction", "delete"]);
  });

  it("transfer, resolve and reopen follow the rules, with their log events", async () => {
    const v = await visitor(t, conn.token);
    await v.send("transferir");
    const ticket = (await pendingTickets(t, a.admin)).find((x) => x.lastMessage === "transferir")!;
    await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.agent);
    const none = await t.api.put(`/tickets/${ticket.id}`, { userId: null }, a.agent);
    expect(none.body.error).toBe("ERR_TRANSFER_TARGET_REQUIRED");
    const same = await t.api.put(`/tickets/${ticket.id}`, { queueId: a.queueIds[0] }, a.agent);
    expect(same.status).toBe(409);
    expect(same.body.error).toBe("ERR_TICKET_ALREADY_ASSIGNED");
    // To the other queue: the supervisor (not in it) loses nothing, the admin (in it) sees it waiting.
    const moved = await t.api.put(`/tickets/${ticket.id}`, { queueId: a.queueIds[1] }, a.agent);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ queueId: a.queueIds[1], userId: null, status: "pending" });
    // The agent is not in that queue any more: the ticket is gone for them.
    expect((await t.api.get(`/tickets/${ticket.id}`, a.agent)).status).toBe(404);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.admin)).status).toBe(200);
    const closed = await t.api.put(`/tickets/${ticket.id}`, { status: "closed" }, a.admin);
    expect(closed.body.status).toBe("closed");
    await t.api.put("/settings/noReopenMinutes", { value: 10 }, a.admin);
    const blocked = await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.admin);
    expect(blocked.body.error).toBe("ERR_TICKET_REOPEN_BLOCKED");
    await t.api.put("/settings/noReopenMinutes", { value: 0 }, a.admin);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.admin)).body.status).toBe("open");
    const logs = (await t.api.get(`/tickets/${ticket.id}/logs`, a.admin)).body.map((l: { type: string }) => l.type);
    for (const type of ["created", "started", "transfered", "closed", "reopened"]) expect(logs).toContain(type);
  });

  it("a send that fails is recorded on the message with its reason", async () => {
    const spare = await connectWebchat(t, a, `Extra ${uid()}`);
    const v = await visitor(t, spare.token);
    await v.send("vai falhar");
    const ticket = (await pendingTickets(t, a.admin)).find((x) => x.lastMessage === "vai falhar")!;
    await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.admin);
    await t.api.del(`/connections/${spare.id}?confirmation=EXCLUIR`, a.admin);
    const r = await t.api.post(`/messages/${ticket.id}`, { body: "sem conexão" }, a.admin);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "failed", failReason: "ERR_CONNECTION_NOT_FOUND" });
    const stored = await t.api.get(`/messages/${ticket.id}`, a.admin);
    expect(stored.body.messages.at(-1)).toMatchObject({ body: "sem conexão", status: "failed" });
  });

  it("tenant B never reaches tenant A's tickets or messages", async () => {
    const ticket = (await pendingTickets(t, a.admin))[0] ?? (await t.api.get("/tickets?status=open&showAll=true", a.admin)).body.tickets[0];
    for (const r of [
      await t.api.get(`/tickets/${ticket.id}`, b.admin),
      await t.api.get(`/messages/${ticket.id}`, b.admin),
      await t.api.post(`/messages/${ticket.id}`, { body: "x" }, b.admin),
      await t.api.put(`/tickets/${ticket.id}`, { status: "closed" }, b.admin),
    ]) {
      expect(r.status).toBe(404);
      expect(r.body.error).toBe("ERR_TICKET_NOT_FOUND");
    }
    expect((await t.api.get("/tickets?status=pending,open&showAll=true", b.admin)).body.tickets).toEqual([]);
  });

  it("a message's media is served to its tenant only, and paths cannot leave the tenant's folder", async () => {
    const v = await visitor(t, conn.token);
    await v.send("arquivo");
    const ticket = (await pendingTickets(t, a.admin)).find((x) => x.lastMessage === "arquivo")!;
    await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, a.admin);
    const content = "conteúdo do arquivo";
    const sent = await t.api.post(`/messages/${ticket.id}`, { body: "segue", medias: [{ fileName: "nota.txt", mimeType: "text/plain", data: Buffer.from(content).toString("base64") }] }, a.admin);
    expect(sent.status).toBe(201);
    // Web chat sends no media: the message is kept as failed, with the reason.
    expect(sent.body).toMatchObject({ status: "failed", failReason: "ERR_CHANNEL_UNSUPPORTED", mediaType: "document" });
    const url = sent.body.media.url as string;
    const own = await fetch(t.url + url, { headers: { authorization: `Bearer ${a.admin.token}`, "x-session-id": a.admin.sessionId } });
    expect(own.status).toBe(200);
    expect(await own.text()).toBe(content);
    const foreign = await fetch(t.url + url, { headers: { authorization: `Bearer ${b.admin.token}`, "x-session-id": b.admin.sessionId } });
    expect(foreign.status).toBe(404);
    const escape = await t.api.get(`/files/${encodeURIComponent("../../.jwt-secret")}`, a.admin);
    expect(escape.status).toBe(404);
  });
});
