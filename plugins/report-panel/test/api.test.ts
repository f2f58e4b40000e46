/**
 * The live panel against a real core on MariaDB. Tenant A's tickets exist before the plugin is
 * allowed (status, queue and creation set in the core's database), so the first read backfills
 * them; the figures are checked by hand at the plugin's clock; ticket changes and agents going
 * offline and online arrive by events; another tenant sees only its own; refusals.
 *
 * A (Suporte q1: Admin, Supervisor, Agent; Vendas q2: Admin), all three logged in (online).
 * T = 10 Mar 2026 12:00 UTC, clock at T+60 min:
 *   q1  p1 pending since T, p2 pending since T+30, o1 in service, c1 closed
 *       → waiting 2, in service 1, longest 60 min (since T), online 3
 *   q2  p3 pending since T+10, o2 in service → 1, 1, 50 min, online 1
 *   no queue  p4 pending since T+50 → 1, 0, 10 min, online 0
 *   total → 4, 2, 60 min, online 3
 */
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { reportKitErrors } from "@openatende/report-kit";
import { expectError, MIN, ok, seedOf, setTickets, waitFor } from "../../report-users/test/kit";
import plugin, { CODE_PREFIX } from "../src/service";
import { holdPanelBackfill } from "./hold-backfill";
import { LOCALES, texts } from "../src/ui/texts";

jest.setTimeout(240_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
let ids: number[] = [];
const T = Date.UTC(2026, 2, 10, 12, 0);
interface Line {
  queueId: number | null;
  name: string;
  waiting: number;
  inService: number;
  oldestWaitingSince: number | null;
  longestWaitMs: number | null;
  agentsOnline: number;
}
type Board = { now: number; queues: Line[]; total: Omit<Line, "queueId" | "name"> };
const board = (who: Auth) => ok<Board>(t.api.get("/painel-atendimentos/board", who));
const figures = (l: Omit<Line, "queueId" | "name">) => [l.waiting, l.inService, l.longestWaitMs === null ? null : l.longestWaitMs / MIN, l.agentsOnline];
const byQueue = (r: Board) => Object.fromEntries(r.queues.map((l) => [l.queueId === null ? "none" : l.name, figures(l)]));
const clock = () => (t.core.broker.getLocalService({ name: "report-panel", version: 1 }) as unknown as { clock: { now(): number } }).clock;
const setClock = (ms: number) => Object.assign(clock(), { now: () => ms });
const holdBackfill = () => holdPanelBackfill(t.core.broker.getLocalService({ name: "report-panel", version: 1 }));

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `report-panel-${uid()}` } });
  const sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "BASIC" }), createTenant(t, { tier: "BASIC" }), createTenant(t)]);
  const s = await seedOf(t, a);
  const [q1, q2] = a.queueIds;
  for (let i = 1; i <= 7; i++) ids.push(await s.ticket(await s.contact(`Cliente ${i}`, `551193100000${i}`), { queueId: q1, status: "pending" }));
  await setTickets(t, [
    { id: ids[0], status: "pending", userId: null, queueId: q1, createdAt: T },
    { id: ids[1], status: "pending", userId: null, queueId: q1, createdAt: T + 30 * MIN },
    { id: ids[2], status: "open", userId: a.agent.userId, queueId: q1, createdAt: T - 90 * MIN },
    { id: ids[3], status: "closed", userId: a.agent.userId, queueId: q1, createdAt: T - 200 * MIN, closedAt: T - 100 * MIN },
    { id: ids[4], status: "pending", userId: null, queueId: q2, createdAt: T + 10 * MIN },
    { id: ids[5], status: "open", userId: a.admin.userId, queueId: q2, createdAt: T - 5 * MIN },
    { id: ids[6], status: "pending", userId: null, queueId: null, createdAt: T + 50 * MIN },
  ]);
  const sb = await seedOf(t, b);
  await sb.ticket(await sb.contact("Outra Empresa", "5511931000009"), { queueId: b.queueIds[1], status: "pending" });
  for (const f of [a, b, free]) await ok(t.api.put(`/plugins/report-panel/tenants/${f.tenantId}`, { allowed: true }, sup));
  await waitFor("the panel's route", () => t.api.get("/painel-atendimentos/board", b.supervisor), (r) => r.status === 200);
  setClock(T + 60 * MIN);
});

afterAll(async () => {
  await t?.stop();
});

