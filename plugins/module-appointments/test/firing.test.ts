/**
 * Sending on the core's scheduler (MariaDB, Redis, a test clock: time moves, nothing sleeps for
 * it): each reminder at its time before the appointment, then the message, the complementary
 * message and the attachment at its start, and the ticket closed when asked, each once: when
 * a job is delivered again, when a run died after the core sent but before the plugin wrote it
 * down, and across restarts of the core between the reminders; a moved appointment sends at
 * its new time only, a deleted one never.
 */
import { ahead, appointmentsCore, clinic, Clock, HOUR, MIN, ok, pluginSql, sentOn, settle, slot, waitFor, type Clinic, type TestCore } from "./kit";

jest.setTimeout(240_000);

const clock = new Clock(Date.now());
let t: TestCore;
let a: Clinic;

beforeAll(async () => {
  t = await appointmentsCore(clock);
  a = await clinic(t, 3);
});
afterAll(async () => {
  await t?.stop();
});

type View = { id: number; status: string; ticketId: number | null; errorMessage: string | null; startAt: string };
const one = (id: number) => ok<View>(t.api.get(`/appointments/one?id=${id}`, a.admin));
const book = (body: Record<string, unknown>) => ok<View>(t.api.post("/appointments", { connectionId: a.conn, userId: a.agent.userId, serviceId: a.service.id, ...body }, a.admin), 201);
const runJob = (name: string, key: string, data: Record<string, unknown>, dueAt: number, attempt = 2) =>
  t.core.broker.call("v1.module-appointments.runJob", { jobId: `probe-${key}-${dueAt}-${attempt}`, name, key, tenantId: a.tenantId, dueAt, attempt, data });
const ticketStatus = async (id: number) => (await ok(t.api.get(`/tickets/${id}`, a.admin))).status as string;
const restart = async () => {
  await t.stop({ keep: true });
  t = await appointmentsCore(clock, t);
  await waitFor("the plugin's routes", () => t.api.get("/appointments", a.admin), (r) => r.status === 200);
};

