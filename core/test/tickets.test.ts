/**
 * Tickets (spec §3, §4, §6): the actions and their rules, the activity log, notes, protocol
 * numbers, mass actions, unread counts, and the attendance list with its filters, paging,
 * ordering and visibility settings. Real MariaDB, Redis and the web-chat channel plugin.
 */
import { startCore, createTenant, TestCore, TenantFixture, Auth, Res, PASSWORD, uid } from "./helpers";

type TicketView = {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  contactId: number;
  connectionId: number | null;
  pinned: boolean;
  unreadMessages: number;
  protocol: string | null;
  closedAt: string | null;
  createdAt: string;
  lastMessage: string | null;
  contact?: { name: string; number: string | null };
};

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

async function connectWebchat(t: TestCore, f: TenantFixture, queueId?: number, name = `Site ${uid()}`) {
  const c = await t.api.post("/connections", { name, type: "channel-webchat", settings: { title: "Fale conosco" }, queueId }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  return c.body as { id: number; token: string };
}

/** A customer's message through the core's channel entry point; answers its ticket. */
async function inbound(t: TestCore, tenantId: number, connectionId: number, o: { ext?: string; name?: string; body?: string; ts?: number } = {}) {
  const ext = o.ext ?? `ext-${uid()}`;
  const r = (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: `p-${uid()}-${uid()}`,
    timestamp: o.ts ?? Date.now(),
    from: { externalId: ext, name: o.name ?? `Cliente ${ext}` },
    body: o.body ?? "olá",
  })) as { ticketId: number; messageId: number };
  return { ...r, ext };
}

