/**
 * Realtime (spec §6, §7, §9): who may open a socket, sockets of ended sessions, and which
 * sockets hear which events — never another tenant's, never a queue the agent is not in.
 * Real socket.io on the API's server, real Redis session states.
 */
import { io as ioClient, Socket } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture, Auth, PASSWORD, uid } from "./helpers";

type Ev = { event: string; payload: any };
type Client = { socket: Socket; events: Ev[] };

function open(t: TestCore, auth: Record<string, unknown> | undefined): Socket {
  return ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth, reconnection: false, forceNew: true });
}

function socketOf(t: TestCore, who: Auth): Promise<Client> {
  const events: Ev[] = [];
  const socket = open(t, { token: who.token, sessionId: who.sessionId });
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.on("ready", () => resolve({ socket, events }));
    socket.on("connect_error", reject);
  });
}

/** The error a socket is refused with (connect_error), or "connected". */
function refusal(t: TestCore, auth: Record<string, unknown> | undefined): Promise<{ message: string; code?: string } | "connected"> {
  const socket = open(t, auth);
  return new Promise((resolve) => {
    socket.on("connect_error", (err: Error & { data?: { code?: string } }) => {
      socket.close();
      resolve({ message: err.message, code: err.data?.code });
    });
    socket.on("ready", () => {
      socket.close();
      resolve("connected");
    });
  });
}

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};
const settle = () => new Promise((r) => setTimeout(r, 300));

async function addUser(t: TestCore, f: TenantFixture, profile: "user" | "supervisor" | "admin", queues: number[]): Promise<Auth> {
  const email = `u-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: `User ${email}`, email, password: PASSWORD, profile, queues });
  return t.api.login(email);
}

async function connectWebchat(t: TestCore, f: TenantFixture, queueId?: number) {
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  return c.body as { id: number; token: string };
}

async function inbound(t: TestCore, tenantId: number, connectionId: number, ext = `ext-${uid()}`, body = "olá") {
  const r = (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: `p-${uid()}-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: ext, name: `Cliente ${ext}` },
    body,
  })) as { ticketId: number; messageId: number };
  return { ...r, ext };
}

/** Events of a client about one ticket (list, message and note events). */
const aboutTicket = (c: Client, ticketId: number) =>
  c.events.filter(
    (e) =>
      e.payload?.payload?.id === ticketId || // ticket:create / update / delete
      e.payload?.payload?.ticket?.id === ticketId || // chat:create
      e.payload?.ticket?.id === ticketId || // appMessage
      e.payload?.ticketId === ticketId, // ticketNote
  );

