/**
 * The per-user statistics against a real core on MariaDB. Tenant A's tickets exist before the
 * plugin is allowed (their attendant, queue, status and instants set in the core's database to
 * March 2026), so the first query backfills them through the core API; every figure is checked
 * against a hand-computed answer; new tickets and deletions arrive by events; Excel and PDF are
 * read back; another tenant sees only its own.
 *
 * March 2026 (tz=UTC), by hand:
 *   Agent       t1 closed 20 min (Suporte), t2 closed 45 min (Vendas), t3 in service (Suporte)
 *               → pending 0, open 1, resolved 2, total 3; 20,00 / 45,00 / 32,50
 *   Supervisor  t4 closed 150 min, t5 pending (Suporte) → 1, 0, 1, 2; 150,00 / 150,00 / 150,00
 *   Admin       nothing → zeros
 *   nobody      t6 pending (Vendas) → 1, 0, 0, 1
 *   all         2, 1, 3, 6; 20,00 / 150,00 / 71,667 ((20+45+150)/3)
 *   t7 (Agent, closed 10 min) is in April.
 */
import ExcelJS from "exceljs";
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { pdfText } from "@openatende/report-kit/src/pdf-text";
import { download, expectError, MIN, ok, seedOf, setTickets, waitFor } from "./kit";

jest.setTimeout(240_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
const T = Date.UTC(2026, 2, 10, 12, 0);
const march = "from=2026-03-01&to=2026-03-31&tz=UTC";
type Line = { userId: number | null; name: string; pending: number; open: number; closed: number; total: number; shortestMs: number | null; text: { shortest: string; longest: string; average: string } };
const lines = (who: Auth, q = march) => ok<{ rows: Line[]; hasMore: boolean }>(t.api.get(`/relatorios/usuarios/rows?${q}`, who));
const summary = (who: Auth, q = march) => ok<any>(t.api.get(`/relatorios/usuarios/summary?${q}`, who));
const figures = (l: Line) => [l.name, l.pending, l.open, l.closed, l.total, l.text.shortest, l.text.longest, l.text.average];

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `report-users-${uid()}` } });
  const sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "BASIC" }), createTenant(t, { tier: "BASIC" }), createTenant(t)]);
  const s = await seedOf(t, a);
  const [q1, q2] = a.queueIds;
  const ids: number[] = [];
  for (let i = 1; i <= 7; i++) ids.push(await s.ticket(await s.contact(`Cliente ${i}`, `551193000000${i}`), { queueId: q1, status: "pending" }));
  const [agent, supervisor] = [a.agent.userId, a.supervisor.userId];
  await setTickets(t, [
    { id: ids[0], status: "closed", userId: agent, queueId: q1, createdAt: T, closedAt: T + 20 * MIN },
    { id: ids[1], status: "closed", userId: agent, queueId: q2, createdAt: T + 60 * MIN, closedAt: T + 105 * MIN },
    { id: ids[2], status: "open", userId: agent, queueId: q1, createdAt: T + 24 * 60 * MIN },
    { id: ids[3], status: "closed", userId: supervisor, queueId: q1, createdAt: T + 120 * MIN, closedAt: T + 270 * MIN },
    { id: ids[4], status: "pending", userId: supervisor, queueId: q1, createdAt: T + 48 * 60 * MIN },
    { id: ids[5], status: "pending", userId: null, queueId: q2, createdAt: T + 49 * 60 * MIN },
    { id: ids[6], status: "closed", userId: agent, queueId: q1, createdAt: Date.UTC(2026, 3, 2, 9), closedAt: Date.UTC(2026, 3, 2, 9, 10) },
  ]);
  const sb = await seedOf(t, b);
  await sb.ticket(await sb.contact("Outra Empresa", "5511900000009"), { status: "pending" });
  for (const f of [a, b, free]) await ok(t.api.put(`/plugins/report-users/tenants/${f.tenantId}`, { allowed: true }, sup));
  await waitFor("the report's routes", () => t.api.get(`/relatorios/usuarios/options`, a.supervisor), (r) => r.status === 200);
});

afterAll(async () => {
  await t?.stop();
});