async function addUser(t: TestCore, f: TenantFixture, profile: "user" | "supervisor" | "admin", queues: number[]): Promise<Auth> {
  const email = `u-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: `User ${email}`, email, password: PASSWORD, profile, queues });
  return t.api.login(email);
}

const getTicket = async (t: TestCore, id: number, who: Auth) => (await t.api.get(`/tickets/${id}`, who)).body as TicketView;
const logTypes = async (t: TestCore, id: number, who: Auth) => ((await t.api.get(`/tickets/${id}/logs`, who)).body as Array<{ type: string }>).map((l) => l.type);

describe("tickets (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let conn: { id: number; token: string };
  let agent2: Auth; // a second agent in queue 1
  let sales: Auth; // an agent in queue 2 only

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    conn = await connectWebchat(t, a, a.queueIds[0]);
    agent2 = await addUser(t, a, "user", [a.queueIds[0]]);
    sales = await addUser(t, a, "user", [a.queueIds[1]]);
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("accept", () => {
    it("an agent takes a pending ticket; another agent cannot take it; a supervisor and an admin can", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      expect(await getTicket(t, ticketId, a.agent)).toMatchObject({ status: "pending", userId: null, queueId: a.queueIds[0], unreadMessages: 1 });
      const acc = await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);
      expect(acc.status).toBe(200);
      expect(acc.body).toMatchObject({ status: "open", userId: a.agent.userId, unreadMessages: 0 });

      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open" }, agent2), 403, "ERR_NO_PERMISSION");
      // An agent cannot hand it to themselves by naming a user either.
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open", userId: agent2.userId }, agent2), 403, "ERR_NO_PERMISSION");
      expect((await getTicket(t, ticketId, a.admin)).userId).toBe(a.agent.userId);

      const sup = await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.supervisor);
      expect(sup.status).toBe(200);
      expect(sup.body).toMatchObject({ status: "open", userId: a.supervisor.userId });
      const adm = await t.api.put(`/tickets/${ticketId}`, { status: "open", userId: agent2.userId }, a.admin);
      expect(adm.status).toBe(200);
      expect(adm.body).toMatchObject({ status: "open", userId: agent2.userId });
      const logs = await logTypes(t, ticketId, a.admin);
      expect(logs.filter((x) => x === "started")).toHaveLength(3);
    });

    it("two agents accepting the same ticket at once: exactly one gets it", async () => {
      for (let round = 0; round < 5; round++) {
        const { ticketId } = await inbound(t, a.tenantId, conn.id);
        const [r1, r2] = await Promise.all([t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent), t.api.put(`/tickets/${ticketId}`, { status: "open" }, agent2)]);
        const ok = [r1, r2].filter((r) => r.status === 200);
        expect(ok).toHaveLength(1);
        const loser = [r1, r2].find((r) => r.status !== 200)!;
        expectError(loser, 403, "ERR_NO_PERMISSION");
        const final = await getTicket(t, ticketId, a.admin);
        expect(final.userId).toBe(ok[0].body.userId);
        expect((await logTypes(t, ticketId, a.admin)).filter((x) => x === "started")).toHaveLength(1);
      }
    });

    it("an agent cannot take a ticket of a queue they are not in (it is not visible to them)", async () => {
      const c2 = await connectWebchat(t, a, a.queueIds[1]);
      const { ticketId } = await inbound(t, a.tenantId, c2.id);
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent), 404, "ERR_TICKET_NOT_FOUND");
      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, sales)).status).toBe(200);
    });

    it("accepting into a queue of another tenant (or one that does not exist) is 404 and changes nothing", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open", queueId: b.queueIds[0] }, a.agent), 404, "ERR_QUEUE_NOT_FOUND");
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open", queueId: 99999999 }, a.agent), 404, "ERR_QUEUE_NOT_FOUND");
      expect(await getTicket(t, ticketId, a.admin)).toMatchObject({ status: "pending", userId: null, queueId: a.queueIds[0] });
      const ok = await t.api.put(`/tickets/${ticketId}`, { status: "open", queueId: a.queueIds[1] }, a.admin);
      expect(ok.body).toMatchObject({ status: "open", userId: a.admin.userId, queueId: a.queueIds[1] });
    });

    it("a supervisor cannot give a ticket to a user of another tenant by accepting it for them", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open", userId: b.agent.userId }, a.admin), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open", userId: 99999999 }, a.supervisor), 404, "ERR_USER_NOT_FOUND");
      expect(await getTicket(t, ticketId, a.admin)).toMatchObject({ status: "pending", userId: null });
      expect(await logTypes(t, ticketId, a.admin)).not.toContain("started");
    });

    it("a request without any change is refused", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      expectError(await t.api.put(`/tickets/${ticketId}`, {}, a.admin), 400, "ERR_NO_STATUS_SELECTED");
    });
  });

  describe("return to queue and resolve", () => {
    it("returning to the queue makes it pending with no user; only the holder (or a supervisor) may", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "pending" }, agent2), 403, "ERR_NO_PERMISSION");
      const r = await t.api.put(`/tickets/${ticketId}`, { status: "pending" }, a.agent);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "pending", userId: null, queueId: a.queueIds[0] });
      // Back in the queue: the other agent now can take it.
      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, agent2)).body).toMatchObject({ status: "open", userId: agent2.userId });
      expect(await logTypes(t, ticketId, a.admin)).toEqual(["created", "started", "pending", "started"]);
    });

    it("resolving sets closedAt; the contact's next message opens a new ticket and the old one stays closed", async () => {
      const first = await inbound(t, a.tenantId, conn.id, { body: "primeira conversa" });
      await t.api.put(`/tickets/${first.ticketId}`, { status: "open" }, a.agent);
      expectError(await t.api.put(`/tickets/${first.ticketId}`, { status: "closed" }, agent2), 403, "ERR_NO_PERMISSION");
      const before = Date.now();
      const r = await t.api.put(`/tickets/${first.ticketId}`, { status: "closed" }, a.agent);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe("closed");
      expect(r.body.closedAt).toEqual(expect.any(String));
      expect(new Date(r.body.closedAt).getTime()).toBeGreaterThan(before - 2000);

      const second = await inbound(t, a.tenantId, conn.id, { ext: first.ext, body: "voltei" });
      expect(second.ticketId).not.toBe(first.ticketId);
      const old = await getTicket(t, first.ticketId, a.admin);
      const fresh = await getTicket(t, second.ticketId, a.admin);
      expect(old).toMatchObject({ status: "closed", lastMessage: "primeira conversa" });
      expect(fresh).toMatchObject({ status: "pending", userId: null, contactId: old.contactId, lastMessage: "voltei", unreadMessages: 1 });
      // The old ticket's messages stay with it.
      const oldMsgs = (await t.api.get(`/messages/${first.ticketId}`, a.admin)).body.messages.map((m: { body: string }) => m.body);
      expect(oldMsgs).toEqual(["primeira conversa"]);
      // Resolved tickets are not in the default list, they are with status=closed.
      const def = (await t.api.get("/tickets?showAll=true&pageSize=100", a.admin)).body.tickets.map((x: TicketView) => x.id);
      expect(def).toContain(second.ticketId);
      expect(def).not.toContain(first.ticketId);
      const closed = (await t.api.get("/tickets?status=closed&showAll=true&pageSize=100", a.admin)).body.tickets.map((x: TicketView) => x.id);
      expect(closed).toContain(first.ticketId);
    });
  });

  describe("reopen", () => {
    afterEach(async () => {
      await t.api.put("/settings/noReopenMinutes", { value: 0 }, a.admin);
    });

    it("a resolved ticket can be reopened by the agent, who takes it", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);
      await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.agent);
      const r = await t.api.put(`/tickets/${ticketId}`, { status: "open" }, agent2);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "open", userId: agent2.userId, closedAt: null });
      expect(await logTypes(t, ticketId, a.admin)).toEqual(["created", "started", "closed", "reopened"]);
    });

    it("is blocked inside noReopenMinutes, and allowed once the window has passed", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);
      await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.agent);
      expect((await t.api.put("/settings/noReopenMinutes", { value: 5 }, a.admin)).status).toBe(200);
      const blocked = await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);
      expectError(blocked, 409, "ERR_TICKET_REOPEN_BLOCKED");
      expect(blocked.body.data.minutes).toBe(5);
      expect((await getTicket(t, ticketId, a.admin)).status).toBe("closed");
      // Closed 6 minutes ago: outside the window.
      await t.core.sequelize.query("UPDATE tickets SET closedAt = ? WHERE id = ?", { replacements: [new Date(Date.now() - 6 * 60_000), ticketId] });
      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent)).body.status).toBe("open");
    });

    it("is refused (409 + the other ticket's id) when the contact already has another active ticket on that connection", async () => {
      const first = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${first.ticketId}`, { status: "open" }, a.agent);
      await t.api.put(`/tickets/${first.ticketId}`, { status: "closed" }, a.agent);
      const second = await inbound(t, a.tenantId, conn.id, { ext: first.ext });
      expect(second.ticketId).not.toBe(first.ticketId);
      const r = await t.api.put(`/tickets/${first.ticketId}`, { status: "open" }, a.agent);
      expectError(r, 409, "ERR_CONTACT_OTHER_OPEN_TICKET");
      expect(r.body.data.ticketId).toBe(second.ticketId);
      expect((await getTicket(t, first.ticketId, a.admin)).status).toBe("closed");
      expect(await logTypes(t, first.ticketId, a.admin)).not.toContain("reopened");
    });
  });

  describe("transfer", () => {
    it("to a user, to a queue, to both; the same user or queue and no target are refused", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);

      expectError(await t.api.put(`/tickets/${ticketId}`, { userId: null }, a.agent), 400, "ERR_TRANSFER_TARGET_REQUIRED");
      expectError(await t.api.put(`/tickets/${ticketId}`, { userId: null, queueId: null }, a.agent), 400, "ERR_TRANSFER_TARGET_REQUIRED");
      expectError(await t.api.put(`/tickets/${ticketId}`, { userId: a.agent.userId }, a.agent), 409, "ERR_TICKET_ALREADY_ASSIGNED");
      expectError(await t.api.put(`/tickets/${ticketId}`, { queueId: a.queueIds[0] }, a.agent), 409, "ERR_TICKET_ALREADY_ASSIGNED");
      expectError(await t.api.put(`/tickets/${ticketId}`, { userId: a.agent.userId, queueId: a.queueIds[0] }, a.agent), 409, "ERR_TICKET_ALREADY_ASSIGNED");

      // To a user: the user changes, the queue stays.
      const toUser = await t.api.put(`/tickets/${ticketId}`, { userId: agent2.userId }, a.agent);
      expect(toUser.status).toBe(200);
      expect(toUser.body).toMatchObject({ userId: agent2.userId, queueId: a.queueIds[0] });

      // To both: user and queue.
      const both = await t.api.put(`/tickets/${ticketId}`, { userId: sales.userId, queueId: a.queueIds[1] }, agent2);
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ userId: sales.userId, queueId: a.queueIds[1] });
      // agent2 is not in queue 2: the ticket is gone for them.
      expectError(await t.api.get(`/tickets/${ticketId}`, agent2), 404, "ERR_TICKET_NOT_FOUND");

      // To a queue: back to its waiting list.
      const toQueue = await t.api.put(`/tickets/${ticketId}`, { queueId: a.queueIds[0] }, sales);
      expect(toQueue.status).toBe(200);
      expect(toQueue.body).toMatchObject({ userId: null, queueId: a.queueIds[0], status: "pending" });

      const logs = (await t.api.get(`/tickets/${ticketId}/logs`, a.admin)).body as Array<{ type: string; userId: number | null }>;
      expect(logs.filter((l) => l.type === "transfered").map((l) => l.userId)).toEqual([a.agent.userId, agent2.userId, sales.userId]);
      expect(logs.filter((l) => l.type === "receivedTransfer").map((l) => l.userId)).toEqual([agent2.userId, sales.userId]);
    });

    it("to a user or queue of another tenant is 404", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent);
      expectError(await t.api.put(`/tickets/${ticketId}`, { userId: b.agent.userId }, a.agent), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.put(`/tickets/${ticketId}`, { queueId: b.queueIds[0] }, a.agent), 404, "ERR_QUEUE_NOT_FOUND");
      expectError(await t.api.put(`/tickets/${ticketId}`, { userId: 99999999 }, a.agent), 404, "ERR_USER_NOT_FOUND");
      expect(await getTicket(t, ticketId, a.admin)).toMatchObject({ userId: a.agent.userId, queueId: a.queueIds[0] });
      expect(await logTypes(t, ticketId, a.admin)).not.toContain("transfered");
    });
  });

  describe("pin, delete, logs, notes", () => {
    let p: TenantFixture;
    let pc: { id: number };
    beforeAll(async () => {
      p = await createTenant(t, { tier: "PLUS" });
      pc = await connectWebchat(t, p, p.queueIds[0]);
    });

    it("a pinned ticket comes first in the list; unpinned it goes back to its place", async () => {
      const base = Date.now() - 100_000;
      const older = await inbound(t, p.tenantId, pc.id, { ts: base });
      const newer = await inbound(t, p.tenantId, pc.id, { ts: base + 1000 });
      const ids = async () => (await t.api.get("/tickets?status=pending", p.agent)).body.tickets.map((x: TicketView) => x.id);
      expect(await ids()).toEqual([newer.ticketId, older.ticketId]);
      const pin = await t.api.put(`/tickets/${older.ticketId}`, { pinned: true }, p.agent);
      expect(pin.status).toBe(200);
      expect(pin.body.pinned).toBe(true);
      expect(await ids()).toEqual([older.ticketId, newer.ticketId]);
      expect((await t.api.put(`/tickets/${older.ticketId}`, { pinned: false }, p.agent)).body.pinned).toBe(false);
      expect(await ids()).toEqual([newer.ticketId, older.ticketId]);
    });

    it("only an admin deletes a ticket, and its messages and notes go with it; its log stays for audit, ending in \"deleted\"", async () => {
      const { ticketId, ext } = await inbound(t, p.tenantId, pc.id, { body: "apagar" });
      await inbound(t, p.tenantId, pc.id, { ext, body: "apagar 2" });
      await t.api.post(`/tickets/${ticketId}/notes`, { body: "nota" }, p.agent);
      expectError(await t.api.del(`/tickets/${ticketId}`, p.agent), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/tickets/${ticketId}`, p.supervisor), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/tickets/${ticketId}`, b.admin), 404, "ERR_TICKET_NOT_FOUND");
      const d = await t.api.del(`/tickets/${ticketId}`, p.admin);
      expect(d.status).toBe(200);
      expect(d.body).toMatchObject({ id: ticketId, deleted: true });
      expectError(await t.api.get(`/tickets/${ticketId}`, p.admin), 404, "ERR_TICKET_NOT_FOUND");
      expectError(await t.api.get(`/messages/${ticketId}`, p.admin), 404, "ERR_TICKET_NOT_FOUND");
      for (const table of ["messages", "ticket_notes"]) {
        const [rows] = (await t.core.sequelize.query(`SELECT COUNT(*) AS n FROM ${table} WHERE ticketId = ?`, { replacements: [ticketId] })) as [Array<{ n: number }>, unknown];
        expect([table, Number(rows[0].n)]).toEqual([table, 0]);
      }
      const [logs] = (await t.core.sequelize.query("SELECT type, userId FROM ticket_logs WHERE tenantId = ? AND ticketId = ? ORDER BY id", { replacements: [p.tenantId, ticketId] })) as [Array<{ type: string; userId: number | null }>, unknown];
      expect(logs[0].type).toBe("created");
      expect(logs.at(-1)).toEqual({ type: "deleted", userId: p.admin.userId });
    });

    it("every action writes its log event", async () => {
      const { ticketId } = await inbound(t, p.tenantId, pc.id);
      const p2 = await addUser(t, p, "user", [p.queueIds[0]]);
      await t.api.get(`/tickets/${ticketId}`, p.agent); // accessed
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, p.agent); // started
      await t.api.put(`/tickets/${ticketId}`, { status: "pending" }, p.agent); // pending
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, p.agent); // started
      await t.api.put(`/tickets/${ticketId}`, { userId: p2.userId }, p.agent); // transfered + receivedTransfer
      await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, p2); // closed
      await t.api.put(`/tickets/${ticketId}`, { status: "open" }, p2); // reopened
      const r = await t.api.get(`/tickets/${ticketId}/logs`, p.admin);
      expect(r.status).toBe(200);
      const logs = r.body as Array<{ type: string; userId: number | null; createdAt: string }>;
      expect(logs.map((l) => l.type)).toEqual(["created", "accessed", "started", "pending", "started", "transfered", "receivedTransfer", "closed", "reopened"]);
      expect(logs.map((l) => l.userId)).toEqual([null, p.agent.userId, p.agent.userId, p.agent.userId, p.agent.userId, p.agent.userId, p2.userId, p2.userId, p2.userId]);
      expect(logs.every((l) => typeof l.createdAt === "string")).toBe(true);
      // Another tenant: 404.
      expectError(await t.api.get(`/tickets/${ticketId}/logs`, b.admin), 404, "ERR_TICKET_NOT_FOUND");
    });

    it("notes: added and listed on the ticket; another tenant's ticket is 404", async () => {
      const { ticketId } = await inbound(t, p.tenantId, pc.id);
      const n1 = await t.api.post(`/tickets/${ticketId}/notes`, { body: "  cliente VIP  " }, p.agent);
      expect(n1.status).toBe(201);
      expect(n1.body).toMatchObject({ ticketId, userId: p.agent.userId, body: "cliente VIP" });
      await t.api.post(`/tickets/${ticketId}/notes`, { body: "ligar amanhã" }, p.admin);
      const list = await t.api.get(`/tickets/${ticketId}/notes`, p.agent);
      expect(list.status).toBe(200);
      expect(list.body.map((n: { body: string; userId: number }) => [n.body, n.userId])).toEqual([
        ["cliente VIP", p.agent.userId],
        ["ligar amanhã", p.admin.userId],
      ]);
      expectError(await t.api.post(`/tickets/${ticketId}/notes`, { body: "" }, p.agent), 400, "ERR_VALIDATION");
      expectError(await t.api.post(`/tickets/${ticketId}/notes`, { body: "intruso" }, b.admin), 404, "ERR_TICKET_NOT_FOUND");
      expectError(await t.api.get(`/tickets/${ticketId}/notes`, b.admin), 404, "ERR_TICKET_NOT_FOUND");
      expect((await t.api.get(`/tickets/${ticketId}/notes`, p.admin)).body).toHaveLength(2);
    });
  });

  describe("protocol numbers", () => {
    let p: TenantFixture;
    let pc: { id: number };
    const tz = "Asia/Tokyo";
    const dateIn = (d: Date) => {
      const parts = new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(d);
      const g = (k: string) => parts.find((x) => x.type === k)!.value;
      return { y: g("year"), m: g("month"), d: g("day") };
    };
    beforeAll(async () => {
      p = await createTenant(t, { tier: "PLUS" });
      await t.core.sequelize.query("UPDATE tenants SET timezone = ? WHERE id = ?", { replacements: [tz, p.tenantId] });
      pc = await connectWebchat(t, p, p.queueIds[0]);
    });

    it("follows the default format: date (tenant's time zone) then id", async () => {
      const { ticketId } = await inbound(t, p.tenantId, pc.id);
      const tk = await getTicket(t, ticketId, p.admin);
      const d = dateIn(new Date(tk.createdAt));
      expect(tk.protocol).toBe(`${d.y}${d.m}${d.d}${ticketId}`);
    });

    it.each([
      [{ dateFormat: "YYYYMMDD", idPosition: "end", prefix: "AT-", suffix: "-Z", separator: "/" }, (id: number, d: { y: string; m: string; d: string }) => `AT-${d.y}${d.m}${d.d}/${id}-Z`],
      [{ dateFormat: "YYMMDD", idPosition: "start", prefix: "P", separator: "." }, (id: number, d: { y: string; m: string; d: string }) => `P${id}.${d.y.slice(2)}${d.m}${d.d}`],
      [{ dateFormat: "YYYYMM", idPosition: "end", separator: "-" }, (id: number, d: { y: string; m: string; d: string }) => `${d.y}${d.m}-${id}`],
      [{ dateFormat: "YYYY", idPosition: "start", suffix: "X" }, (id: number, d: { y: string; m: string; d: string }) => `${id}${d.y}X`],
      [{ dateFormat: "", idPosition: "end", prefix: "#", separator: "-" }, (id: number) => `#${id}`],
    ])("follows the protocol setting %j", async (format, expected) => {
      expect((await t.api.put("/settings/protocol", { value: format }, p.admin)).status).toBe(200);
      const { ticketId } = await inbound(t, p.tenantId, pc.id);
      const tk = await getTicket(t, ticketId, p.admin);
      expect(tk.protocol).toBe(expected(ticketId, dateIn(new Date(tk.createdAt))));
      // The list finds a ticket by its protocol.
      const found = await t.api.get(`/tickets?status=pending&searchParam=${encodeURIComponent(tk.protocol!)}`, p.admin);
      expect(found.body.tickets.map((x: TicketView) => x.id)).toContain(ticketId);
    });

    it("an invalid protocol setting is refused", async () => {
      expectError(await t.api.put("/settings/protocol", { value: { dateFormat: "DDMMYYYY", idPosition: "end" } }, p.admin), 400, "ERR_VALIDATION");
      expectError(await t.api.put("/settings/protocol", { value: { dateFormat: "YYYY", idPosition: "end", prefix: "much-too-long-prefix" } }, p.admin), 400, "ERR_VALIDATION");
      expectError(await t.api.put("/settings/protocol", { value: { dateFormat: "YYYY", idPosition: "end" } }, p.agent), 403, "ERR_NO_PERMISSION");
    });
  });

  describe("mass transfer and mass resolve", () => {
    it("are admin actions: agents and supervisors get 403", async () => {
      const { ticketId } = await inbound(t, a.tenantId, conn.id);
      for (const who of [a.agent, a.supervisor]) {
        expectError(await t.api.post("/tickets/mass-transfer", { ticketIds: [ticketId], userId: a.agent.userId }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.post("/tickets/mass-resolve", { ticketIds: [ticketId] }, who), 403, "ERR_NO_PERMISSION");
      }
      expect((await getTicket(t, ticketId, a.admin)).status).toBe("pending");
    });

    it("an admin transfers several tickets at once; one already with the target is reported, the others move", async () => {
      const t1 = await inbound(t, a.tenantId, conn.id);
      const t2 = await inbound(t, a.tenantId, conn.id);
      const t3 = await inbound(t, a.tenantId, conn.id);
      await t.api.put(`/tickets/${t3.ticketId}`, { status: "open" }, agent2);
      const r = await t.api.post("/tickets/mass-transfer", { ticketIds: [t1.ticketId, t2.ticketId, t3.ticketId], userId: agent2.userId }, a.admin);
      expect(r.status).toBe(200);
      expect(r.body.transferred).toBe(2);
      expect(r.body.results).toEqual(
        expect.arrayContaining([
          { id: t1.ticketId, ok: true },
          { id: t2.ticketId, ok: true },
          { id: t3.ticketId, ok: false, error: "ERR_TICKET_ALREADY_ASSIGNED" },
        ]),
      );
      for (const id of [t1.ticketId, t2.ticketId]) expect((await getTicket(t, id, a.admin)).userId).toBe(agent2.userId);
      const toQueue = await t.api.post("/tickets/mass-transfer", { ticketIds: [t1.ticketId, t2.ticketId], queueId: a.queueIds[1] }, a.admin);
      expect(toQueue.body.transferred).toBe(2);
      for (const id of [t1.ticketId, t2.ticketId]) expect(await getTicket(t, id, a.admin)).toMatchObject({ queueId: a.queueIds[1], userId: null, status: "pending" });
      expectError(await t.api.post("/tickets/mass-transfer", { ticketIds: [t1.ticketId] }, a.admin), 400, "ERR_TRANSFER_TARGET_REQUIRED");
    });

    it("an admin resolves several tickets at once; another tenant's id makes it 404 and changes nothing", async () => {
      const t1 = await inbound(t, a.tenantId, conn.id);
      const t2 = await inbound(t, a.tenantId, conn.id);
      const foreignConn = await connectWebchat(t, b);
      const foreign = await inbound(t, b.tenantId, foreignConn.id);
      expectError(await t.api.post("/tickets/mass-resolve", { ticketIds: [t1.ticketId, foreign.ticketId] }, a.admin), 404, "ERR_TICKET_NOT_FOUND");
      expect((await getTicket(t, t1.ticketId, a.admin)).status).toBe("pending");
      expect((await getTicket(t, foreign.ticketId, b.admin)).status).toBe("pending");
      const r = await t.api.post("/tickets/mass-resolve", { ticketIds: [t1.ticketId, t2.ticketId] }, a.admin);
      expect(r.status).toBe(200);
      expect(r.body.resolved).toBe(2);
      for (const id of [t1.ticketId, t2.ticketId]) {
        const tk = await getTicket(t, id, a.admin);
        expect(tk.status).toBe("closed");
        expect(tk.closedAt).toEqual(expect.any(String));
        expect(await logTypes(t, id, a.admin)).toContain("closed");
      }
      // Resolving again counts nothing new.
      expect((await t.api.post("/tickets/mass-resolve", { ticketIds: [t1.ticketId] }, a.admin)).body.resolved).toBe(0);
      // The contact's next message opens a new ticket.
      expect((await inbound(t, a.tenantId, conn.id, { ext: t1.ext })).ticketId).not.toBe(t1.ticketId);
    });
  });

  describe("unread messages", () => {
    let u: TenantFixture;
    let uc: { id: number };
    beforeAll(async () => {
      u = await createTenant(t, { tier: "PLUS" });
      uc = await connectWebchat(t, u, u.queueIds[0]);
    });

    it("GET /tickets/unread-count counts the tickets with unread messages per status", async () => {
      expect((await t.api.get("/tickets/unread-count", u.agent)).body).toMatchObject({ open: 0, pending: 0 });
      const otherBefore = (await t.api.get("/tickets/unread-count", b.admin)).body;
      const x = await inbound(t, u.tenantId, uc.id);
      await inbound(t, u.tenantId, uc.id, { ext: x.ext });
      const y = await inbound(t, u.tenantId, uc.id);
      await inbound(t, u.tenantId, uc.id); // a third, pending
      expect((await getTicket(t, x.ticketId, u.admin)).unreadMessages).toBe(2);
      expect((await t.api.get("/tickets/unread-count", u.agent)).body).toMatchObject({ open: 0, pending: 3 });
      // y accepted (accepting reads it), then the customer writes again: open and unread.
      await t.api.put(`/tickets/${y.ticketId}`, { status: "open" }, u.agent);
      expect((await t.api.get("/tickets/unread-count", u.agent)).body).toMatchObject({ open: 0, pending: 2 });
      await inbound(t, u.tenantId, uc.id, { ext: y.ext });
      const r = await t.api.get("/tickets/unread-count", u.agent);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ open: 1, pending: 2 });
      // Another tenant counts nothing of these.
      expect((await t.api.get("/tickets/unread-count", b.admin)).body).toEqual(otherBefore);
    });

    it("unreadMessages is reset when the assigned agent opens the messages, not when someone else looks", async () => {
      const x = await inbound(t, u.tenantId, uc.id);
      await t.api.put(`/tickets/${x.ticketId}`, { status: "open" }, u.agent);
      await inbound(t, u.tenantId, uc.id, { ext: x.ext });
      await inbound(t, u.tenantId, uc.id, { ext: x.ext });
      expect((await getTicket(t, x.ticketId, u.agent)).unreadMessages).toBe(2);
      // The admin and the supervisor read the conversation: still unread for its agent.
      expect((await t.api.get(`/messages/${x.ticketId}`, u.admin)).status).toBe(200);
      expect((await t.api.get(`/messages/${x.ticketId}`, u.supervisor)).status).toBe(200);
      expect((await getTicket(t, x.ticketId, u.agent)).unreadMessages).toBe(2);
      const unreadIds = (await t.api.get("/tickets?status=open&withUnreadMessages=true", u.agent)).body.tickets.map((tk: TicketView) => tk.id);
      expect(unreadIds).toContain(x.ticketId);
      // The agent opens it.
      const msgs = await t.api.get(`/messages/${x.ticketId}`, u.agent);
      expect(msgs.status).toBe(200);
      expect((await getTicket(t, x.ticketId, u.agent)).unreadMessages).toBe(0);
      expect((await t.api.get("/tickets?status=open&withUnreadMessages=true", u.agent)).body.tickets.map((tk: TicketView) => tk.id)).not.toContain(x.ticketId);
      const after = await t.api.get(`/messages/${x.ticketId}`, u.agent);
      expect(after.body.messages.filter((m: { fromMe: boolean }) => !m.fromMe).every((m: { read: boolean }) => m.read)).toBe(true);
    });
  });

  describe("POST /tickets", () => {
    it("opens a ticket for an existing contact (201); a second one for the same contact and connection is 409 with its id", async () => {
      const c = await t.api.post("/contacts", { name: `Maria ${uid()}`, number: "5511987650001" }, a.admin);
      expect(c.status).toBe(201);
      const r = await t.api.post("/tickets", { contactId: c.body.id, connectionId: conn.id }, a.agent);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ contactId: c.body.id, connectionId: conn.id, status: "open", userId: a.agent.userId });
      expect(r.body.protocol).toEqual(expect.any(String));
      expect(await logTypes(t, r.body.id, a.admin)).toEqual(["created", "started"]);
      const again = await t.api.post("/tickets", { contactId: c.body.id, connectionId: conn.id }, a.admin);
      expectError(again, 409, "ERR_CONTACT_OTHER_OPEN_TICKET");
      expect(again.body.data.ticketId).toBe(r.body.id);
      // Without a connection: the default one, which holds the same slot.
      const def = await t.api.post("/tickets", { contactId: c.body.id }, a.admin);
      const defaultConn = (await t.core.broker.call("connections.defaultFor", { tenantId: a.tenantId })) as { id: number };
      if (defaultConn.id === conn.id) {
        expectError(def, 409, "ERR_CONTACT_OTHER_OPEN_TICKET");
      } else {
        expect(def.status).toBe(201);
        expect(def.body.connectionId).toBe(defaultConn.id);
      }
      // A pending one, created for the queue.
      const c2 = await t.api.post("/contacts", { name: `João ${uid()}`, number: "5511987650002" }, a.admin);
      const pend = await t.api.post("/tickets", { contactId: c2.body.id, connectionId: conn.id, status: "pending", queueId: a.queueIds[0] }, a.agent);
      expect(pend.status).toBe(201);
      expect(pend.body).toMatchObject({ status: "pending", userId: null, queueId: a.queueIds[0] });
    });

    it("refuses another tenant's contact, connection or queue, and a tenant without any connection", async () => {
      const c = await t.api.post("/contacts", { name: `Ana ${uid()}`, number: "5511987650003" }, a.admin);
      const foreignContact = await t.api.post("/contacts", { name: `Bia ${uid()}`, number: "5511987650004" }, b.admin);
      const foreignConn = await connectWebchat(t, b);
      expectError(await t.api.post("/tickets", { contactId: foreignContact.body.id, connectionId: conn.id }, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.post("/tickets", { contactId: c.body.id, connectionId: foreignConn.id }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
      expectError(await t.api.post("/tickets", { contactId: c.body.id, connectionId: conn.id, queueId: b.queueIds[0] }, a.admin), 404, "ERR_QUEUE_NOT_FOUND");

      const empty = await createTenant(t, { tier: "PLUS" });
      const ec = await t.api.post("/contacts", { name: `Caio ${uid()}`, number: "5511987650005" }, empty.admin);
      expectError(await t.api.post("/tickets", { contactId: ec.body.id }, empty.admin), 409, "ERR_NO_DEFAULT_CONNECTION");
    });
  });
});

