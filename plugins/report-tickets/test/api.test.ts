/**
 * The tickets/SLA report against a real core on MariaDB. The tenant's tickets exist before the
 * plugin is allowed (created, closed, their times set in the core's database to instants of
 * March 2026), so the first report query backfills them through the core API; the figures are
 * checked against hand-computed answers; new tickets and contact renames arrive by events; the
 * SLA cards move as the plugin's clock passes the thresholds (no sleeps); Excel and PDF are read
 * back; another tenant reaches nothing of this one's.
 */
import ExcelJS from "exceljs";
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { pdfText } from "@openatende/report-kit/src/pdf-text";
import { download, expectError, MIN, ok, pluginService, seedOf, setTimes, waitFor } from "./kit";

jest.setTimeout(240_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
/** A tenant with more tickets than one page of the core API (100) before the plugin. */
let big: TenantFixture;
const BIG = 103;
const T = Date.UTC(2026, 2, 10, 12, 0); // 10 Mar 2026 12:00 UTC
const ids = {} as Record<"t1" | "t2" | "t3" | "t4" | "t5" | "t6" | "ana" | "carla" | "diego" | "bTicket", number>;
const march = "from=2026-03-01&to=2026-03-31&tz=UTC";

type Row = { id: number; protocol: string | null; status: string; contact: { name: string; number: string | null }; queue: { name: string } | null; user: { name: string } | null; sla: string | null; durationMs: number };
const rows = (who: Auth, q = march) => ok<{ rows: Row[]; hasMore: boolean }>(t.api.get(`/relatorios/tickets/rows?${q}`, who));
const summary = (who: Auth, q = march) => ok<any>(t.api.get(`/relatorios/tickets/summary?${q}`, who));

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `report-tickets-${uid()}` } });
  const sup = await createSuper(t);
  [a, b, free, big] = await Promise.all([createTenant(t, { tier: "BASIC" }), createTenant(t, { tier: "BASIC" }), createTenant(t), createTenant(t, { tier: "BASIC" })]);
  await ok(t.api.put("/settings/sla", { value: { green: 30, yellow: 60, red: 120 } }, a.admin));

  // Tenant A's history, before the plugin exists for it.
  const s = await seedOf(t, a);
  const [q1, q2] = a.queueIds;
  ids.ana = await s.contact("Анна Сергеевна", "5511900000001");
  const bruno = await s.contact("Bruno Dias", "5511900000002");
  ids.carla = await s.contact("Carla Nunes", "5511900000003");
  ids.diego = await s.contact("Diego Melo", "5511900000004");
  const eva = await s.contact("Eva Lima", "5511900000005");
  ids.t1 = await s.ticket(ids.ana, { queueId: q1, status: "closed" });
  ids.t2 = await s.ticket(bruno, { queueId: q2, status: "closed" });
  ids.t3 = await s.ticket(ids.carla, { queueId: q1, status: "closed" });
  ids.t4 = await s.ticket(ids.diego, { queueId: q1, status: "open", userId: a.agent.userId });
  ids.t5 = await s.ticket(eva, { queueId: q2, status: "pending" });
  ids.t6 = await s.ticket(ids.ana, { queueId: q1, status: "closed" });
  await setTimes(t, [
    { id: ids.t1, createdAt: T, closedAt: T + 20 * MIN }, // on time
    { id: ids.t2, createdAt: T + 60 * MIN, closedAt: T + 105 * MIN }, // 45 min: attention
    { id: ids.t3, createdAt: T + 120 * MIN, closedAt: T + 270 * MIN }, // 150 min: overdue
    { id: ids.t4, createdAt: T + 24 * 60 * MIN }, // 11 Mar, in service
    { id: ids.t5, createdAt: T + 48 * 60 * MIN }, // 12 Mar, pending
    { id: ids.t6, createdAt: Date.UTC(2026, 3, 2, 9), closedAt: Date.UTC(2026, 3, 2, 9, 10) }, // April: outside March
  ]);
  const sb = await seedOf(t, b);
  ids.bTicket = await sb.ticket(await sb.contact("Outra Empresa", "5511900000009"), { status: "open" });

  const sc = await seedOf(t, big);
  for (let i = 0; i < BIG; i += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, BIG - i) }, async (_, k) => {
        const n = i + k;
        await sc.ticket(await sc.contact(`Cliente ${n}`, `55119200${String(n).padStart(5, "0")}`), { status: n % 2 ? "closed" : "pending" });
      }),
    );
  }

  for (const f of [a, b, free, big]) await ok(t.api.put(`/plugins/report-tickets/tenants/${f.tenantId}`, { allowed: true }, sup));
  await waitFor("the report's routes", () => t.api.get(`/relatorios/tickets/options`, a.supervisor), (r) => r.status === 200);
});