describe("firing appointments (MariaDB, test clock)", () => {
  it("sends each reminder and then the message once, across two restarts, and closes the ticket", async () => {
    const at = slot(clock, 3 * HOUR);
    const m = await book({
      contactId: a.contacts[0],
      startAt: new Date(at).toISOString(),
      message: "Sua consulta começa agora",
      complementaryMessage: "Sala 3, segundo andar",
      closeTicket: true,
      reminders: [{ amount: 2, unit: "hours" }, { amount: 30, unit: "minutes" }],
    });
    const reminderBody = (await sentOnTicket()).length; // nothing yet
    expect(reminderBody).toBe(0);

    // Before the first reminder: nothing.
    clock.set(at - 2 * HOUR - MIN);
    await settle();
    expect(await sentOnTicket()).toEqual([]);

    // The 2-hour reminder.
    clock.set(at - 2 * HOUR + 1000);
    const first = await waitFor("the first reminder", sentOnTicket, (s) => s.length === 1);
    expect(first[0]).toMatch(/^⏰ \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} — Sua consulta começa agora$/);
    // Delivered again (a retry, a stuck run taken again), once the first run wrote it down: nothing more.
    await waitFor("the ledger row", () => pluginSql(t, "SELECT state FROM sends WHERE appointmentId = ?", [m.id]) as Promise<unknown[]>, (rows) => rows.length === 1);
    expect(await runJob("reminder", `appointment-${m.id}-${2 * HOUR}`, { id: m.id, at, offset: 2 * HOUR }, at - 2 * HOUR)).toBe("done");

    // A restart between the reminders: the first is not sent again.
    await restart();
    await settle();
    expect(await sentOnTicket()).toEqual(first);

    // What a run that died after the core sent (before the ledger row) leaves: sent again with the same keys, the core answers the first message.
    clock.set(at - 30 * MIN + 1000);
    await waitFor("the second reminder", sentOnTicket, (s) => s.length === 2);
    const kind30 = [m.id, `reminder-${30 * MIN}`];
    await waitFor("its ledger row", () => pluginSql(t, "SELECT state FROM sends WHERE appointmentId = ? AND kind = ?", kind30) as Promise<unknown[]>, (rows) => rows.length === 1);
    await pluginSql(t, "DELETE FROM sends WHERE appointmentId = ? AND kind = ?", kind30);
    expect(await runJob("reminder", `appointment-${m.id}-${30 * MIN}`, { id: m.id, at, offset: 30 * MIN }, at - 30 * MIN)).toBe("sent");
    expect(await sentOnTicket()).toHaveLength(2);

    await restart();
    clock.set(at + 1000);
    const done = await waitFor("the message", () => one(m.id), (v) => v.status !== "scheduled");
    expect(done).toMatchObject({ status: "sent", ticketId: a.tickets[0], errorMessage: null });
    const all = await sentOnTicket();
    expect(all.slice(2)).toEqual(["Sua consulta começa agora", "Sala 3, segundo andar"]);
    expect(await ticketStatus(a.tickets[0])).toBe("closed");
    expect(await runJob("message", `appointment-${m.id}`, { id: m.id, at }, at)).toBe("stale");
    await settle();
    expect(await sentOnTicket()).toEqual(all);
    const ledger = (await pluginSql(t, "SELECT kind, state FROM sends WHERE appointmentId = ? ORDER BY kind", [m.id])) as Array<{ kind: string; state: string }>;
    expect(ledger).toEqual([
      { kind: "message", state: "sent" },
      { kind: `reminder-${30 * MIN}`, state: "sent" },
      { kind: `reminder-${2 * HOUR}`, state: "sent" },
    ]);

    async function sentOnTicket() {
      return sentOn(t, a.supervisor, a.tickets[0]);
    }
  });

  it("a moved appointment sends at its new time only; a deleted one never; a reminder removed is not sent", async () => {
    const at = slot(clock, 2 * HOUR);
    // The admin's calendar: the agent's appointments of the other tests never meet these.
    const moved = await book({ userId: a.admin.userId, contactId: a.contacts[1], startAt: new Date(at).toISOString(), message: "Consulta remarcada", reminders: [{ amount: 1, unit: "hours" }] });
    const later = at + HOUR;
    await ok(t.api.call("PATCH", "/appointments", { id: moved.id, startAt: new Date(later).toISOString(), reminders: [] }, a.admin));
    const gone = await book({ userId: a.admin.userId, contactId: a.contacts[2], startAt: new Date(at).toISOString(), message: "Não deve sair" });
    await ok(t.api.post("/appointments/delete", { id: gone.id }, a.admin));
    clock.set(at + 1000);
    await settle();
    // The old time's jobs are stale when delivered.
    expect(await runJob("message", `appointment-${moved.id}`, { id: moved.id, at }, at)).toBe("stale");
    expect(await runJob("reminder", `appointment-${moved.id}-${HOUR}`, { id: moved.id, at: later, offset: HOUR }, later - HOUR)).toBe("stale");
    expect(await runJob("message", `appointment-${gone.id}`, { id: gone.id, at }, at)).toBe("stale");
    expect(await sentOn(t, a.supervisor, a.tickets[1])).toEqual([]);
    expect(await sentOn(t, a.supervisor, a.tickets[2])).toEqual([]);
    clock.set(later + 1000);
    expect(await waitFor("the moved one", () => one(moved.id), (v) => v.status !== "scheduled")).toMatchObject({ status: "sent" });
    expect(await sentOn(t, a.supervisor, a.tickets[1])).toEqual(["Consulta remarcada"]);
    // Not asked to close: the ticket stays open.
    expect(await ticketStatus(a.tickets[1])).not.toBe("closed");
  });

  it("fails with its reason when the channel cannot reach the contact, or cannot carry the attachment (the texts before it went once)", async () => {
    const file = await ok(t.api.post("/appointments/attachment", { file: { fileName: "preparo.txt", mimeType: "text/plain", data: Buffer.from("Jejum de 8 horas").toString("base64") } }, a.admin));
    const at0 = ahead(clock, 20 * MIN);
    const withFile = await book({ contactId: a.contacts[2], startAt: new Date(at0).toISOString(), message: "Leia o preparo anexo", attachment: { path: file.path, mimeType: file.mimeType, fileName: file.fileName } });
    clock.set(at0 + 1000);
    // The web chat carries text only.
    expect(await waitFor("the attachment's failure", () => one(withFile.id), (v) => v.status !== "scheduled")).toMatchObject({ status: "failed", errorMessage: "ERR_CHANNEL_UNSUPPORTED" });
    // The failed attachment stays on the ticket as a failed message without text.
    expect((await sentOn(t, a.supervisor, a.tickets[2])).filter(Boolean)).toEqual(["Leia o preparo anexo"]);
    const lonely = await ok(t.api.post("/contacts", { name: "Só E-mail", email: `so.email.${Date.now()}@example.com` }, a.admin), 201);
    const at = ahead(clock, 30 * MIN);
    const m = await book({ contactId: lonely.id, startAt: new Date(at).toISOString(), message: "Olá, tudo certo?" });
    clock.set(at + 1000);
    expect(await waitFor("the failure", () => one(m.id), (v) => v.status !== "scheduled")).toMatchObject({ status: "failed", errorMessage: "ERR_CONTACT_NUMBER_INVALID" });
  });
});