describe("the live service panel", () => {
  it("backfills a tenant that had tickets before the plugin and counts each queue by hand", async () => {
    const r = await board(a.supervisor);
    expect(r.now).toBe(T + 60 * MIN);
    expect(byQueue(r)).toEqual({ Suporte: [2, 1, 60, 3], Vendas: [1, 1, 50, 1], none: [1, 0, 10, 0] });
    expect(r.queues.map((l) => l.queueId)).toEqual([...a.queueIds, null]);
    expect(r.queues[0].oldestWaitingSince).toBe(T);
    expect(figures(r.total)).toEqual([4, 2, 60, 3]);
    // The clock passes: the waits grow, the counts stay.
    setClock(T + 65 * MIN);
    const later = await board(a.supervisor);
    expect(byQueue(later)).toEqual({ Suporte: [2, 1, 65, 3], Vendas: [1, 1, 55, 1], none: [1, 0, 15, 0] });
    setClock(T + 60 * MIN);
  });

  it("follows tickets taken, arriving and deleted, and agents going offline and online, by events", async () => {
    const q1 = () => board(a.supervisor).then((r) => figures(r.queues[0]));
    // p1 taken by the agent: one fewer waiting, one more in service, the oldest now p2 (30 min).
    await ok(t.api.put(`/tickets/${ids[0]}`, { status: "open", userId: a.agent.userId }, a.admin));
    await waitFor("p1 in service", q1, (f) => f[0] === 1 && f[1] === 2);
    expect(await q1()).toEqual([1, 2, 30, 3]);
    // p2 deleted: nobody waits in Suporte.
    await ok(t.api.del(`/tickets/${ids[1]}`, a.admin));
    await waitFor("p2 deleted", q1, (f) => f[0] === 0);
    expect(await q1()).toEqual([0, 2, null, 3]);
    // A new ticket in Vendas waits too (created now, after the clock: a wait of 0).
    const s = await seedOf(t, a);
    await s.ticket(await s.contact("Nova Cliente", "5511931000077"), { queueId: a.queueIds[1], status: "pending" });
    const vendas = await waitFor("the new ticket", () => board(a.supervisor), (r) => r.queues[1].waiting === 2);
    expect(figures(vendas.queues[1])).toEqual([2, 1, 50, 1]);
    expect(figures(vendas.total)).toEqual([3, 3, 50, 3]);
    // The agent goes offline, then online again.
    await ok(t.api.put(`/users/${a.agent.userId}/status`, { status: "offline" }, a.agent));
    await waitFor("the agent offline", q1, (f) => f[3] === 2);
    expect((await board(a.supervisor)).total.agentsOnline).toBe(2);
    await ok(t.api.put(`/users/${a.agent.userId}/status`, { status: "online" }, a.agent));
    await waitFor("the agent online", q1, (f) => f[3] === 3);
  });

  it("rebuilds the projection to the same figures (admins only)", async () => {
    const before = await board(a.supervisor);
    expectError(await t.api.post("/painel-atendimentos/rebuild", {}, a.supervisor), 403, "ERR_NO_PERMISSION");
    expect((await ok(t.api.post("/painel-atendimentos/rebuild", {}, a.admin))).status).toBe("ready");
    expect(await board(a.supervisor)).toEqual(before);
  });

  it("while a rebuild fills the projection, answers how far it is (503 with its percent), then the live figures", async () => {
    const before = await board(a.supervisor);
    const gate = holdBackfill();
    const rebuilt = t.api.post("/painel-atendimentos/rebuild", {}, a.admin);
    const building = await waitFor("the rebuild under way", () => t.api.get("/painel-atendimentos/board", a.supervisor), (r) => r.status === 503);
    expectError(building, 503, "ERR_REPORT_PANEL_PROJECTION_BUILDING");
    expect(building.body.data).toMatchObject({ percent: 25 });
    gate.open();
    expect((await ok(rebuilt)).status).toBe("ready");
    expect(await board(a.supervisor)).toEqual(before);
  });

  it("keeps tenants apart and refuses agents and tenants below BASIC", async () => {
    const r = await board(b.supervisor);
    expect(r.queues.map((l) => l.queueId)).toEqual(b.queueIds);
    expect(byQueue(r)).toEqual({ Suporte: [0, 0, null, 3], Vendas: [1, 0, 0, 1] });
    expect(r.total.waiting).toBe(1);
    expectError(await t.api.get("/painel-atendimentos/board", a.agent), 403, "ERR_NO_PERMISSION");
    const f = await t.api.get("/painel-atendimentos/board", free.admin);
    expect(f.status).toBe(403);
    expect(f.body.error).toMatch(/^ERR_(LICENSE|PLUGIN)_/);
  });

  it("is a BASIC report for supervisors and admins at /painel-atendimentos, with the kit's projection codes and its texts in four languages", () => {
    expect(plugin.manifest).toMatchObject({ id: "report-panel", kind: "report", tier: "BASIC", profiles: ["supervisor", "admin"], ui: { routes: ["painel-atendimentos"] } });
    // The kit's projection codes (no period: the panel is now, not a period).
    const projection = Object.entries(reportKitErrors(CODE_PREFIX)).filter(([code]) => code.includes("_PROJECTION_"));
    expect(plugin.manifest.errors).toEqual(Object.fromEntries(projection));
    const keys = (o: object) => Object.keys(o).sort();
    for (const l of LOCALES) {
      expect(keys(texts[l])).toEqual(keys(texts["pt-BR"]));
      for (const v of Object.values(texts[l])) expect(String(v).trim()).not.toBe("");
    }
  });
});
