/**
 * Sending on the core's scheduler (MariaDB, Redis, a test clock: time moves, nothing sleeps
 * for it): a message goes at its date through the contact's open ticket and once only, when
 * its job is delivered again (a retry after a lost answer), when a run died after the core
 * stored the send but before the plugin recorded it, and across a restart of the core; a
 * recurrent one counts each send and moves to its next date until its end; a cancelled one
 * never goes; a contact without an open ticket gets a pending one with the message; one the
 * channel cannot reach fails with its reason and opens nothing (a recurrent one goes on).
 */
import { ahead, Clock, MIN, ok, pluginSql, scheduledCore, sentOn, settle, shop, waitFor, type Shop, type TestCore } from "./kit";

jest.setTimeout(240_000);

const clock = new Clock(Date.now());
let t: TestCore;
let a: Shop;

beforeAll(async () => {
  t = await scheduledCore(clock);
  a = await shop(t, 4);
  await waitFor("GET /scheduled-messages", () => t.api.get("/scheduled-messages", a.admin), (r) => r.status === 200);
});
afterAll(async () => {
  await t?.stop();
});

type View = { id: number; status: string; sentCount: number; lastSentAt: string | null; nextDate: string | null; errorMessage: string | null; scheduleDate: string };
const one = (id: number) => ok<View>(t.api.get(`/scheduled-messages/one?id=${id}`, a.admin));
const schedule = (body: Record<string, unknown>) => ok<View>(t.api.post("/scheduled-messages", { connectionId: a.conn, userId: a.agent.userId, ...body }, a.admin), 201);
const runJob = (id: number, at: number, attempt = 1) =>
  t.core.broker.call("v1.module-scheduled-messages.runJob", { jobId: `probe-${id}-${at}`, name: "fire", key: `message-${id}`, tenantId: a.tenantId, dueAt: at, attempt, data: { id, at } });