describe("per-user service statistics", () => {
  it("backfills a tenant that had tickets before the plugin and counts each user by hand", async () => {
    const r = await lines(a.supervisor);
    expect(r.hasMore).toBe(false);
    expect(r.rows.map(figures)).toEqual([
      ["Admin", 0, 0, 0, 0, "", "", ""],
      ["Agent", 0, 1, 2, 3, "20,00", "45,00", "32,50"],
      ["Supervisor", 1, 0, 1, 2, "150,00", "150,00", "150,00"],
      ["Sem atendente", 1, 0, 0, 1, "", "", ""],
    ]);
    expect(r.rows[1]).toMatchObject({ userId: a.agent.userId, shortestMs: 20 * MIN });
    expect(await summary(a.supervisor)).toMatchObject({ pending: 2, open: 1, closed: 3, total: 6, shortestMs: 20 * MIN, longestMs: 150 * MIN, averageMs: Math.round((215 * MIN) / 3), text: { shortest: "20,00", longest: "150,00", average: "71,667" } });
    // The unassigned line in the reader's language.
    const en = await ok<{ rows: Line[] }>(t.api.get(`/relatorios/usuarios/rows?${march}`, a.supervisor, { "x-locale": "en" }));
    expect(en.rows.at(-1)!.name).toBe("No attendant");
  });

  it("filters by queue and period", async () => {
    expect((await lines(a.supervisor, `${march}&queueIds=${a.queueIds[1]}`)).rows.map(figures)).toEqual([
      ["Admin", 0, 0, 0, 0, "", "", ""],
      ["Agent", 0, 0, 1, 1, "45,00", "45,00", "45,00"],
      ["Supervisor", 0, 0, 0, 0, "", "", ""],
      ["Sem atendente", 1, 0, 0, 1, "", "", ""],
    ]);
    expect((await lines(a.supervisor, "from=2026-04-01&to=2026-04-30&tz=UTC")).rows.map(figures)[1]).toEqual(["Agent", 0, 0, 1, 1, "10,00", "10,00", "10,00"]);
    // 10 Mar only: t1, t2, t4.
    expect(await summary(a.supervisor, "from=2026-03-10&to=2026-03-10&tz=UTC")).toMatchObject({ pending: 0, open: 0, closed: 3, total: 3 });
    // The same day in São Paulo (UTC−3) starts three hours later: still t1, t2, t4 (12:00 UTC on).
    expect(await summary(a.supervisor, "from=2026-03-10&to=2026-03-10&tz=America/Sao_Paulo")).toMatchObject({ total: 3 });
  });

  it("keeps current by events: a ticket taken this month (the default period), then deleted", async () => {
    const s = await seedOf(t, a);
    const id = await s.ticket(await s.contact("Fábio Ramos", "5511900000016"), { queueId: a.queueIds[0], status: "pending" });
    await ok(t.api.put(`/tickets/${id}`, { status: "open", userId: a.agent.userId }, a.admin));
    const agentLine = async () => (await lines(a.supervisor, "tz=UTC")).rows.find((l) => l.userId === a.agent.userId)!;
    await waitFor("the ticket in service in this month's figures", agentLine, (l) => l.open === 1 && l.total === 1);
    await ok(t.api.del(`/tickets/${id}`, a.admin));
    await waitFor("the deletion", agentLine, (l) => l.total === 0);
  });

  it("exports the lines and the total as Excel and PDF, read back", async () => {
    const x = await download(t, `/relatorios/usuarios/export?${march}&format=xlsx`, a.supervisor);
    expect(x.status).toBe(200);
    expect(x.headers.get("content-disposition")).toContain("filename*=UTF-8''Estat%C3%ADsticas");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(3).values).toEqual([undefined, "Usuário", "Pendentes", "Em atendimento", "Resolvidos", "Total", "Menor tempo (min)", "Maior tempo (min)", "Tempo médio (min)"]);
    expect((ws.getRow(5).values as unknown[]).slice(1)).toEqual(["Agent", 0, 1, 2, 3, 20, 45, 32.5]);
    expect((ws.getRow(8).values as unknown[]).slice(1)).toEqual(["Total geral", 2, 1, 3, 6, 20, 150, 71.667]);

    const p = await download(t, `/relatorios/usuarios/export?${march}&format=pdf`, a.supervisor, "ru");
    expect(p.status).toBe(200);
    expect(p.headers.get("content-type")).toBe("application/pdf");
    const text = (await pdfText(p.body)).pages.join("\n");
    expect(text).toContain("Статистика обслуживания по пользователям");
    expect(text).toContain("Без оператора");
    expect(text).toContain("32,50");
    expect(text).toContain("71,667");
  });

  it("rebuilds the projection for admins only", async () => {
    expectError(await t.api.post("/relatorios/usuarios/rebuild", {}, a.supervisor), 403, "ERR_NO_PERMISSION");
    expect(await ok(t.api.post("/relatorios/usuarios/rebuild", {}, a.admin))).toMatchObject({ status: "ready", rows: 7 });
    expect((await summary(a.supervisor)).total).toBe(6);
  });

  it("keeps tenants apart: another tenant sees only its users and tickets, and A's queue selects none of its", async () => {
    const r = await lines(b.supervisor, "tz=UTC");
    expect(r.rows.map((l) => l.userId).filter((id) => id !== null)).toEqual(expect.arrayContaining([b.admin.userId, b.agent.userId]));
    expect(r.rows.some((l) => [a.admin.userId, a.agent.userId, a.supervisor.userId].includes(l.userId as number))).toBe(false);
    expect(await summary(b.supervisor, "tz=UTC")).toMatchObject({ total: 1, pending: 1 });
    expect(await summary(b.supervisor)).toMatchObject({ total: 0 });
    expect(await summary(b.supervisor, `tz=UTC&queueIds=${a.queueIds[0]}`)).toMatchObject({ total: 0 });
  });

  it("refuses a bad period with its code, agents, and tenants below BASIC", async () => {
    expectError(await t.api.get("/relatorios/usuarios/rows?from=2026-03-10&to=2026-03-01", a.supervisor), 400, "ERR_REPORT_USERS_PERIOD_INVALID");
    expectError(await t.api.get("/relatorios/usuarios/summary?from=2025-01-01&to=2026-03-01", a.supervisor), 400, "ERR_REPORT_USERS_PERIOD_INVALID");
    expectError(await t.api.get("/relatorios/usuarios/rows?from=2026-02-30", a.supervisor), 400, "ERR_REPORT_USERS_PERIOD_INVALID");
    expectError(await t.api.get("/relatorios/usuarios/rows?tz=Mars/Olympus", a.supervisor), 400, "ERR_REPORT_USERS_PERIOD_INVALID");
    expect((await t.api.get("/relatorios/usuarios/rows?queueIds=abc", a.supervisor)).status).toBe(400);
    expect((await t.api.get("/relatorios/usuarios/export?format=csv", a.supervisor)).status).toBe(400);
    expectError(await t.api.get("/relatorios/usuarios/rows", a.agent), 403, "ERR_NO_PERMISSION");
    const r = await t.api.get("/relatorios/usuarios/rows", free.admin);
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/^ERR_(LICENSE|PLUGIN)_/);
  });
});
