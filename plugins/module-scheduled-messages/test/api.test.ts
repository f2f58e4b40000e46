/**
 * The scheduled-messages routes against a real core (MariaDB, Redis): the bundled FREE module
 * is loaded by the host (its own database migrated) and usable by every tenant; what a message
 * must carry answers the manifest's ERR_SCHEDULE_* codes, translated; another tenant's message,
 * contact, user, connection or ticket answers 404; only pending messages are edited or
 * cancelled; the list filters by status, contact, connection, user, ticket and date range.
 */
import { io as ioClient } from "socket.io-client";
import { ahead, Clock, expectError, MIN, ok, pluginSql, scheduledCore, shop, waitFor, type Shop, type TestCore } from "./kit";

jest.setTimeout(180_000);

const clock = new Clock(Date.now());
let t: TestCore;
let a: Shop;
let b: Shop;

beforeAll(async () => {
  t = await scheduledCore(clock);
  [a, b] = await Promise.all([shop(t, 2), shop(t, 1)]);
  await waitFor("GET /scheduled-messages", () => t.api.get("/scheduled-messages", a.admin), (r) => r.status === 200);
});
afterAll(async () => {
  await t?.stop();
});

const base = () => ({ body: "Lembrete: sua consulta é amanhã", scheduleDate: new Date(ahead(clock, 60 * MIN)).toISOString(), contactId: a.contacts[0], connectionId: a.conn, userId: a.agent.userId });