describe("realtime (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("GET /api/realtime/config: 10 reconnection attempts, 5–10 s between them, 20 s timeout", async () => {
    const r = await t.api.get("/realtime/config");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      path: "/socket.io",
      transports: ["websocket", "polling"],
      reconnection: true,
      reconnectionAttempts: 10,
      reconnectionDelay: 5000,
      reconnectionDelayMax: 10000,
      timeout: 20000,
    });
  });

  it("a socket without a token, with a bad token or with another session's id is refused", async () => {
    expect(await refusal(t, undefined)).toMatchObject({ code: "ERR_SESSION_REQUIRED" });
    expect(await refusal(t, { sessionId: a.agent.sessionId })).toMatchObject({ code: "ERR_SESSION_REQUIRED" });
    expect(await refusal(t, { token: a.agent.token })).toMatchObject({ code: "ERR_SESSION_REQUIRED" });
    expect(await refusal(t, { token: "not-a-jwt", sessionId: a.agent.sessionId })).toMatchObject({ code: "ERR_TOKEN_INVALID" });
    // A valid token with someone else's session id.
    expect(await refusal(t, { token: a.agent.token, sessionId: a.admin.sessionId })).toMatchObject({ code: "ERR_TOKEN_INVALID" });
    expect(await refusal(t, { token: a.agent.token, sessionId: b.agent.sessionId })).toMatchObject({ code: "ERR_TOKEN_INVALID" });
    // A token signed with another secret.
    const [h, p] = a.agent.token.split(".");
    expect(await refusal(t, { token: `${h}.${p}.forged`, sessionId: a.agent.sessionId })).toMatchObject({ code: "ERR_TOKEN_INVALID" });
    // The right pair connects.
    expect(await refusal(t, { token: a.agent.token, sessionId: a.agent.sessionId })).toBe("connected");
  });

  it("an ended session loses its socket at once and cannot open another", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const c = await socketOf(t, f.agent);
    const gone = new Promise<string>((resolve) => c.socket.on("disconnect", (reason) => resolve(reason)));
    expect((await t.api.post("/auth/logout", {}, f.agent)).status).toBe(200);
    expect(await gone).toBe("io server disconnect");
    const again = await refusal(t, { token: f.agent.token, sessionId: f.agent.sessionId });
    expect(again).not.toBe("connected");
    expect((again as { code: string }).code).toMatch(/^ERR_SESSION/);

    // A login elsewhere ends the older session, and its socket with it.
    const old = await socketOf(t, f.admin);
    const oldGone = new Promise<string>((resolve) => old.socket.on("disconnect", (reason) => resolve(reason)));
    const fresh = await t.api.login(f.emails.admin);
    expect(await oldGone).toBe("io server disconnect");
    expect(await refusal(t, { token: f.admin.token, sessionId: f.admin.sessionId })).toMatchObject({ code: "ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE" });
    const now = await socketOf(t, fresh);
    expect(now.socket.connected).toBe(true);
    now.socket.disconnect();
  });

  it("a socket that opens while its session ends does not survive it", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    for (let i = 0; i < 12; i++) {
      const u = await addUser(t, f, "user", [f.queueIds[0]]);
      const socket = open(t, { token: u.token, sessionId: u.sessionId });
      try {
        await new Promise((r) => setTimeout(r, i % 4));
        expect((await t.api.post("/auth/logout", {}, u)).status).toBe(200);
        await settle();
        expect(socket.connected).toBe(false);
      } finally {
        socket.close();
      }
    }
  });

  it("events of tenant A never reach any socket of tenant B", async () => {
    const connA = await connectWebchat(t, a); // no queue: the whole tenant may see its tickets
    const bAdmin = await socketOf(t, b.admin);
    const bSup = await socketOf(t, b.supervisor);
    const bAgent = await socketOf(t, b.agent);
    const aAdmin = await socketOf(t, a.admin);
    const aAgent = await socketOf(t, a.agent);
    try {
      const { ticketId, messageId } = await inbound(t, a.tenantId, connA.id);
      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent)).status).toBe(200);
      expect((await t.api.post(`/messages/${ticketId}`, { body: "resposta" }, a.agent)).status).toBe(201);
      expect((await t.api.post(`/messagesReaction/${messageId}`, { emoji: "👍" }, a.agent)).status).toBe(200);
      expect((await t.api.post(`/tickets/${ticketId}/notes`, { body: "nota" }, a.agent)).status).toBe(201);
      expect((await t.api.put(`/tickets/${ticketId}`, { queueId: a.queueIds[0] }, a.agent)).status).toBe(200);
      expect((await t.api.post(`/connections/${connA.id}/disconnect`, {}, a.admin)).status).toBe(200);
      expect((await t.api.del(`/tickets/${ticketId}`, a.admin)).status).toBe(200);
      // Tenant A's sockets heard all of that.
      await waitFor(() => aAdmin.events.some((e) => e.event === `${a.tenantId}:ticketList` && e.payload.type === "ticket:delete"));
      await waitFor(() => aAdmin.events.some((e) => e.event === `${a.tenantId}:whatsappSession`));
      // The neutral name of the same status push (whatsappSession stays as its alias until the shell moves).
      expect(aAdmin.events.some((e) => e.event === `${a.tenantId}:connectionStatus` && e.payload.session?.id === connA.id)).toBe(true);
      expect(aAgent.events.some((e) => e.event === `${a.tenantId}:connectionStatus`)).toBe(false);
      expect(aAgent.events.some((e) => e.event === `${a.tenantId}:ticketList` && e.payload.type === "chat:create")).toBe(true);
      expect(aAgent.events.some((e) => e.event === `${a.tenantId}:appMessage`)).toBe(true);
      expect(aAgent.events.some((e) => e.event === `${a.tenantId}:ticketNote`)).toBe(true);
      await settle();
      for (const c of [bAdmin, bSup, bAgent]) expect(c.events.filter((e) => e.event !== "ready")).toEqual([]);
    } finally {
      for (const c of [bAdmin, bSup, bAgent, aAdmin, aAgent]) c.socket.disconnect();
    }
  });

  it("an agent not in a ticket's queue does not hear its events; the queue's agent and the admins do", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const salesAgent = await addUser(t, f, "user", [f.queueIds[1]]);
    const supportConn = await connectWebchat(t, f, f.queueIds[0]);
    const salesConn = await connectWebchat(t, f, f.queueIds[1]);
    const support = await socketOf(t, f.agent); // queue 1
    const sales = await socketOf(t, salesAgent); // queue 2
    const admin = await socketOf(t, f.admin);
    const sup = await socketOf(t, f.supervisor); // queue 1, but supervisors see everything
    try {
      // A sales conversation: only the sales agent (and admins) hear it.
      const s = await inbound(t, f.tenantId, salesConn.id, `s-${uid()}`, "quero comprar");
      await waitFor(() => aboutTicket(sales, s.ticketId).length >= 2);
      await t.api.put(`/tickets/${s.ticketId}`, { status: "open" }, salesAgent);
      await t.api.post(`/messages/${s.ticketId}`, { body: "claro" }, salesAgent);
      await t.api.post(`/tickets/${s.ticketId}/notes`, { body: "lead quente" }, salesAgent);
      await inbound(t, f.tenantId, salesConn.id, s.ext, "obrigado");
      await waitFor(() => aboutTicket(admin, s.ticketId).some((e) => e.event.endsWith(":ticketNote")));
      await waitFor(() => aboutTicket(sup, s.ticketId).some((e) => e.event.endsWith(":ticketNote")));
      await waitFor(() => aboutTicket(sales, s.ticketId).filter((e) => e.event.endsWith(":appMessage")).length >= 4);
      expect(sales.events.find((e) => e.payload?.type === "chat:create" && e.payload.payload.ticket.id === s.ticketId)!.payload.payload).toMatchObject({
        body: "quero comprar",
        ticket: { queueId: f.queueIds[1] },
      });

      // A support conversation: the sales agent does not hear it.
      const p = await inbound(t, f.tenantId, supportConn.id, `p-${uid()}`, "suporte");
      await waitFor(() => aboutTicket(support, p.ticketId).length >= 2);
      await settle();
      expect(aboutTicket(support, s.ticketId)).toEqual([]);
      expect(aboutTicket(sales, p.ticketId)).toEqual([]);

      // Transferred to the support queue: the support agent hears it from then on, and the
      // sales agent learns that it left them.
      expect((await t.api.put(`/tickets/${s.ticketId}`, { queueId: f.queueIds[0] }, salesAgent)).status).toBe(200);
      await waitFor(() => aboutTicket(support, s.ticketId).length > 0);
      await waitFor(() => aboutTicket(sales, s.ticketId).some((e) => e.payload?.type === "ticket:update" && e.payload.payload.queueId === f.queueIds[0]));
      const salesCount = aboutTicket(sales, s.ticketId).length;
      await inbound(t, f.tenantId, supportConn.id, s.ext, "ainda aqui?"); // another connection: a new ticket of support
      await inbound(t, f.tenantId, salesConn.id, s.ext, "oi de novo"); // the moved ticket
      await waitFor(() => aboutTicket(support, s.ticketId).some((e) => e.payload?.payload?.body === "oi de novo"));
      await settle();
      expect(aboutTicket(sales, s.ticketId)).toHaveLength(salesCount);
    } finally {
      for (const c of [support, sales, admin, sup]) c.socket.disconnect();
    }
  });

  it("the visibility settings apply to live events as to the list (ticketsOwnerOnly, botAndUnassignedAdminOnly)", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const colleague = await addUser(t, f, "user", [f.queueIds[0]]);
    const queued = await connectWebchat(t, f, f.queueIds[0]);
    const loose = await connectWebchat(t, f); // no queue
    const agent = await socketOf(t, f.agent); // queue 1
    const admin = await socketOf(t, f.admin);
    try {
      // Defaults: a ticket without a queue reaches every agent; a queue's ticket its agents.
      const free = await inbound(t, f.tenantId, loose.id, `l-${uid()}`, "sem fila");
      await waitFor(() => aboutTicket(agent, free.ticketId).length > 0);

      expect((await t.api.put("/settings/ticketsOwnerOnly", { value: true }, f.admin)).status).toBe(200);
      expect((await t.api.put("/settings/botAndUnassignedAdminOnly", { value: true }, f.admin)).status).toBe(200);
      // A colleague's ticket in the agent's queue: only the owner (and admins) hear it now.
      const held = await inbound(t, f.tenantId, queued.id, `h-${uid()}`, "primeira");
      await t.api.put(`/tickets/${held.ticketId}`, { status: "open" }, colleague);
      const before = aboutTicket(agent, held.ticketId).length;
      await inbound(t, f.tenantId, queued.id, held.ext, "segunda");
      // A ticket with no user and no queue: admins only.
      const hidden = await inbound(t, f.tenantId, loose.id, `x-${uid()}`, "ninguém");
      await waitFor(() => aboutTicket(admin, hidden.ticketId).length > 0);
      await waitFor(() => aboutTicket(admin, held.ticketId).some((e) => e.payload?.payload?.body === "segunda" || e.payload?.message?.body === "segunda"));
      await settle();
      expect(aboutTicket(agent, held.ticketId)).toHaveLength(before);
      expect(aboutTicket(agent, hidden.ticketId)).toEqual([]);
    } finally {
      agent.socket.disconnect();
      admin.socket.disconnect();
    }
  });

  it("ticket list events do not carry the contact's phone number (agents hear them too)", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const conn = await connectWebchat(t, f, f.queueIds[0]);
    const agent = await socketOf(t, f.agent);
    try {
      const c = await t.api.post("/contacts", { name: `Fone ${uid()}`, number: "5511966665555" }, f.admin);
      const tk = await t.api.post("/tickets", { contactId: c.body.id, connectionId: conn.id, status: "pending", queueId: f.queueIds[0] }, f.admin);
      expect(tk.status).toBe(201);
      await t.api.put(`/tickets/${tk.body.id}`, { status: "open" }, f.agent);
      await waitFor(() => aboutTicket(agent, tk.body.id).some((e) => e.payload?.type === "ticket:update"));
      const list = aboutTicket(agent, tk.body.id).filter((e) => e.event === `${f.tenantId}:ticketList`);
      expect(list.length).toBeGreaterThan(0);
      for (const e of list) expect(JSON.stringify(e.payload)).not.toContain("966665555");
      expect(list.find((e) => e.payload.type === "ticket:update")!.payload.payload.contact).toMatchObject({ name: c.body.name });
    } finally {
      agent.socket.disconnect();
    }
  });

  it("a ticket held by an agent reaches that agent's socket even outside their queues", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const salesConn = await connectWebchat(t, f, f.queueIds[1]);
    const support = await socketOf(t, f.agent); // queue 1 only
    try {
      const s = await inbound(t, f.tenantId, salesConn.id);
      await t.api.put(`/tickets/${s.ticketId}`, { status: "open" }, f.admin);
      await settle();
      expect(aboutTicket(support, s.ticketId)).toEqual([]);
      await t.api.put(`/tickets/${s.ticketId}`, { userId: f.agent.userId }, f.admin);
      await waitFor(() => aboutTicket(support, s.ticketId).some((e) => e.payload?.type === "ticket:update" && e.payload.payload.userId === f.agent.userId));
      await inbound(t, f.tenantId, salesConn.id, s.ext, "para você");
      await waitFor(() => aboutTicket(support, s.ticketId).some((e) => e.payload?.payload?.body === "para você"));
    } finally {
      support.socket.disconnect();
    }
  });
});