afterAll(async () => {
  await t?.stop();
});

describe("the tickets/SLA report", () => {
  it("backfills a tenant that had tickets before the plugin, and lists the period's newest first", async () => {
    const r = await rows(a.supervisor);
    expect(r.hasMore).toBe(false);
    expect(r.rows.map((x) => x.id)).toEqual([ids.t5, ids.t4, ids.t3, ids.t2, ids.t1]);
    const byId = new Map(r.rows.map((x) => [x.id, x]));
    expect(byId.get(ids.t1)).toMatchObject({ status: "closed", contact: { name: "Анна Сергеевна", number: "5511900000001" }, queue: { name: "Suporte" }, sla: "onTime", durationMs: 20 * MIN });
    expect(byId.get(ids.t2)).toMatchObject({ queue: { name: "Vendas" }, sla: "attention", durationMs: 45 * MIN });
    expect(byId.get(ids.t3)).toMatchObject({ sla: "overdue", durationMs: 150 * MIN });
    expect(byId.get(ids.t4)).toMatchObject({ status: "open", user: { name: "Agent" } });
    // Load more: pages of 2.
    const p1 = await rows(a.supervisor, `${march}&limit=2&page=1`);
    const p3 = await rows(a.supervisor, `${march}&limit=2&page=3`);
    expect([p1.rows.length, p1.hasMore, p3.rows.map((x) => x.id), p3.hasMore]).toEqual([2, true, [ids.t1], false]);
  });

  it("backfills past the core API's first page (a tenant with more than 100 tickets)", async () => {
    const s = await summary(big.supervisor, "tz=UTC");
    expect(s).toMatchObject({ total: BIG, closed: Math.floor(BIG / 2), pending: Math.ceil(BIG / 2) });
    const all = new Set<number>();
    for (let page = 1; ; page++) {
      const r = await rows(big.supervisor, `tz=UTC&limit=40&page=${page}`);
      r.rows.forEach((x) => all.add(x.id));
      if (!r.hasMore) break;
    }
    expect(all.size).toBe(BIG);
  });

  it("counts the cards by hand: closed on time / attention / overdue, in progress, total, resolution rate, open and pending", async () => {
    const svc = pluginService(t);
    svc.clock = { now: () => T + 48 * 60 * MIN + 10 * MIN }; // 12 Mar 12:10: T5 waited 10 min, T4 a day
    const s = await summary(a.supervisor);
    expect(s).toMatchObject({
      total: 5,
      closed: 3,
      open: 1,
      pending: 1,
      inProgress: 2,
      resolutionRate: 0.6,
      sla: { green: 30, yellow: 60, red: 120 },
      closedSla: { onTime: 1, attention: 1, overdue: 1 },
      inProgressSla: { onTime: 1, attention: 0, overdue: 1 },
      avgResolutionMs: Math.round(((20 + 45 + 150) * MIN) / 3),
      nextChangeAt: T + 48 * 60 * MIN + 30 * MIN + 1,
    });
  });

  it("moves the in-progress cards as the clock passes the thresholds", async () => {
    const svc = pluginService(t);
    const created5 = T + 48 * 60 * MIN;
    const at = async (ms: number) => {
      svc.clock = { now: () => ms };
      return (await summary(a.supervisor)).inProgressSla;
    };
    expect(await at(created5 + 30 * MIN)).toEqual({ onTime: 1, attention: 0, overdue: 1 });
    expect(await at(created5 + 30 * MIN + 1)).toEqual({ onTime: 0, attention: 1, overdue: 1 });
    expect(await at(created5 + 120 * MIN - 1)).toEqual({ onTime: 0, attention: 1, overdue: 1 });
    expect(await at(created5 + 120 * MIN)).toEqual({ onTime: 0, attention: 0, overdue: 2 });
    // Closed tickets keep their class whatever the clock says.
    expect((await summary(a.supervisor)).closedSla).toEqual({ onTime: 1, attention: 1, overdue: 1 });
    svc.clock = { now: () => Date.now() };
  });

  it("filters by status, queue and attendant, and searches by protocol, name, ticket and phone", async () => {
    const idsOf = async (q: string) => (await rows(a.supervisor, `${march}&${q}`)).rows.map((x) => x.id).sort((x, y) => x - y);
    expect(await idsOf("status=closed")).toEqual([ids.t1, ids.t2, ids.t3]);
    expect(await idsOf("status=open,pending")).toEqual([ids.t4, ids.t5]);
    expect(await idsOf(`queueIds=${a.queueIds[1]}`)).toEqual([ids.t2, ids.t5]);
    expect(await idsOf(`userIds=${a.agent.userId}`)).toEqual([ids.t4]);
    expect(await idsOf("search=Carla")).toEqual([ids.t3]);
    expect(await idsOf("search=5511900000004")).toEqual([ids.t4]);
    expect(await idsOf(`search=${ids.t2}`)).toEqual([ids.t2]);
    const protocol = (await rows(a.supervisor)).rows.find((x) => x.id === ids.t3)!.protocol!;
    expect(protocol).toBeTruthy();
    expect(await idsOf(`search=${encodeURIComponent(protocol)}`)).toEqual([ids.t3]);
    expect(await idsOf("search=ninguem-com-este-nome")).toEqual([]);
    // Cards follow the filters.
    expect(await summary(a.supervisor, `${march}&queueIds=${a.queueIds[0]}`)).toMatchObject({ total: 3, closed: 2, open: 1, pending: 0 });
    // The ticket of April is only in April.
    expect((await rows(a.supervisor, "from=2026-04-01&to=2026-04-30&tz=UTC")).rows.map((x) => x.id)).toEqual([ids.t6]);
  });

  it("keeps current by events: a new ticket in this month (the default period), its closing, a contact's new name, a deletion", async () => {
    const s = await seedOf(t, a);
    const c = await s.contact("Fábio Ramos", "5511900000006");
    const fresh = await s.ticket(c, { queueId: a.queueIds[0], status: "open" });
    await waitFor("the new ticket in this month's report", () => rows(a.supervisor, "tz=UTC"), (r) => r.rows.some((x) => x.id === fresh && x.status === "open"));
    await ok(t.api.put(`/tickets/${fresh}`, { status: "closed" }, a.admin));
    await waitFor("its closing", () => rows(a.supervisor, "tz=UTC"), (r) => r.rows.some((x) => x.id === fresh && x.status === "closed"));
    await ok(t.api.put(`/contacts/${ids.carla}`, { name: "Carla Nunes Prado", number: "5511900000003" }, a.admin));
    await waitFor("the contact's new name", () => rows(a.supervisor), (r) => r.rows.some((x) => x.id === ids.t3 && x.contact.name === "Carla Nunes Prado"));
    expect((await ok(t.api.del(`/tickets/${fresh}`, a.admin), 200)) ?? true).toBeTruthy();
    await waitFor("the deletion", () => rows(a.supervisor, "tz=UTC"), (r) => !r.rows.some((x) => x.id === fresh));
  });

  it("exports the selection as Excel and PDF, read back (Cyrillic included)", async () => {
    const x = await download(t, `/relatorios/tickets/export?${march}&format=xlsx`, a.supervisor);
    expect(x.status).toBe(200);
    expect(x.headers.get("content-type")).toContain("spreadsheetml");
    expect(x.headers.get("content-disposition")).toContain("filename*=UTF-8''Relat%C3%B3rio%20de%20tickets%202026-03-01%202026-03-31.xlsx");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(3).values).toEqual([undefined, "Ticket", "Protocolo", "Contato", "Telefone", "Fila", "Atendente", "Status", "Abertura", "Fechamento", "Tempo (min)", "SLA"]);
    const data = [4, 5, 6, 7, 8].map((n) => ws.getRow(n).values as unknown[]);
    expect(data.map((v) => v[1])).toEqual([ids.t5, ids.t4, ids.t3, ids.t2, ids.t1]);
    // Closed by the admin: the ticket is the admin's.
    expect(data[4].slice(3, 8)).toEqual(["Анна Сергеевна", "5511900000001", "Suporte", "Admin", "Fechado"]);
    expect(data[4][10]).toBe(20);
    // Dates as the reader's wall clock (tz=UTC here): 10 Mar 12:00 opened, 12:20 closed.
    expect([(data[4][8] as Date).getTime(), (data[4][9] as Date).getTime()]).toEqual([T, T + 20 * MIN]);
    expect(data[4][11]).toBe("No prazo");
    expect(data[3][11]).toBe("Atenção");
    expect(data[2][11]).toBe("Atrasado");

    const p = await download(t, `/relatorios/tickets/export?${march}&format=pdf`, a.supervisor, "ru");
    expect(p.status).toBe(200);
    expect(p.headers.get("content-type")).toBe("application/pdf");
    expect(p.headers.get("content-disposition")).toContain("filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82");
    const text = (await pdfText(p.body)).pages.join("\n");
    expect(text).toContain("Отчёт по тикетам");
    expect(text).toContain("Анна Сергеевна");
    expect(text).toContain("Просрочен");
    expect(text).toContain("150,00");
    expect(text).toContain("10/03/2026 12:20");
  });

  it("shows a ticket's conversation in the chat view", async () => {
    const r = await ok(t.api.get(`/relatorios/tickets/messages?ticketId=${ids.t1}`, a.supervisor));
    expect(r.ticket).toMatchObject({ id: ids.t1, status: "closed" });
    expect(Array.isArray(r.rows)).toBe(true);
  });

  it("rebuilds the projection for admins only", async () => {
    expectError(await t.api.post("/relatorios/tickets/rebuild", {}, a.supervisor), 403, "ERR_NO_PERMISSION");
    const st = await ok(t.api.post("/relatorios/tickets/rebuild", {}, a.admin));
    expect(st).toMatchObject({ status: "ready", rows: 6 });
    expect((await rows(a.supervisor)).rows.map((x) => x.id)).toEqual([ids.t5, ids.t4, ids.t3, ids.t2, ids.t1]);
  });

  it("keeps tenants apart: another tenant's ticket is not found and its report holds only its own", async () => {
    expectError(await t.api.get(`/relatorios/tickets/messages?ticketId=${ids.t1}`, b.supervisor), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await t.api.get(`/relatorios/tickets/messages?ticketId=${ids.bTicket}`, a.supervisor), 404, "ERR_TICKET_NOT_FOUND");
    expect((await rows(b.supervisor, "tz=UTC")).rows.map((x) => x.id)).toEqual([ids.bTicket]);
    expect((await rows(b.supervisor)).rows).toEqual([]);
    expect((await rows(b.supervisor, `${march}&search=${ids.t1}`)).rows).toEqual([]);
    expect(await summary(b.supervisor)).toMatchObject({ total: 0, resolutionRate: null });
    const x = await download(t, `/relatorios/tickets/export?${march}&format=xlsx`, b.supervisor);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    expect(wb.worksheets[0].rowCount).toBe(3);
  });

  it("refuses what is not a query with its code, agents, and tenants below BASIC", async () => {
    expectError(await t.api.get("/relatorios/tickets/rows?from=2026-03-10&to=2026-03-01", a.supervisor), 400, "ERR_REPORT_TICKETS_PERIOD_INVALID");
    expectError(await t.api.get("/relatorios/tickets/rows?tz=Mars/Olympus", a.supervisor), 400, "ERR_REPORT_TICKETS_PERIOD_INVALID");
    expect((await t.api.get("/relatorios/tickets/rows?status=archived", a.supervisor)).status).toBe(400);
    expect((await t.api.get("/relatorios/tickets/export?format=csv", a.supervisor)).status).toBe(400);
    expect((await t.api.get("/relatorios/tickets/messages?ticketId=abc", a.supervisor)).status).toBe(400);
    expectError(await t.api.get("/relatorios/tickets/rows", a.agent), 403, "ERR_NO_PERMISSION");
    const r = await t.api.get("/relatorios/tickets/rows", free.admin);
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/^ERR_(LICENSE|PLUGIN)_/);
  });
});
