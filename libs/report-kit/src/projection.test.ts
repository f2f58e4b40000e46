/**
 * The projection's life on a real plugin database (SQLite in a temp folder; the same repository
 * runs on MariaDB in the plugins' integration tests): one backfill per tenant however many
 * queries arrive at once, events applied once each and only for tenants being projected, a
 * query that outwaits a long backfill told so, a rebuild starting from empty, a dead node's
 * marker taken over.
 */
import { openPluginDataAt, PluginError, runPluginMigrations, testPluginDatabase, type CoreApi, type PlatformEventEnvelope, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { progressPercent, Projection, PROJECTION_MIGRATION, PROJECTION_PROGRESS_MIGRATION, type BackfillRun, type ProjectionSource } from "./projection";

const ROWS = { name: "0001-rows", up: (s: Parameters<typeof PROJECTION_MIGRATION.up>[0]) => s.createTable("rows", { columns: { id: { type: "integer" }, v: { type: "string" } }, primaryKey: ["id"] }) };

let db: TestPluginDatabase;
let data: PluginData;

beforeAll(async () => {
  db = await testPluginDatabase("sqlite");
  data = await openPluginDataAt(db.address);
  await runPluginMigrations(data, [PROJECTION_MIGRATION, PROJECTION_PROGRESS_MIGRATION, ROWS]);
});
afterAll(async () => {
  await data.close();
  await db.drop();
});

function source(rowsOf: (tenantId: number) => number, gate?: Promise<void>): ProjectionSource & { runs: number } {
  const s = {
    name: "rows",
    runs: 0,
    clear: async (t: Parameters<ProjectionSource["clear"]>[0]) => void (await t.table("rows").delete({})),
    async backfill(run: BackfillRun) {
      s.runs++;
      const n = rowsOf(run.tenantId);
      // The first page, then the rest once the gate opens.
      await run.tenant.table("rows").upsert({ id: 1, v: "backfill" });
      await run.progress(1, { seen: 1, expected: n });
      if (gate) await gate;
      for (let i = 2; i <= n; i++) await run.tenant.table("rows").upsert({ id: i, v: "backfill" });
      await run.progress(n - 1, { seen: n, expected: n });
      return n;
    },
  };
  return s;
}

const api = () => ({}) as CoreApi;
const event = (tenantId: number, id: string): PlatformEventEnvelope => ({ id, event: "ticket.deleted", tenantId, at: Date.now(), data: { ticketId: 1 } });

describe("projection", () => {
  it("backfills a tenant once however many queries arrive at once, then applies each event once", async () => {
    const src = source(() => 3);
    const p = new Projection(data, src, api, { codePrefix: "ERR_T" });
    expect(await p.onEvent(event(1, "e0"), async () => undefined)).toBe("untracked");
    await Promise.all([p.ready(1), p.ready(1), p.ready(1)]);
    expect(src.runs).toBe(1);
    expect(await data.forTenant(1).table("rows").count()).toBe(3);
    expect(await p.state(1)).toMatchObject({ status: "ready", rows: 3 });
    // Another node (another Projection on the same data) finds it ready.
    const other = new Projection(data, src, api, { codePrefix: "ERR_T" });
    await other.ready(1);
    expect(src.runs).toBe(1);

    const apply = (v: string) => async (tx: Parameters<Parameters<Projection["onEvent"]>[1]>[0]) => void (await tx.table("rows").upsert({ id: 9, v }));
    expect(await p.onEvent(event(1, "e1"), apply("first"))).toBe("applied");
    expect(await other.onEvent(event(1, "e1"), apply("again"))).toBe("duplicate");
    expect(await data.forTenant(1).table("rows").get({ id: 9 })).toEqual({ id: 9, v: "first" });
    // A failed apply records nothing: the redelivery applies it.
    await expect(p.onEvent(event(1, "e2"), async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await p.onEvent(event(1, "e2"), apply("retried"))).toBe("applied");
    // Tenants never see each other's rows or markers.
    expect(await p.state(2)).toBeNull();
    expect(await data.forTenant(2).table("rows").count()).toBe(0);
  });

  it("tells a query that outwaits the backfill, and lets the next one through", async () => {
    let open!: () => void;
    const src = source(() => 4, new Promise<void>((r) => (open = r)));
    const p = new Projection(data, src, api, { codePrefix: "ERR_T", waitMs: 150 });
    const err = await p.ready(3).catch((e) => e);
    expect(err).toBeInstanceOf(PluginError);
    expect(err.type).toBe("ERR_T_PROJECTION_BUILDING");
    expect(err.code).toBe(503);
    // One page of four read: the screens say 25 %.
    expect(err.data).toEqual({ rows: 1, percent: 25 });
    expect(await p.state(3)).toMatchObject({ status: "running", seen: 1, expected: 4 });
    await expect(p.rebuild(3)).rejects.toMatchObject({ type: "ERR_T_PROJECTION_BUSY", code: 409 });
    open();
    await p.ready(3);
    expect(await data.forTenant(3).table("rows").count()).toBe(4);
    expect(src.runs).toBe(1);
    expect(progressPercent((await p.state(3))!)).toBe(100);
  });

  it("counts progress in whole percent, at most 99 until ready, 0 when the source did not say", () => {
    expect(progressPercent(null)).toBe(0);
    expect(progressPercent({ status: "running", seen: 0, expected: 0 })).toBe(0);
    expect(progressPercent({ status: "running", seen: 333, expected: 1000 })).toBe(33);
    expect(progressPercent({ status: "running", seen: 1000, expected: 1000 })).toBe(99);
    expect(progressPercent({ status: "ready", seen: 0, expected: 0 })).toBe(100);
  });

  it("rebuilds from empty, and takes over the marker of a node that stopped beating", async () => {
    let n = 4;
    const src = source(() => n);
    let now = 1_000_000;
    const p = new Projection(data, src, api, { codePrefix: "ERR_T", now: () => now });
    await p.ready(4);
    await data.forTenant(4).table("rows").upsert({ id: 99, v: "stale" });
    n = 2;
    expect(await p.rebuild(4)).toMatchObject({ status: "ready", rows: 2 });
    expect((await data.forTenant(4).table("rows").find({})).map((r) => r.id)).toEqual([1, 2]);

    // A node that died mid-backfill: its marker stays "running" with an old beat.
    await data.forTenant(5).table("rk_state").insert({ name: "rows", status: "running", owner: "dead", startedAt: now, beatAt: now, finishedAt: null, rows: 0 });
    const q = new Projection(data, src, api, { codePrefix: "ERR_T", now: () => now, waitMs: 300 });
    await expect(q.ready(5)).rejects.toMatchObject({ type: "ERR_T_PROJECTION_BUILDING" });
    now += 61_000;
    await q.ready(5);
    expect(await q.state(5)).toMatchObject({ status: "ready", rows: 2 });
  });
});
