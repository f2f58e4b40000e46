/**
 * The appointments and services routes against a real core (MariaDB, Redis): every rule of
 * spec §5 answers its code (translated), the user's availability (set on the core's
 * /availability) is enforced, the calendar's move is checked again, past appointments cannot
 * be deleted, the .ics lists the range; the services need PREMIUM (a PLUS tenant books but does
 * not edit them); another tenant's appointment, service, contact, user and connection answer
 * 404 on every route.
 */
import { io as ioClient } from "socket.io-client";
import { ALWAYS, appointmentsCore, clinic, Clock, DAY, expectError, HOUR, MIN, ok, pluginSql, slot, waitFor, type Clinic, type TestCore } from "./kit";

jest.setTimeout(180_000);

const clock = new Clock(Date.now());
let t: TestCore;
let a: Clinic;
let b: Clinic;
let plus: Clinic;

beforeAll(async () => {
  t = await appointmentsCore(clock);
  [a, b, plus] = await Promise.all([clinic(t, 2), clinic(t, 1), clinic(t, 1, "PLUS")]);
});
afterAll(async () => {
  await t?.stop();
});

let hours = 2;
/** A fresh slot each call (2 hours apart), so appointments of a test never meet by chance. */
const base = () => ({ contactId: a.contacts[0], connectionId: a.conn, userId: a.agent.userId, serviceId: a.service.id, startAt: new Date(slot(clock, (hours += 3) * HOUR)).toISOString(), message: "Sua consulta está confirmada" });