describe("firing scheduled messages (MariaDB, test clock)", () => {
  it("sends at the schedule date, not before, through the contact's open ticket, and a redelivered job sends nothing more", async () => {
    const at = ahead(clock, 30 * MIN);
    const m = await schedule({ body: "Sua consulta é hoje às 15h", scheduleDate: new Date(at).toISOString(), contactId: a.contacts[0] });
    clock.set(at - MIN);
    await settle();
    expect(await sentOn(t, a.admin, a.tickets[0])).toEqual([]);
    expect((await one(m.id)).status).toBe("pending");

    clock.set(at + 1000);
    const done = await waitFor("the send", () => one(m.id), (v) => v.status === "sent");
    expect(done).toMatchObject({ sentCount: 1, nextDate: null, errorMessage: null });
    expect(done.lastSentAt).not.toBeNull();
    expect(await sentOn(t, a.admin, a.tickets[0])).toEqual(["Sua consulta é hoje às 15h"]);
    const ledger = (await pluginSql(t, "SELECT state, ticketId, sentMessageId FROM sends WHERE messageId = ?", [m.id])) as Array<Record<string, unknown>>;
    expect(ledger).toEqual([{ state: "sent", ticketId: a.tickets[0], sentMessageId: expect.any(Number) }]);

    // The same occurrence delivered again (a retry after a lost answer, a stuck run taken again).
    expect(await runJob(m.id, at, 2)).toBe("stale");
    expect(await runJob(m.id, at, 1)).toBe("stale");
    await settle(600);
    expect(await sentOn(t, a.admin, a.tickets[0])).toEqual(["Sua consulta é hoje às 15h"]);
    expect((await one(m.id)).sentCount).toBe(1);
  });

  it("a run that died after the core stored the send, before recording it, is not sent again when retried", async () => {
    const at = ahead(clock, 20 * MIN);
    const m = await schedule({ body: "Pagamento confirmado", scheduleDate: new Date(at).toISOString(), contactId: a.contacts[1] });
    clock.set(at + 1000);
    await waitFor("the send", () => one(m.id), (v) => v.status === "sent");
    expect(await sentOn(t, a.admin, a.tickets[1])).toEqual(["Pagamento confirmado"]);
    // What the crash leaves: the core has the message, the plugin's ledger still says "sending" and the message is pending at that date.
    await pluginSql(t, "UPDATE sends SET state = 'sending', sentMessageId = NULL, finishedAt = NULL WHERE messageId = ?", [m.id]);
    await pluginSql(t, "UPDATE messages SET status = 'pending', nextAt = ?, sentCount = 0, lastSentAt = NULL WHERE id = ?", [at, m.id]);
    expect(await runJob(m.id, at, 2)).toBe("sent");
    expect(await sentOn(t, a.admin, a.tickets[1])).toEqual(["Pagamento confirmado"]);
    expect(await one(m.id)).toMatchObject({ status: "sent", sentCount: 1 });
    const [row] = (await pluginSql(t, "SELECT state, sentMessageId FROM sends WHERE messageId = ?", [m.id])) as Array<Record<string, unknown>>;
    expect(row).toEqual({ state: "sent", sentMessageId: expect.any(Number) });

    // A run that died before the core stored anything: the retry sends it, once.
    const at2 = ahead(clock, 20 * MIN);
    const n = await schedule({ body: "Segunda via do boleto", scheduleDate: new Date(at2).toISOString(), contactId: a.contacts[1] });
    await pluginSql(t, "INSERT INTO sends (tenantId, messageId, dueAt, state, ticketId, startedAt) VALUES (?, ?, ?, 'sending', ?, ?)", [a.tenantId, n.id, at2, a.tickets[1], Date.now()]);
    clock.set(at2 + 1000);
    await waitFor("the send", () => one(n.id), (v) => v.status === "sent");
    expect(await sentOn(t, a.admin, a.tickets[1])).toEqual(["Pagamento confirmado", "Segunda via do boleto"]);
  });

  it("two runs of one occurrence at once (a stuck run taken again while the first still sends) send it once", async () => {
    const at = ahead(clock, 40 * MIN);
    const m = await schedule({ body: "Lembrete em dobro?", scheduleDate: new Date(at).toISOString(), contactId: a.contacts[1] });
    const before = await sentOn(t, a.admin, a.tickets[1]);
    const runs = await Promise.all([runJob(m.id, at, 1), runJob(m.id, at, 2), runJob(m.id, at, 1)]);
    for (const r of runs) expect(["sent", "running"]).toContain(r);
    expect(runs).toContain("sent");
    expect(await sentOn(t, a.admin, a.tickets[1])).toEqual([...before, "Lembrete em dobro?"]);
    expect(await one(m.id)).toMatchObject({ status: "sent", sentCount: 1 });
    const ledger = (await pluginSql(t, "SELECT state FROM sends WHERE messageId = ?", [m.id])) as Array<Record<string, unknown>>;
    expect(ledger).toEqual([{ state: "sent" }]);
    // Its own job, when the clock reaches the date, finds it sent.
    clock.set(at + 1000);
    await settle(600);
    expect(await sentOn(t, a.admin, a.tickets[1])).toEqual([...before, "Lembrete em dobro?"]);
  });

  it("repeats a recurrent message at each date, counting, until its end date; the series then ends as sent", async () => {
    const at = ahead(clock, 10 * MIN);
    const day = 86_400_000;
    const m = await schedule({ body: "Bom dia! Promoção do dia", scheduleDate: new Date(at).toISOString(), contactId: a.contacts[2], type: "recurrent", recurrence: "daily", recurrentUntil: new Date(at + 2 * day + 60 * MIN).toISOString(), timeZone: "America/Sao_Paulo" });
    clock.set(at + 1000);
    let v = await waitFor("the first send", () => one(m.id), (x) => x.sentCount === 1);
    expect(v).toMatchObject({ status: "pending", nextDate: new Date(at + day).toISOString(), errorMessage: null });
    // Editing the text of a running series keeps its dates (the first send stays the anchor).
    const edited = await ok<View & { body: string }>(t.api.call("PATCH", "/scheduled-messages", { id: m.id, body: "Bom dia! Promoção do dia" }, a.admin));
    expect(edited).toMatchObject({ scheduleDate: v.scheduleDate, nextDate: v.nextDate, sentCount: 1 });
    clock.set(at + day + 1000);
    v = await waitFor("the second send", () => one(m.id), (x) => x.sentCount === 2);
    expect(v).toMatchObject({ status: "pending", nextDate: new Date(at + 2 * day).toISOString() });
    clock.set(at + 2 * day + 1000);
    v = await waitFor("the last send", () => one(m.id), (x) => x.status !== "pending");
    expect(v).toMatchObject({ status: "sent", sentCount: 3, nextDate: null });
    clock.set(at + 3 * day + 1000);
    await settle();
    expect(await sentOn(t, a.admin, a.tickets[2])).toEqual(["Bom dia! Promoção do dia", "Bom dia! Promoção do dia", "Bom dia! Promoção do dia"]);
  });

  it("never sends a cancelled message, even when its job is delivered", async () => {
    const at = ahead(clock, 15 * MIN);
    const m = await schedule({ body: "Não deve sair", scheduleDate: new Date(at).toISOString(), contactId: a.contacts[3] });
    await ok(t.api.post("/scheduled-messages/cancel", { id: m.id }, a.admin));
    clock.set(at + 1000);
    await settle();
    expect(await runJob(m.id, at)).toBe("stale");
    expect(await sentOn(t, a.admin, a.tickets[3])).toEqual([]);
    expect(await one(m.id)).toMatchObject({ status: "cancelled", sentCount: 0 });
  });

  it("opens a pending ticket for a contact with none on the connection, and the message goes through it", async () => {
    const fresh = await ok(t.api.post("/contacts", { name: "Cliente Novo", number: `55119${String(Date.now()).slice(-8)}` }, a.admin), 201);
    const at = ahead(clock, 12 * MIN);
    const m = await schedule({ body: "Bem-vindo!", scheduleDate: new Date(at).toISOString(), contactId: fresh.id });
    clock.set(at + 1000);
    expect(await waitFor("the send", () => one(m.id), (v) => v.status !== "pending")).toMatchObject({ status: "sent", sentCount: 1, errorMessage: null });
    const active = (await t.core.broker.call("tickets.findActive", { tenantId: a.tenantId, contactId: fresh.id, connectionId: a.conn })) as { id: number; status: string } | null;
    expect(active).toMatchObject({ status: "pending" });
    expect(await sentOn(t, a.admin, active!.id)).toEqual(["Bem-vindo!"]);
  });

  it("fails with its reason when the channel cannot reach the contact (no ticket opened); a recurrent one goes on to its next date", async () => {
    const lonely = await ok(t.api.post("/contacts", { name: "Só E-mail", email: `so.email.${Date.now()}@example.com` }, a.admin), 201);
    const at = ahead(clock, 10 * MIN);
    const single = await schedule({ body: "Oi", scheduleDate: new Date(at).toISOString(), contactId: lonely.id });
    const weekly = await schedule({ body: "Oi toda semana", scheduleDate: new Date(at).toISOString(), contactId: lonely.id, type: "recurrent", recurrence: "weekly", recurrentUntil: new Date(at + 30 * 86_400_000).toISOString() });
    clock.set(at + 1000);
    expect(await waitFor("the failure", () => one(single.id), (v) => v.status !== "pending")).toMatchObject({ status: "failed", sentCount: 0, errorMessage: "ERR_CONTACT_NUMBER_INVALID" });
    const w = await waitFor("the recurrent failure", () => one(weekly.id), (v) => v.errorMessage !== null);
    expect(w).toMatchObject({ status: "pending", sentCount: 0, nextDate: new Date(at + 7 * 86_400_000).toISOString() });
    expect(await t.core.broker.call("tickets.findActive", { tenantId: a.tenantId, contactId: lonely.id, connectionId: a.conn })).toBeNull();
    // Editing or cancelling a failed one is refused.
    expect((await t.api.post("/scheduled-messages/cancel", { id: single.id }, a.admin)).body.error).toBe("ERR_SCHEDULE_NOT_PENDING");
  });

  it("survives a restart of the core: what was sent is not sent again, what is due after it is sent once", async () => {
    const at = ahead(clock, 40 * MIN);
    const m = await schedule({ body: "Depois do reinício", scheduleDate: new Date(at).toISOString(), contactId: a.contacts[0] });
    const before = await sentOn(t, a.admin, a.tickets[0]);
    await t.stop({ keep: true });
    t = await scheduledCore(clock, t);
    await waitFor("the plugin's routes", () => t.api.get("/scheduled-messages", a.admin), (r) => r.status === 200);
    await settle();
    expect(await sentOn(t, a.admin, a.tickets[0])).toEqual(before);
    clock.set(at + 1000);
    await waitFor("the send", () => one(m.id), (v) => v.status === "sent");
    await settle();
    expect(await sentOn(t, a.admin, a.tickets[0])).toEqual([...before, "Depois do reinício"]);
  });
});
