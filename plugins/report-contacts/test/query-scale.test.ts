/**
 * The contact reports' reads at scale, on MariaDB (the plugin's own tables, migrated as the host
 * does), with contacts written as the backfill writes them: the list, the states and the tags
 * pages read by name a batch of name buckets at a time — every contact once, in the same order
 * page by page as in the export, no query holding more than a chunk, an OFFSET only within one
 * bucket — and their counts. REPORT_CONTACTS_SCALE=100000 runs it on 100,000 contacts and prints
 * the figures as JSON (default 4,000).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PlatformContact, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { countedTenant, keysOf } from "@openatende/report-kit/src/counted-finds";
import { nameBucket, NO_BUCKET } from "../src/buckets";
import { writeContacts, type ContactRow } from "../src/projection";
import { allOf, pageOf, statesOf, summaryOf, type Selection } from "../src/query";

jest.setTimeout(1_800_000);

const N = Number(process.env.REPORT_CONTACTS_SCALE || 4000);
const TENANT = 51;
const CHUNK = 250;
const FIRST = ["Ana", "Álvaro", "Bruno", "Carla", "Çelik", "Diego", "Elisa", "Fábio", "Zé", "Ольга", "Юрий", "Дмитрий", "42 Comércio", "ana", "Hélio"];
const STATES = ["SP", "RJ", "MG", null];
const TAGS = [7, 8, 9];

let db: TestPluginDatabase;
let data: PluginData;
let live: PlatformContact[] = [];

function contact(i: number): PlatformContact {
  const name = `${FIRST[i % FIRST.length]} ${String((i * 7919) % N).padStart(6, "0")}`;
  const tags = TAGS.filter((t, k) => i % (k + 2) === 0).map((id) => ({ id, name: `T${id}`, color: "#000" }));
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return { id: i + 1, name, number: `55119${String(i).padStart(8, "0")}`, email: null, state: STATES[i % STATES.length], createdAt: at, updatedAt: at, isGroup: false, tags } as unknown as PlatformContact;
}

async function ids(it: AsyncGenerator<ContactRow>): Promise<number[]> {
  const out: number[] = [];
  for await (const r of it) out.push(r.id);
  return out;
}

const folded = (s: string) => s.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();

beforeAll(async () => {
  db = await testPluginDatabase("mysql");
  data = await openPluginDataAt(db.address);
  await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
  const tenant = data.forTenant(TENANT);
  const all = Array.from({ length: N }, (_, i) => contact(i));
  for (let i = 0; i < all.length; i += 1000) await writeContacts(tenant, all.slice(i, i + 1000));
  // A few deleted ones stay out, and another tenant's contacts with the same names too.
  await writeContacts(tenant, all.slice(0, 30).map((c) => ({ ...c, updatedAt: new Date(Date.UTC(2027, 0, 1)).toISOString() })));
  await tenant.table("contacts").update({ id: all.slice(0, 30).map((c) => c.id) }, { deleted: true });
  await tenant.table("contact_tags").delete({ contactId: all.slice(0, 30).map((c) => c.id) });
  live = all.slice(30);
  await writeContacts(data.forTenant(TENANT + 1), all.slice(0, 500));
});

afterAll(async () => {
  await data?.close();
  await db?.drop();
});

describe(`the contact reports over ${N} contacts`, () => {
  const figures: Record<string, unknown> = { contacts: N, chunk: CHUNK };

  afterAll(() => {
    if (N >= 20_000) {
      const out = { ...figures, loadavg: fs.readFileSync("/proc/loadavg", "utf8").trim() };
      process.stdout.write(`${JSON.stringify(out)}\n`);
    }
  });

  it("exports the list by name, every contact once, a chunk a query at most, an OFFSET only within one bucket", async () => {
    const { tenant, finds } = countedTenant(data.forTenant(TENANT));
    const started = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const got = await ids(allOf(tenant, { kind: "list" }, CHUNK));
    figures.exportMs = Number(process.hrtime.bigint() - started) / 1e6;
    figures.exportCpuMs = Math.round(process.cpuUsage(cpu).user / 1000);
    figures.exportQueries = finds.length;
    expect([...got].sort((a, b) => a - b)).toEqual(live.map((c) => c.id));
    const byId = new Map(live.map((c) => [c.id, c.name]));
    const names = got.map((id) => byId.get(id)!);
    // By name: the buckets never go back, and within one the first two letters never do.
    for (let i = 1; i < names.length; i++) {
      expect(nameBucket(names[i])).toBeGreaterThanOrEqual(nameBucket(names[i - 1]));
    }
    expect(folded(names[0]).startsWith("42")).toBe(true);
    expect(names.findIndex((n) => n.startsWith("Ана") || n.startsWith("Ол"))).toBeGreaterThan(names.findIndex((n) => n.startsWith("Zé")));
    expect(Math.max(...finds.map((f) => f.rows))).toBeLessThanOrEqual(CHUNK);
    expect(Math.max(...finds.map((f) => f.limit))).toBeLessThanOrEqual(CHUNK);
    // A read of one bucket names it with NO_BUCKET (the planner then keeps to the bucket's index).
    const one = finds.filter((f) => f.offset > 0);
    expect(one.length).toBeGreaterThan(0);
    expect(one.every((f) => keysOf(f, "bucket") === 2 && (f.where.bucket as number[]).includes(NO_BUCKET))).toBe(true);
    expect(finds.reduce((n, f) => n + f.rows, 0)).toBe(got.length);
  });

  it("pages in the export's order: a page far down is read by counting earlier batches, not rows", async () => {
    const order = await ids(allOf(data.forTenant(TENANT), { kind: "list" }, CHUNK));
    const last = Math.ceil(order.length / 50);
    for (const page of [1, 2, Math.floor(last / 2), last]) {
      const { tenant, finds } = countedTenant(data.forTenant(TENANT));
      const started = process.hrtime.bigint();
      const r = await pageOf(tenant, { kind: "list" }, page, 50);
      if (page === last) figures.lastPageMs = Number(process.hrtime.bigint() - started) / 1e6;
      expect(r.rows.map((x) => x.id)).toEqual(order.slice((page - 1) * 50, page * 50));
      expect(r.hasMore).toBe(page < last);
      // One read of rows (two where a page straddles batches), never the rows before.
      expect(finds.reduce((n, f) => n + f.rows, 0)).toBeLessThanOrEqual(51 * 3);
    }
  });

  it("the tags page: each contact with any chosen tag once, pages joined as the export, the counts", async () => {
    const sel: Selection = { kind: "tags", tagIds: [7, 8] };
    const want = live.filter((c) => c.tags.some((t) => t.id === 7 || t.id === 8)).map((c) => c.id);
    const { tenant, finds } = countedTenant(data.forTenant(TENANT));
    const got = await ids(allOf(tenant, sel, CHUNK));
    expect([...got].sort((a, b) => a - b)).toEqual(want);
    expect(Math.max(...finds.map((f) => f.rows))).toBeLessThanOrEqual(CHUNK);
    const pages: number[] = [];
    for (let page = 1; page <= 3; page++) pages.push(...(await pageOf(data.forTenant(TENANT), sel, page, 40)).rows.map((r) => r.id));
    expect(pages).toEqual(got.slice(0, 120));
    const started = process.hrtime.bigint();
    const s = await summaryOf(data.forTenant(TENANT), sel);
    figures.tagsSummaryMs = Number(process.hrtime.bigint() - started) / 1e6;
    expect(s).toEqual({ total: want.length, groups: [7, 8].map((id) => ({ key: String(id), count: live.filter((c) => c.tags.some((t) => t.id === id)).length })) });
  });

  it("the states page and the states' choices count every live contact", async () => {
    const sel: Selection = { kind: "states", states: ["SP", "MG"] };
    const got = await ids(allOf(data.forTenant(TENANT), sel, CHUNK));
    expect([...got].sort((a, b) => a - b)).toEqual(live.filter((c) => c.state === "SP" || c.state === "MG").map((c) => c.id));
    const count = (st: string) => live.filter((c) => c.state === st).length;
    expect(await summaryOf(data.forTenant(TENANT), sel)).toEqual({ total: got.length, groups: [{ key: "SP", count: count("SP") }, { key: "MG", count: count("MG") }] });
    const started = process.hrtime.bigint();
    expect(await statesOf(data.forTenant(TENANT))).toEqual(["MG", "RJ", "SP"].map((state) => ({ state, count: count(state) })));
    figures.statesMs = Number(process.hrtime.bigint() - started) / 1e6;
  });
});