describe("appointments routes (MariaDB)", () => {
  it("has its own database, migrated by the host", async () => {
    expect(((await pluginSql(t, "SELECT name FROM _migrations")) as Array<{ name: string }>).map((r) => r.name)).toEqual(["0001-appointments"]);
  });

  it("creates an appointment with the service's duration, its names, reminders farthest first, and pushes appointments.changed to the tenant only", async () => {
    const events: string[] = [];
    const sockets = [a.supervisor, b.admin].map((who, i) => {
      const s = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false, forceNew: true });
      s.onAny((event) => events.push(`${i === 0 ? "a" : "b"}:${event}`));
      return s;
    });
    await Promise.all(sockets.map((s) => new Promise((r) => s.on("ready", r))));
    try {
      const body = { ...base(), closeTicket: true, complementaryMessage: "Chegue 10 minutos antes", reminders: [{ amount: 30, unit: "minutes" }, { amount: 1, unit: "days" }] };
      const m = await ok(t.api.post("/appointments", body, a.agent), 201);
      expect(m).toMatchObject({ status: "scheduled", duration: 30, userId: a.agent.userId, userName: "Agent", serviceId: a.service.id, closeTicket: true, complementaryMessage: "Chegue 10 minutos antes", createdBy: a.agent.userId });
      expect(m.startAt).toBe(body.startAt);
      expect(Date.parse(m.endAt) - Date.parse(m.startAt)).toBe(30 * MIN);
      expect(m.reminders).toEqual([{ amount: 1, unit: "days" }, { amount: 30, unit: "minutes" }]);
      expect(m.contactName).toMatch(/^Paciente 1/);
      expect(m.serviceName).toMatch(/^Consulta/);
      expect(await ok(t.api.get(`/appointments/one?id=${m.id}`, a.admin))).toEqual(m);
      await waitFor("the push", async () => events, (e) => e.includes("a:plugin:module-appointments:appointments.changed"));
      expect(events.filter((e) => e.startsWith("b:plugin:"))).toEqual([]);
      // The message's and the reminders' jobs wait on the scheduler.
      const jobs = (await t.core.broker.call("scheduler.list", { owner: "module-appointments", tenantId: a.tenantId })) as Array<{ key: string; runAt: number }>;
      const mine = jobs.filter((j) => j.key.startsWith(`appointment-${m.id}`)).map((j) => [j.key, j.runAt]).sort();
      const start = Date.parse(m.startAt);
      expect(mine).toEqual(
        [
          [`appointment-${m.id}`, start],
          [`appointment-${m.id}-${30 * MIN}`, start - 30 * MIN],
          [`appointment-${m.id}-${DAY}`, start - DAY],
        ]
          .filter(([, at]) => (at as number) > Date.now())
          .sort(),
      );
    } finally {
      for (const s of sockets) s.close();
    }
  });

  it("refuses what an appointment lacks or breaks with its code, naming the field, and stores nothing", async () => {
    const count = async () => (await ok(t.api.get("/appointments", a.admin))).length;
    const before = await count();
    const yesterday = new Date(Date.now() - DAY).toISOString();
    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ contactId: undefined }, 400, "ERR_REQUIRED_CONTACT", "contactId"],
      [{ connectionId: null }, 400, "ERR_REQUIRED_CONNECTION", "connectionId"],
      [{ userId: undefined }, 400, "ERR_REQUIRED_USER", "userId"],
      [{ startAt: undefined }, 400, "ERR_REQUIRED_SEND_AT", "startAt"],
      [{ serviceId: undefined }, 400, "ERR_APPOINTMENT_SERVICE_REQUIRED", "serviceId"],
      [{ message: " " }, 400, "ERR_REQUIRED_BODY", "message"],
      [{ message: "Oi!!" }, 400, "ERR_APPOINTMENT_MESSAGE_TOO_SHORT", "message"],
      [{ startAt: "amanhã às 10" }, 400, "ERR_SCHEDULE_INVALID_DATE", "startAt"],
      [{ startAt: yesterday }, 400, "ERR_SCHEDULE_INVALID_DATE", "startAt"],
      [{ reminders: [{ amount: 2, unit: "hours" }, { amount: 120, unit: "minutes" }] }, 400, "ERR_APPOINTMENT_REMINDER_DUPLICATE", "reminders"],
      [{ serviceId: 987654321 }, 404, "ERR_APPOINTMENT_SERVICE_NOT_FOUND", "serviceId"],
      [{ userId: a.supervisor.userId }, 404, "ERR_SERVICE_NOT_FOUND_FOR_USER", "serviceId"],
    ];
    for (const [change, status, code, field] of cases) {
      const r = await t.api.post("/appointments", { ...base(), ...change }, a.admin);
      expectError(r, status, code);
      expect({ code, field: r.body.data?.field }).toEqual({ code, field });
    }
    expectError(await t.api.post("/appointments", { ...base(), reminders: [{ amount: 1, unit: "weeks" }] }, a.admin), 400, "ERR_VALIDATION");
    // Today, an hour already gone: an invalid hour (unless that hour was yesterday in São Paulo).
    const r = await t.api.post("/appointments", { ...base(), startAt: new Date(Date.now() - 60_000).toISOString() }, a.admin);
    expect(["ERR_SCHEDULE_INVALID_HOUR", "ERR_SCHEDULE_INVALID_DATE"]).toContain(r.body.error);
    const en = await t.api.call("POST", "/appointments", { ...base(), message: "Oi" }, a.admin, { "accept-language": "en" });
    expect({ title: en.body.title, message: en.body.message }).toEqual({ title: "Message too short", message: "The message must have at least 5 characters." });
    const pt = await t.api.post("/appointments", { ...base(), reminders: [{ amount: 1, unit: "days" }, { amount: 1, unit: "days" }] }, a.admin);
    expect(pt.body.message).toBe("Já existe um lembrete de 1 days antes neste agendamento.");
    // A channel without templates cannot send a WABA template.
    expectError(await t.api.post("/appointments", { ...base(), template: { name: "consulta", language: "pt_BR", params: [] } }, a.admin), 400, "ERR_CHANNEL_UNSUPPORTED");
    expect(await count()).toBe(before);
  });

  it("keeps to the user's availability: outside its slots, or on a day without any, is refused", async () => {
    const u = a.admin.userId;
    // Weekdays in São Paulo: mornings only (09:00–12:00), nothing on the weekday of the test's day after tomorrow.
    const day2 = slot(clock, 2 * DAY);
    const wd2 = new Date(day2 - 3 * HOUR).getUTCDay();
    const days = Array.from({ length: 7 }, (_, d) => (d === wd2 ? [] : [{ kind: "morning", start: "09:00", end: "12:00" }]));
    await ok(t.api.call("PUT", `/availability/${u}`, { days }, a.admin));
    try {
      const local = (dayStart: number, h: number, m = 0) => {
        const l = new Date(dayStart - 3 * HOUR);
        return new Date(Date.UTC(l.getUTCFullYear(), l.getUTCMonth(), l.getUTCDate(), h + 3, m)).toISOString();
      };
      const tomorrow = slot(clock, DAY + 6 * HOUR);
      const at = (h: number, m = 0) => ({ ...base(), userId: u, startAt: local(tomorrow, h, m) });
      expectError(await t.api.post("/appointments", at(8, 45), a.admin), 409, "ERR_USER_OUTSIDE_AVAILABILITY");
      expectError(await t.api.post("/appointments", at(11, 45), a.admin), 409, "ERR_USER_OUTSIDE_AVAILABILITY");
      const fit = await ok(t.api.post("/appointments", at(11, 30), a.admin), 201);
      // A longer duration than the slot's end leaves: refused.
      expectError(await t.api.post("/appointments", { ...at(10), duration: 150 }, a.admin), 409, "ERR_USER_OUTSIDE_AVAILABILITY");
      // Overlapping the user's other appointment: a conflict.
      expectError(await t.api.post("/appointments", at(11, 15), a.admin), 409, "ERR_SCHEDULE_CONFLICT");
      const none = await t.api.post("/appointments", { ...base(), userId: u, startAt: local(day2, 10) }, a.admin);
      expectError(none, 409, "ERR_USER_NO_AVAILABILITY_DAY");
      expect(none.body.title).toBe("Usuário indisponível no dia");
      // Moving the fitting one (a calendar drag) is checked again: outside is refused and nothing moves.
      expectError(await t.api.call("PATCH", "/appointments", { id: fit.id, startAt: local(tomorrow, 13) }, a.admin), 409, "ERR_USER_OUTSIDE_AVAILABILITY");
      expect((await ok(t.api.get(`/appointments/one?id=${fit.id}`, a.admin))).startAt).toBe(fit.startAt);
      const moved = await ok(t.api.call("PATCH", "/appointments", { id: fit.id, startAt: local(tomorrow, 9) }, a.admin));
      expect(moved.startAt).toBe(local(tomorrow, 9));
      const jobs = (await t.core.broker.call("scheduler.list", { owner: "module-appointments", tenantId: a.tenantId })) as Array<{ key: string; runAt: number }>;
      expect(jobs.find((j) => j.key === `appointment-${fit.id}`)?.runAt).toBe(Date.parse(moved.startAt));
    } finally {
      await ok(t.api.call("PUT", `/availability/${u}`, { days: ALWAYS }, a.admin));
    }
    // Never set: no availability at all.
    const sup = a.supervisor.userId;
    await ok(t.api.call("PATCH", "/appointments/services", { id: a.service.id, users: [a.agent.userId, a.admin.userId, sup] }, a.admin));
    expectError(await t.api.post("/appointments", { ...base(), userId: sup }, a.admin), 409, "ERR_USER_NO_AVAILABILITY_DAY");
  });

  it("edits reminders (the removed one's job goes), deletes an appointment ahead, and refuses to delete or change a past one", async () => {
    const m = await ok(t.api.post("/appointments", { ...base(), reminders: [{ amount: 1, unit: "hours" }] }, a.admin), 201);
    const keys = async () => ((await t.core.broker.call("scheduler.list", { owner: "module-appointments", tenantId: a.tenantId })) as Array<{ key: string }>).map((j) => j.key).filter((k) => k.startsWith(`appointment-${m.id}`)).sort();
    expect(await keys()).toEqual([`appointment-${m.id}`, `appointment-${m.id}-${HOUR}`]);
    await ok(t.api.call("PATCH", "/appointments", { id: m.id, reminders: [{ amount: 15, unit: "minutes" }] }, a.admin));
    expect(await keys()).toEqual([`appointment-${m.id}`, `appointment-${m.id}-${15 * MIN}`]);
    expectError(await t.api.call("PATCH", "/appointments", { id: m.id, reminders: [{ amount: 15, unit: "minutes" }, { amount: 15, unit: "minutes" }] }, a.admin), 400, "ERR_APPOINTMENT_REMINDER_DUPLICATE");
    expect(await ok(t.api.post("/appointments/delete", { id: m.id }, a.admin))).toEqual({ id: m.id, deleted: true });
    expect(await keys()).toEqual([]);
    expectError(await t.api.get(`/appointments/one?id=${m.id}`, a.admin), 404, "ERR_SCHEDULE_NOT_FOUND");
    // One whose time has come (stored in the past, as time passing leaves it): neither deleted nor moved.
    const p = await ok(t.api.post("/appointments", base(), a.admin), 201);
    await pluginSql(t, "UPDATE appointments SET startAt = ?, endAt = ? WHERE id = ?", [Date.now() - HOUR, Date.now() - 30 * MIN, p.id]);
    const refused = await t.api.post("/appointments/delete", { id: p.id }, a.admin);
    expectError(refused, 409, "ERR_APPOINTMENT_PAST");
    expect(refused.body.title).toBe("Agendamento já passou");
    expectError(await t.api.call("PATCH", "/appointments", { id: p.id, startAt: base().startAt }, a.admin), 409, "ERR_APPOINTMENT_PAST");
    expect((await ok(t.api.get(`/appointments/one?id=${p.id}`, a.admin))).id).toBe(p.id);
  });

  it("lists a range (of one user) and downloads it as an .ics file", async () => {
    // Two days of their own, far from the other tests' appointments (which follow the clock), whatever the hour the test runs at.
    const onDay = (days: number, hourUtc: number) => {
      const d = new Date(Date.now() + days * DAY);
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hourUtc)).toISOString();
    };
    const x = await ok(t.api.post("/appointments", { ...base(), startAt: onDay(40, 17), message: "Retorno; trazer exames, por favor" }, a.admin), 201);
    const y = await ok(t.api.post("/appointments", { ...base(), startAt: onDay(41, 18), userId: a.admin.userId }, a.admin), 201);
    const from = encodeURIComponent(x.startAt);
    const to = encodeURIComponent(new Date(Date.parse(y.endAt)).toISOString());
    const ids = async (q: string) => (await ok(t.api.get(`/appointments?${q}`, a.admin))).map((r: { id: number }) => r.id);
    expect(await ids(`from=${from}&to=${to}`)).toEqual([x.id, y.id]);
    expect(await ids(`from=${from}&to=${to}&userId=${a.admin.userId}`)).toEqual([y.id]);
    expectError(await t.api.get("/appointments?from=ontem", a.admin), 400, "ERR_VALIDATION");
    const res = await fetch(`${t.url}/api/appointments/ics?from=${from}&to=${to}`, { headers: { authorization: `Bearer ${a.admin.token}`, "x-session-id": String(a.admin.sessionId) } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/calendar/);
    expect(res.headers.get("content-disposition")).toContain("agendamentos.ics");
    const text = await res.text();
    expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(text.match(/BEGIN:VEVENT/g)?.length).toBe(2);
    expect(text).toContain(`UID:appointment-${x.id}-t${a.tenantId}@openatende\r\n`);
    expect(text.replace(/\r\n /g, "")).toContain("Retorno\\; trazer exames\\, por favor");
    const icsTime = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "");
    expect(text).toContain(`DTSTART:${icsTime(x.startAt)}\r\n`);
  });

  it("keeps the services to PREMIUM admins: required fields, price not negative, users; a PLUS tenant books but cannot edit them", async () => {
    const good = { name: "Limpeza", description: "Profilaxia", duration: 45, price: 120.5, users: [a.agent.userId] };
    const s = await ok(t.api.post("/appointments/services", good, a.admin), 201);
    expect(s).toEqual({ id: expect.any(Number), ...good });
    expect((await ok(t.api.get("/appointments/services", a.admin))).map((x: { id: number }) => x.id)).toContain(s.id);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: " " }, "ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", "name"],
      [{ duration: undefined }, "ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", "duration"],
      [{ price: undefined }, "ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", "price"],
      [{ price: -1 }, "ERR_APPOINTMENT_SERVICE_PRICE_NEGATIVE", "price"],
      [{ users: [] }, "ERR_APPOINTMENT_SERVICE_USERS_REQUIRED", "users"],
    ];
    for (const [change, code, field] of cases) {
      const r = await t.api.post("/appointments/services", { ...good, ...change }, a.admin);
      expectError(r, 400, code);
      expect(r.body.data?.field).toBe(field);
    }
    expectError(await t.api.call("PATCH", "/appointments/services", { id: s.id, price: -5 }, a.admin), 400, "ERR_APPOINTMENT_SERVICE_PRICE_NEGATIVE");
    expect(await ok(t.api.call("PATCH", "/appointments/services", { id: s.id, price: 0 }, a.admin))).toMatchObject({ price: 0, duration: 45 });
    // An agent is not an admin.
    expect((await t.api.post("/appointments/services", good, a.agent)).status).toBe(403);
    // PLUS: the appointments work (with the service its admin cannot edit), the services' routes do not.
    const r = await t.api.get("/appointments/services", plus.admin);
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).toContain("PREMIUM");
    // The shell learns the services screen's tier from the manifest's ui.routeTiers.
    const uiRoutes = (await ok(t.api.get("/plugins/routes", plus.admin))) as Array<{ path: string; pluginId: string; tier: string }>;
    expect(uiRoutes.filter((x) => x.pluginId === "module-appointments").map((x) => [x.path, x.tier]).sort()).toEqual([["agendamentos", "PLUS"], ["configuracoes/servicos", "PREMIUM"]]);
    const booked = await ok(t.api.post("/appointments", { contactId: plus.contacts[0], connectionId: plus.conn, userId: plus.agent.userId, serviceId: plus.service.id, startAt: new Date(slot(clock, 5 * HOUR)).toISOString(), message: "Consulta confirmada" }, plus.agent), 201);
    expect(booked.serviceName).toMatch(/^Consulta/);
    expect((await ok(t.api.get("/appointments/options", plus.agent))).services.map((x: { id: number }) => x.id)).toEqual([plus.service.id]);
    // The services' booking with a new service takes its duration.
    const moved = await ok(t.api.call("PATCH", "/appointments", { id: (await ok(t.api.post("/appointments", base(), a.admin), 201)).id, serviceId: s.id, userId: a.agent.userId }, a.admin));
    expect(moved.duration).toBe(45);
    expect(await ok(t.api.post("/appointments/services/delete", { id: s.id }, a.admin))).toEqual({ id: s.id, deleted: true });
  });

  it("never reaches another tenant: its appointments and services answer 404 on every route, its contacts, users, connections too", async () => {
    const mine = await ok(t.api.post("/appointments", base(), a.admin), 201);
    expectError(await t.api.get(`/appointments/one?id=${mine.id}`, b.admin), 404, "ERR_SCHEDULE_NOT_FOUND");
    expectError(await t.api.call("PATCH", "/appointments", { id: mine.id, message: "roubado roubado" }, b.admin), 404, "ERR_SCHEDULE_NOT_FOUND");
    expectError(await t.api.post("/appointments/delete", { id: mine.id }, b.admin), 404, "ERR_SCHEDULE_NOT_FOUND");
    expect((await ok(t.api.get("/appointments", b.admin))).map((r: { id: number }) => r.id)).not.toContain(mine.id);
    expect(await (await fetch(`${t.url}/api/appointments/ics`, { headers: { authorization: `Bearer ${b.admin.token}`, "x-session-id": String(b.admin.sessionId) } })).text()).not.toContain(`appointment-${mine.id}-`);
    expectError(await t.api.get(`/appointments/services/one?id=${a.service.id}`, b.admin), 404, "ERR_APPOINTMENT_SERVICE_NOT_FOUND");
    expectError(await t.api.call("PATCH", "/appointments/services", { id: a.service.id, name: "x" }, b.admin), 404, "ERR_APPOINTMENT_SERVICE_NOT_FOUND");
    expectError(await t.api.post("/appointments/services/delete", { id: a.service.id }, b.admin), 404, "ERR_APPOINTMENT_SERVICE_NOT_FOUND");
    expectError(await t.api.post("/appointments/services", { name: "x", duration: 10, price: 1, users: [a.agent.userId] }, b.admin), 404, "ERR_USER_NOT_FOUND");
    expectError(await t.api.get(`/appointments/templates?connectionId=${a.conn}`, b.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expectError(await t.api.post("/appointments", { ...base(), serviceId: b.service.id }, a.admin), 404, "ERR_APPOINTMENT_SERVICE_NOT_FOUND");
    expectError(await t.api.post("/appointments", { ...base(), contactId: b.contacts[0] }, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
    expectError(await t.api.post("/appointments", { ...base(), userId: b.agent.userId }, a.admin), 404, "ERR_USER_NOT_FOUND");
    expectError(await t.api.post("/appointments", { ...base(), connectionId: b.conn }, a.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    expect(await ok(t.api.get(`/appointments/one?id=${mine.id}`, a.admin))).toMatchObject({ message: mine.message, status: "scheduled" });
  });

  it("stores an attachment among the tenant's files; an empty one is refused", async () => {
    const f = await ok(t.api.post("/appointments/attachment", { file: { fileName: "preparo.pdf", mimeType: "application/pdf", data: Buffer.from("%PDF-1.4 preparo").toString("base64") } }, a.agent));
    expect(f).toMatchObject({ fileName: "preparo.pdf", mimeType: "application/pdf", size: 16 });
    expectError(await t.api.post("/appointments/attachment", { file: { fileName: "vazio.pdf", mimeType: "application/pdf", data: "" } }, a.agent), 400, "ERR_NO_FILE_UPLOADED");
    const m = await ok(t.api.post("/appointments", { ...base(), attachment: { path: f.path, mimeType: f.mimeType, fileName: f.fileName } }, a.agent), 201);
    expect(m.attachment).toEqual({ path: f.path, mimeType: "application/pdf", fileName: "preparo.pdf" });
  });
});