describe("scheduled messages routes (MariaDB)", () => {
  it("has its own database, migrated by the host", async () => {
    expect(((await pluginSql(t, "SELECT name FROM _migrations")) as Array<{ name: string }>).map((r) => r.name)).toEqual(["0001-scheduled-messages"]);
  });

  it("creates a message, answered with its names and dates, and pushes scheduled.changed to the tenant only", async () => {
    const events: string[] = [];
    const sockets = [a.supervisor, b.admin].map((who, i) => {
      const s = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false, forceNew: true });
      s.onAny((event) => events.push(`${i === 0 ? "a" : "b"}:${event}`));
      return s;
    });
    await Promise.all(sockets.map((s) => new Promise((r) => s.on("ready", r))));
    try {
      const m = await ok(t.api.post("/scheduled-messages", base(), a.agent), 201);
      expect(m).toMatchObject({ status: "pending", type: "single", recurrence: null, contactId: a.contacts[0], connectionId: a.conn, userId: a.agent.userId, sentCount: 0, lastSentAt: null, errorMessage: null, createdBy: a.agent.userId, ticketId: null });
      expect(m.contactName).toMatch(/^Cliente 1/);
      expect(m.nextDate).toBe(m.scheduleDate);
      expect(await ok(t.api.get(`/scheduled-messages/one?id=${m.id}`, a.admin))).toEqual(m);
      await waitFor("the push", async () => events, (e) => e.includes("a:plugin:module-scheduled-messages:scheduled.changed"));
      expect(events.filter((e) => e.startsWith("b:plugin:"))).toEqual([]);
    } finally {
      for (const s of sockets) s.close();
    }
  });

  it("refuses what a message lacks with its own codes, translated, and stores nothing", async () => {
    const before = (await ok(t.api.get("/scheduled-messages", a.admin))).count;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ body: "   " }, "ERR_SCHEDULE_BODY_REQUIRED", "body"],
      [{ contactId: undefined }, "ERR_SCHEDULE_CONTACT_REQUIRED", "contactId"],
      [{ connectionId: undefined }, "ERR_SCHEDULE_CONNECTION_REQUIRED", "connectionId"],
      [{ userId: undefined }, "ERR_SCHEDULE_USER_REQUIRED", "userId"],
      [{ scheduleDate: undefined }, "ERR_SCHEDULE_DATE_REQUIRED", "scheduleDate"],
      [{ scheduleDate: "não é data" }, "ERR_SCHEDULE_DATE_REQUIRED", "scheduleDate"],
      [{ scheduleDate: new Date(Date.now() - MIN).toISOString() }, "ERR_SCHEDULE_DATE_PAST", "scheduleDate"],
      [{ type: "recurrent" }, "ERR_SCHEDULE_RECURRENCE_INVALID", "recurrence"],
      [{ type: "recurrent", recurrence: "custom", recurrentUntil: new Date(ahead(clock, 30 * 86_400_000)).toISOString() }, "ERR_SCHEDULE_CUSTOM_DAYS_REQUIRED", "customDays"],
      [{ type: "recurrent", recurrence: "custom", customDays: [], recurrentUntil: new Date(ahead(clock, 30 * 86_400_000)).toISOString() }, "ERR_SCHEDULE_CUSTOM_DAYS_REQUIRED", "customDays"],
      [{ type: "recurrent", recurrence: "daily" }, "ERR_SCHEDULE_RECURRENCE_INVALID", "recurrentUntil"],
      // An end before the second send: not a recurrence.
      [{ type: "recurrent", recurrence: "weekly", recurrentUntil: new Date(ahead(clock, 2 * 86_400_000)).toISOString() }, "ERR_SCHEDULE_RECURRENCE_INVALID", "recurrentUntil"],
    ];
    for (const [change, code, field] of cases) {
      const r = await t.api.post("/scheduled-messages", { ...base(), ...change }, a.admin);
      expectError(r, 400, code);
      expect({ code, field: r.body.data?.field }).toEqual({ code, field });
    }
    const en = await t.api.call("POST", "/scheduled-messages", { ...base(), scheduleDate: new Date(Date.now() - MIN).toISOString() }, a.admin, { "accept-language": "en" });
    expect({ title: en.body.title, message: en.body.message }).toEqual({ title: "Date in the past", message: "The schedule date must be in the future." });
    const pt = await t.api.post("/scheduled-messages", { ...base(), body: "" }, a.admin);
    expect(pt.body.title).toBe("Mensagem obrigatória");
    expectError(await t.api.post("/scheduled-messages", { ...base(), recurrence: "yearly", type: "recurrent" }, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.post("/scheduled-messages", { ...base(), customDays: [7] }, a.admin), 400, "ERR_VALIDATION");
    expect((await ok(t.api.get("/scheduled-messages", a.admin))).count).toBe(before);
  });

  it("never reaches another tenant: its messages, contacts, users, connections and tickets answer 404, and nothing changes", async () => {
    const mine = await ok(t.api.post("/scheduled-messages", base(), a.admin), 201);
    expectError(await t.api.get(`/scheduled-messages/one?id=${mine.id}`, b.admin), 404, "ERR_SCHEDULE_MESSAGE_NOT_FOUND");
    expectError(await t.api.call("PATCH", "/scheduled-messages", { id: mine.id, body: "roubada" }, b.admin), 404, "ERR_SCHEDULE_MESSAGE_NOT_FOUND");
    expectError(await t.api.post("/scheduled-messages/cancel", { id: mine.id }, b.admin), 404, "ERR_SCHEDULE_MESSAGE_NOT_FOUND");
    expect((await ok(t.api.get("/scheduled-messages", b.admin))).rows.map((r: { id: number }) => r.id)).not.toContain(mine.id);
    expectError(await t.api.post("/scheduled-messages", { ...base(), contactId: b.contacts[0] }, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
    expectError(await t.api.post("/scheduled-messages", { ...base(), userId: b.agent.userId }, a.admin), 404, "ERR_USER_NOT_FOUND");
    expectError(await t.api.post("/scheduled-messages", { ...base(), connectionId: b.conn }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.post("/scheduled-messages", { ...base(), contactId: undefined, connectionId: undefined, ticketId: b.tickets[0] }, a.admin), 404, "ERR_TICKET_NOT_FOUND");
    expect(await ok(t.api.get(`/scheduled-messages/one?id=${mine.id}`, a.admin))).toMatchObject({ body: mine.body, status: "pending" });
  });

  it("schedules from a ticket (its contact and connection) and lists the ticket's pending messages", async () => {
    const m = await ok(t.api.post("/scheduled-messages", { body: "Do atendimento", scheduleDate: base().scheduleDate, userId: a.agent.userId, ticketId: a.tickets[1] }, a.agent), 201);
    expect(m).toMatchObject({ ticketId: a.tickets[1], contactId: a.contacts[1], connectionId: a.conn });
    const list = await ok(t.api.get(`/scheduled-messages?ticketId=${a.tickets[1]}&status=pending`, a.agent));
    expect(list.rows.map((r: { id: number }) => r.id)).toEqual([m.id]);
  });

  it("edits and cancels only pending messages; the others answer ERR_SCHEDULE_NOT_PENDING naming their status", async () => {
    const m = await ok(t.api.post("/scheduled-messages", base(), a.admin), 201);
    const later = new Date(ahead(clock, 3 * 60 * MIN)).toISOString();
    const edited = await ok(t.api.call("PATCH", "/scheduled-messages", { id: m.id, body: "Novo texto", scheduleDate: later, type: "recurrent", recurrence: "custom", customDays: [5, 1, 1], recurrentUntil: new Date(ahead(clock, 40 * 86_400_000)).toISOString() }, a.admin));
    expect(edited).toMatchObject({ body: "Novo texto", scheduleDate: later, nextDate: later, type: "recurrent", recurrence: "custom", customDays: [1, 5] });
    expectError(await t.api.call("PATCH", "/scheduled-messages", { id: m.id, scheduleDate: new Date(Date.now() - MIN).toISOString() }, a.admin), 400, "ERR_SCHEDULE_DATE_PAST");
    expect(await ok(t.api.post("/scheduled-messages/cancel", { id: m.id }, a.admin))).toMatchObject({ status: "cancelled", nextDate: null });
    const again = await t.api.post("/scheduled-messages/cancel", { id: m.id }, a.admin);
    expectError(again, 409, "ERR_SCHEDULE_NOT_PENDING");
    expect(again.body.data).toMatchObject({ status: "cancelled" });
    expect(again.body.message).toContain("cancelled");
    expectError(await t.api.call("PATCH", "/scheduled-messages", { id: m.id, body: "x" }, a.admin), 409, "ERR_SCHEDULE_NOT_PENDING");
    expectError(await t.api.post("/scheduled-messages/cancel", { id: 987654321 }, a.admin), 404, "ERR_SCHEDULE_MESSAGE_NOT_FOUND");
  });

  it("filters by status, contact, connection, user and date range, soonest first", async () => {
    const at = (h: number) => new Date(ahead(clock, 24 * 60 * MIN + h * 60 * MIN)).toISOString();
    const x = await ok(t.api.post("/scheduled-messages", { ...base(), body: "x", scheduleDate: at(5), contactId: a.contacts[1], userId: a.admin.userId }, a.admin), 201);
    const y = await ok(t.api.post("/scheduled-messages", { ...base(), body: "y", scheduleDate: at(2) }, a.admin), 201);
    const ids = async (q: string) => (await ok(t.api.get(`/scheduled-messages?${q}`, a.admin))).rows.map((r: { id: number }) => r.id);
    const range = `from=${encodeURIComponent(at(1))}&to=${encodeURIComponent(at(6))}`;
    expect(await ids(range)).toEqual([y.id, x.id]);
    expect(await ids(`${range}&contactId=${a.contacts[1]}`)).toEqual([x.id]);
    expect(await ids(`${range}&userId=${a.agent.userId}`)).toEqual([y.id]);
    expect(await ids(`${range}&connectionId=${a.conn}&status=pending`)).toEqual([y.id, x.id]);
    expect(await ids(`${range}&status=sent,failed`)).toEqual([]);
    expect((await ok(t.api.get("/scheduled-messages?status=cancelled", a.admin))).rows.every((r: { status: string }) => r.status === "cancelled")).toBe(true);
    expectError(await t.api.get(`/scheduled-messages?from=${encodeURIComponent(at(6))}&to=${encodeURIComponent(at(1))}`, a.admin), 400, "ERR_SCHEDULE_RANGE_INVALID");
    expectError(await t.api.get("/scheduled-messages?status=lost", a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.get("/scheduled-messages?from=ontem", a.admin), 400, "ERR_VALIDATION");
    const opts = await ok(t.api.get("/scheduled-messages/options?q=Cliente 2", a.agent));
    expect(opts.contacts.map((c: { id: number }) => c.id)).toEqual([a.contacts[1]]);
    expect(opts.users.map((u: { id: number }) => u.id).sort()).toEqual([a.admin.userId, a.supervisor.userId, a.agent.userId].sort());
  });
});