describe("the ticket list (MariaDB)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  let c1: { id: number }; // queue 1 (Suporte)
  let c2: { id: number }; // queue 2 (Vendas)
  let c0: { id: number }; // no queue
  let agent2: Auth;
  const T: Record<string, { ticketId: number; ext: string }> = {};
  const base = Date.now() - 10 * 60_000;

  const list = async (who: Auth, query = "") => {
    const r = await t.api.get(`/tickets?pageSize=100${query}`, who);
    expect(r.status).toBe(200);
    return r.body as { tickets: TicketView[]; hasMore: boolean; pageNumber: number };
  };
  const ids = async (who: Auth, query = "") => (await list(who, query)).tickets.map((x) => x.id);
  const setSetting = async (key: string, value: unknown) => expect((await t.api.put(`/settings/${key}`, { value }, f.admin)).status).toBe(200);

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
    c1 = await connectWebchat(t, f, f.queueIds[0]);
    c2 = await connectWebchat(t, f, f.queueIds[1]);
    c0 = await connectWebchat(t, f);
    agent2 = await addUser(t, f, "user", [f.queueIds[0]]);
    // q1 pending (unassigned), q1 open by agent, q1 open by agent2, q2 pending, q2 open by admin,
    // no-queue pending, no-queue open by agent2, q1 closed.
    T.q1Pending = await inbound(t, f.tenantId, c1.id, { name: "Roberta Lima", ts: base + 1000 });
    T.q1Mine = await inbound(t, f.tenantId, c1.id, { ts: base + 2000 });
    T.q1Other = await inbound(t, f.tenantId, c1.id, { ts: base + 3000 });
    T.q2Pending = await inbound(t, f.tenantId, c2.id, { name: "Vendas Cliente", ts: base + 4000 });
    T.q2Admin = await inbound(t, f.tenantId, c2.id, { ts: base + 5000 });
    T.noQueue = await inbound(t, f.tenantId, c0.id, { ts: base + 6000 });
    T.noQueueOther = await inbound(t, f.tenantId, c0.id, { ts: base + 7000 });
    T.q1Closed = await inbound(t, f.tenantId, c1.id, { ts: base + 8000 });
    const put = async (id: number, body: unknown, who: Auth) => expect((await t.api.put(`/tickets/${id}`, body, who)).status).toBe(200);
    await put(T.q1Mine.ticketId, { status: "open" }, f.agent);
    await put(T.q1Other.ticketId, { status: "open" }, agent2);
    await put(T.q2Admin.ticketId, { status: "open" }, f.admin);
    await put(T.noQueueOther.ticketId, { status: "open" }, agent2);
    await put(T.q1Closed.ticketId, { status: "open" }, f.agent);
    await put(T.q1Closed.ticketId, { status: "closed" }, f.agent);
    // Tenant B has tickets too; none of them ever shows up.
    const oc = await connectWebchat(t, other);
    await inbound(t, other.tenantId, oc.id, { name: "Roberta Lima" });
  });
  afterAll(async () => {
    await t?.stop();
  });
  afterEach(async () => {
    await t.api.put("/settings/ticketsOwnerOnly", { value: false }, f.admin);
    await t.api.put("/settings/botAndUnassignedAdminOnly", { value: false }, f.admin);
  });

  it("an agent sees their own tickets, their queues' tickets and unassigned ones without a queue — never another queue's", async () => {
    const seen = await ids(f.agent, "&status=open,pending");
    expect(seen.sort()).toEqual([T.q1Pending, T.q1Mine, T.q1Other, T.noQueue].map((x) => x.ticketId).sort());
    // showAll does not widen an agent's list.
    expect((await ids(f.agent, "&status=open,pending&showAll=true")).sort()).toEqual(seen.sort());
    // Nor can they open another queue's ticket directly.
    expectError(await t.api.get(`/tickets/${T.q2Pending.ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await t.api.get(`/tickets/${T.noQueueOther.ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    // The default status filter is open + pending.
    expect((await ids(f.agent)).sort()).toEqual(seen.sort());
  });

  it("showAll widens the list for admins and supervisors only", async () => {
    const all = [T.q1Pending, T.q1Mine, T.q1Other, T.q2Pending, T.q2Admin, T.noQueue, T.noQueueOther].map((x) => x.ticketId).sort();
    expect((await ids(f.admin, "&showAll=true")).sort()).toEqual(all);
    expect((await ids(f.supervisor, "&showAll=true")).sort()).toEqual(all);
    // Without showAll the supervisor (queue 1 only) sees their queues' tickets and the queueless ones.
    const sup = await ids(f.supervisor);
    expect(sup).toEqual(expect.arrayContaining([T.q1Pending, T.q1Mine, T.q1Other, T.noQueue].map((x) => x.ticketId)));
    expect(sup).not.toContain(T.q2Pending.ticketId);
  });

  it("filters by status (csv)", async () => {
    expect(await ids(f.admin, "&showAll=true&status=closed")).toEqual([T.q1Closed.ticketId]);
    expect((await ids(f.admin, "&showAll=true&status=closed,pending")).sort()).toEqual([T.q1Closed, T.q1Pending, T.q2Pending, T.noQueue].map((x) => x.ticketId).sort());
    const open = await list(f.admin, "&showAll=true&status=open");
    expect(open.tickets.every((x) => x.status === "open")).toBe(true);
    expect(open.tickets).toHaveLength(4);
    expectError(await t.api.get("/tickets?status=open,bogus", f.admin), 400, "ERR_VALIDATION");
  });

  it("filters by queuesIds, with or without the tickets that have no queue", async () => {
    const q2 = await ids(f.admin, `&showAll=true&queuesIds=${f.queueIds[1]}&includeNotQueueDefined=false`);
    expect(q2.sort()).toEqual([T.q2Pending, T.q2Admin].map((x) => x.ticketId).sort());
    const q2AndNone = await ids(f.admin, `&showAll=true&queuesIds=${f.queueIds[1]}`);
    expect(q2AndNone.sort()).toEqual([T.q2Pending, T.q2Admin, T.noQueue, T.noQueueOther].map((x) => x.ticketId).sort());
    const both = await ids(f.admin, `&showAll=true&queuesIds=${f.queueIds[0]},${f.queueIds[1]}&includeNotQueueDefined=false`);
    expect(both.sort()).toEqual([T.q1Pending, T.q1Mine, T.q1Other, T.q2Pending, T.q2Admin].map((x) => x.ticketId).sort());
    // An agent asking for a queue they are not in gets nothing of it.
    const agentQ2 = await ids(f.agent, `&queuesIds=${f.queueIds[1]}&includeNotQueueDefined=false`);
    expect(agentQ2.filter((id) => [T.q2Pending.ticketId, T.q2Admin.ticketId].includes(id))).toEqual([]);
    // Without the queueless ones, the agent's list loses them.
    expect(await ids(f.agent, "&includeNotQueueDefined=false")).not.toContain(T.noQueue.ticketId);
    expectError(await t.api.get("/tickets?queuesIds=abc", f.admin), 400, "ERR_VALIDATION");
  });

  it("the queue filters also narrow the caller's own tickets (queuesIds, includeNotQueueDefined=false)", async () => {
    // The agent holds a ticket in queue 2 by transfer, and agent2 holds a queueless one (T.noQueueOther).
    const x = await inbound(t, f.tenantId, c2.id, { ts: base + 500 });
    await t.api.put(`/tickets/${x.ticketId}`, { status: "open" }, f.admin);
    await t.api.put(`/tickets/${x.ticketId}`, { userId: f.agent.userId }, f.admin);
    try {
      expect(await ids(f.agent)).toContain(x.ticketId);
      const onlyQ1 = await list(f.agent, `&queuesIds=${f.queueIds[0]}&includeNotQueueDefined=false`);
      expect(onlyQ1.tickets.map((tk) => tk.queueId).filter((q) => q !== f.queueIds[0])).toEqual([]);
      const noQueueless = await list(agent2, "&includeNotQueueDefined=false");
      expect(noQueueless.tickets.map((tk) => tk.id)).not.toContain(T.noQueueOther.ticketId);
    } finally {
      await t.api.put(`/tickets/${x.ticketId}`, { status: "closed" }, f.admin);
    }
  });

  it("includeNotQueueDefined=false with showAll leaves out the tickets without a queue", async () => {
    const r = await ids(f.admin, "&showAll=true&includeNotQueueDefined=false");
    expect(r).not.toContain(T.noQueue.ticketId);
    expect(r).not.toContain(T.noQueueOther.ticketId);
  });

  it("searchParam finds by contact name, number and protocol; shorter than 2 letters is refused", async () => {
    expect(await ids(f.admin, `&showAll=true&searchParam=${encodeURIComponent("roberta")}`)).toEqual([T.q1Pending.ticketId]);
    expect(await ids(f.admin, `&showAll=true&searchParam=${encodeURIComponent("Vendas Cli")}`)).toEqual([T.q2Pending.ticketId]);
    const c = await t.api.post("/contacts", { name: `Numero ${uid()}`, number: "5521976543210" }, f.admin);
    const tk = await t.api.post("/tickets", { contactId: c.body.id, connectionId: c1.id, status: "pending", queueId: f.queueIds[0] }, f.admin);
    expect(tk.status).toBe(201);
    expect(await ids(f.admin, "&showAll=true&searchParam=976543210")).toEqual([tk.body.id]);
    const protocol = (await getTicket(t, T.q2Admin.ticketId, f.admin)).protocol!;
    expect(await ids(f.admin, `&showAll=true&searchParam=${protocol}`)).toEqual([T.q2Admin.ticketId]);
    // The agent's search stays inside what they may see.
    expect(await ids(f.agent, `&searchParam=${encodeURIComponent("Vendas Cli")}`)).toEqual([]);
    expect(await ids(f.admin, "&showAll=true&searchParam=zzzznotfound")).toEqual([]);
    expectError(await t.api.get("/tickets?searchParam=a", f.admin), 400, "ERR_SEARCH_TOO_SHORT");
    expectError(await t.api.get(`/tickets?searchParam=${encodeURIComponent(" b ")}`, f.admin), 400, "ERR_SEARCH_TOO_SHORT");
    await t.api.put(`/tickets/${tk.body.id}`, { status: "open" }, f.admin);
    await t.api.put(`/tickets/${tk.body.id}`, { status: "closed" }, f.admin);
  });

  it("withUnreadMessages and isNotAssignedUser narrow the list", async () => {
    // Accepting reads a ticket; a new customer message makes it unread again.
    await inbound(t, f.tenantId, c1.id, { ext: T.q1Mine.ext, ts: base + 9000 });
    const unread = await ids(f.admin, "&showAll=true&withUnreadMessages=true");
    expect(unread.sort()).toEqual([T.q1Pending, T.q1Mine, T.q2Pending, T.noQueue].map((x) => x.ticketId).sort());
    const notAssigned = await ids(f.admin, "&showAll=true&isNotAssignedUser=true");
    expect(notAssigned.sort()).toEqual([T.q1Pending, T.q2Pending, T.noQueue].map((x) => x.ticketId).sort());
    const agentNotAssigned = await ids(f.agent, "&isNotAssignedUser=true");
    expect(agentNotAssigned.sort()).toEqual([T.q1Pending, T.noQueue].map((x) => x.ticketId).sort());
    // Read again by its agent.
    await t.api.get(`/messages/${T.q1Mine.ticketId}`, f.agent);
  });

  it("orders pinned first, then unread, then newest activity", async () => {
    const o = await createTenant(t, { tier: "PLUS" });
    const oc = await connectWebchat(t, o, o.queueIds[0]);
    const b0 = Date.now() - 60_000;
    const r1 = await inbound(t, o.tenantId, oc.id, { ts: b0 + 1000 });
    const r2 = await inbound(t, o.tenantId, oc.id, { ts: b0 + 2000 });
    const r3 = await inbound(t, o.tenantId, oc.id, { ts: b0 + 3000 });
    const r4 = await inbound(t, o.tenantId, oc.id, { ts: b0 + 4000 });
    // r2 and r4 read (accepted), r1 pinned, r3 unread.
    await t.api.put(`/tickets/${r2.ticketId}`, { status: "open" }, o.agent);
    await t.api.put(`/tickets/${r4.ticketId}`, { status: "open" }, o.agent);
    await t.api.put(`/tickets/${r1.ticketId}`, { pinned: true }, o.agent);
    const order = (await t.api.get("/tickets?status=open,pending", o.agent)).body.tickets.map((x: TicketView) => x.id);
    expect(order).toEqual([r1.ticketId, r3.ticketId, r4.ticketId, r2.ticketId]);
    // An answer from the agent makes r2 the newest among the read ones.
    await t.api.post(`/messages/${r2.ticketId}`, { body: "resposta" }, o.agent);
    const order2 = (await t.api.get("/tickets?status=open,pending", o.agent)).body.tickets.map((x: TicketView) => x.id);
    expect(order2).toEqual([r1.ticketId, r3.ticketId, r2.ticketId, r4.ticketId]);
  });

  it("pages have no duplicates or gaps, and hasMore tells when there is more", async () => {
    const o = await createTenant(t, { tier: "PLUS" });
    const oc = await connectWebchat(t, o, o.queueIds[0]);
    const ocNone = await connectWebchat(t, o);
    const made: number[] = [];
    const b0 = Date.now() - 60_000;
    for (let i = 0; i < 23; i++) {
      // Same activity time for some, to exercise the id tie-break; some without a queue.
      made.push((await inbound(t, o.tenantId, i % 3 === 0 ? ocNone.id : oc.id, { ts: b0 + Math.floor(i / 2) * 1000 })).ticketId);
    }
    // Some accepted by the agent (read, open, in two branches: theirs and their queue's).
    for (const id of made.slice(0, 8)) await t.api.put(`/tickets/${id}`, { status: "open" }, o.agent);
    for (const who of [o.agent, o.admin]) {
      const full = (await t.api.get("/tickets?status=open,pending&pageSize=100&showAll=true", who)).body.tickets.map((x: TicketView) => x.id);
      expect(full.sort()).toEqual([...made].sort());
      const seen: number[] = [];
      for (let page = 1; ; page++) {
        const r = await t.api.get(`/tickets?status=open,pending&pageSize=5&pageNumber=${page}&showAll=true`, who);
        expect(r.status).toBe(200);
        expect(r.body.pageNumber).toBe(page);
        seen.push(...r.body.tickets.map((x: TicketView) => x.id));
        if (!r.body.hasMore) {
          expect(page).toBe(5);
          break;
        }
        expect(r.body.tickets).toHaveLength(5);
      }
      const ordered = (await t.api.get("/tickets?status=open,pending&pageSize=100&showAll=true", who)).body.tickets.map((x: TicketView) => x.id);
      expect(seen).toEqual(ordered);
      expect(new Set(seen).size).toBe(23);
    }
    const past = await t.api.get("/tickets?pageSize=5&pageNumber=9", o.admin);
    expect(past.body).toMatchObject({ tickets: [], hasMore: false });
  });

  it("ticketsOwnerOnly: tickets assigned to others are hidden from non-admins", async () => {
    await setSetting("ticketsOwnerOnly", true);
    const seen = await ids(f.agent);
    expect(seen).toEqual(expect.arrayContaining([T.q1Pending, T.q1Mine, T.noQueue].map((x) => x.ticketId)));
    expect(seen).not.toContain(T.q1Other.ticketId);
    expectError(await t.api.get(`/tickets/${T.q1Other.ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await t.api.get(`/messages/${T.q1Other.ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    // The owner and the admin still see it.
    expect(await ids(agent2)).toContain(T.q1Other.ticketId);
    expect(await ids(f.admin, "&showAll=true")).toContain(T.q1Other.ticketId);
    expect(await ids(f.admin)).toContain(T.q1Other.ticketId);
    expect((await t.api.get(`/tickets/${T.q1Other.ticketId}`, f.admin)).status).toBe(200);
    await setSetting("ticketsOwnerOnly", false);
    expect(await ids(f.agent)).toContain(T.q1Other.ticketId);
  });

  it("botAndUnassignedAdminOnly: chatbot tickets and tickets with no user or queue are for admins only", async () => {
    const bot = await inbound(t, f.tenantId, c1.id, { ts: base + 100 });
    await t.core.sequelize.query("UPDATE tickets SET status = 'chatbot' WHERE id = ?", { replacements: [bot.ticketId] });
    const q = "&status=open,pending,chatbot";
    expect(await ids(f.agent, q)).toEqual(expect.arrayContaining([bot.ticketId, T.noQueue.ticketId]));
    await setSetting("botAndUnassignedAdminOnly", true);
    const seen = await ids(f.agent, q);
    expect(seen).not.toContain(bot.ticketId);
    expect(seen).not.toContain(T.noQueue.ticketId);
    expect(seen).toEqual(expect.arrayContaining([T.q1Pending, T.q1Mine, T.q1Other].map((x) => x.ticketId)));
    expectError(await t.api.get(`/tickets/${bot.ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await t.api.get(`/tickets/${T.noQueue.ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    const admin = await ids(f.admin, `${q}&showAll=true`);
    expect(admin).toEqual(expect.arrayContaining([bot.ticketId, T.noQueue.ticketId]));
    expect((await ids(f.admin, q))).toEqual(expect.arrayContaining([bot.ticketId, T.noQueue.ticketId]));
    await setSetting("botAndUnassignedAdminOnly", false);
    await t.core.sequelize.query("UPDATE tickets SET status = 'closed', activeKey = NULL WHERE id = ?", { replacements: [bot.ticketId] });
  });

  it("hideContactInfo: non-admins get tickets without the contact's number and cannot search by it", async () => {
    const c = await t.api.post("/contacts", { name: `Oculto ${uid()}`, number: "5531988887777" }, f.admin);
    const tk = await t.api.post("/tickets", { contactId: c.body.id, connectionId: c1.id, status: "pending", queueId: f.queueIds[0] }, f.admin);
    expect(tk.status).toBe(201);
    const contactOf = async (who: Auth, query = "") => (await list(who, query)).tickets.find((x) => x.id === tk.body.id)?.contact;
    try {
      expect((await contactOf(f.agent))!.number).toBe("5531988887777");
      await setSetting("hideContactInfo", true);
      expect(await contactOf(f.agent)).toMatchObject({ name: c.body.name, number: null });
      expect(await contactOf(f.supervisor)).toMatchObject({ number: null });
      expect(((await t.api.get(`/tickets/${tk.body.id}`, f.agent)).body as TicketView).contact).toMatchObject({ name: c.body.name, number: null });
      expect((await list(f.agent)).tickets.every((x) => x.contact?.number === null)).toBe(true);
      // The number is no search key for them (it would tell it), the name still is.
      expect(await ids(f.agent, "&searchParam=988887777")).toEqual([]);
      expect(await ids(f.agent, `&searchParam=${encodeURIComponent(c.body.name.toUpperCase())}`)).toEqual([tk.body.id]);
      // The admin still sees and finds it.
      expect((await contactOf(f.admin))!.number).toBe("5531988887777");
      expect(await ids(f.admin, "&showAll=true&searchParam=988887777")).toEqual([tk.body.id]);
      expect(((await t.api.get(`/tickets/${tk.body.id}`, f.admin)).body as TicketView).contact!.number).toBe("5531988887777");
    } finally {
      await setSetting("hideContactInfo", false);
      await t.api.put(`/tickets/${tk.body.id}`, { status: "open" }, f.admin);
      await t.api.put(`/tickets/${tk.body.id}`, { status: "closed" }, f.admin);
    }
  });

  it("the visibility settings are the admin's: an agent cannot change them", async () => {
    expectError(await t.api.put("/settings/ticketsOwnerOnly", { value: true }, f.agent), 403, "ERR_NO_PERMISSION");
    expectError(await t.api.put("/settings/botAndUnassignedAdminOnly", { value: "yes" }, f.admin), 400, "ERR_VALIDATION");
  });

  it("another tenant's tickets never appear, whatever the filters", async () => {
    const mine = new Set((await ids(f.admin, "&showAll=true&status=open,pending,closed,chatbot,group")));
    const theirs = await ids(other.admin, "&showAll=true&status=open,pending,closed");
    expect(theirs).toHaveLength(1);
    expect(mine.has(theirs[0])).toBe(false);
    expect(await ids(other.admin, `&showAll=true&searchParam=${encodeURIComponent("Roberta")}`)).toEqual(theirs);
  });
});
