/**
 * `npm run bench:scheduler`: scheduled messages (plugins/module-scheduled-messages) firing on
 * the core's scheduler, on the real clock, through a real core (MariaDB, Redis, Bull) and the
 * benchmarks' channel, which records the time each send reaches it. Prints JSON and writes it
 * to scratch/bench-scheduler.json.
 *
 * Two runs on one installation: --messages messages (10,000) with due times spread evenly over
 * --spread-s seconds (60), created beforehand through POST /api/scheduled-messages (--lead-s
 * seconds before the first is due: 0 = estimated from the creation rate of a first batch);
 * then the same again with the core stopped in the middle of the spread and started again on
 * the same database and Redis. For each run: fire lateness (the channel's receive time − the
 * due time) p50/p95/max, double fires (a message handed over more than once), missed (never
 * handed over within --grace-s after the last due time), and the plugin's own statuses. In the
 * restart run the lateness of the messages due while the core was down is given apart.
 *
 * Load-independent figures beside the timings: the core process's CPU per fired message, and
 * the SQL statements per fired message, the core's and the plugins' own databases apart.
 *
 * The scheduler ticks every --tick-ms ms (1000, production's period). Other options:
 * --contacts 500 (the messages go round them), --create-concurrency 6.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { createConnection } from "mysql2/promise";
import { Sequelize } from "sequelize";
import { benchArg, cpuSampler, MYSQL, sleep, summarise } from "./common";
import { benchConnection, benchContacts, handed, outboundTenant, pool, startOutboundCore, stopOutboundCore, waitFor, type Auth, type OutboundCore } from "./outbound-kit";

const MESSAGES = benchArg("messages", 10_000);
const SPREAD_S = benchArg("spread-s", 60);
const LEAD_S = benchArg("lead-s", 0);
const GRACE_S = benchArg("grace-s", 60);
const CONTACTS = benchArg("contacts", 500);
const CREATE_CONCURRENCY = benchArg("create-concurrency", 6);
const TICK_MS = benchArg("tick-ms", 1000);
const VIA_API = benchArg("via-api", 0) !== 0;
const SEED_CONCURRENCY = 16;
const GOAL = { p95LatenessMs: 1000, doubleFires: 0, missed: 0 };
const PLUGIN = "module-scheduled-messages";

const now = () => performance.timeOrigin + performance.now();

/**
 * SQL statements while `on`: the core's through its Sequelize's `logging` (which its hot-path
 * statements go through too), the plugins' own databases through Sequelize's query (they share
 * the process and the Sequelize module).
 */
const sql = { on: false, core: 0, plugins: 0 };
const coreSequelizes = new WeakSet<object>();
const plainQuery = Sequelize.prototype.query;
(Sequelize.prototype as unknown as { query: unknown }).query = function (this: Sequelize, ...args: unknown[]) {
  if (sql.on && !coreSequelizes.has(this)) sql.plugins++;
  return (plainQuery as (...a: unknown[]) => unknown).apply(this, args);
};
function countCoreStatements(o: OutboundCore): void {
  const seq = o.t.core.deps.sequelize;
  coreSequelizes.add(seq);
  const options = (seq as unknown as { options: { logging: unknown } }).options;
  options.logging = () => {
    if (sql.on) sql.core++;
  };
}

interface Setup {
  tenantId: number;
  admin: Auth;
  userId: number;
  connectionId: number;
  contacts: number[];
}

/** Creates the run's messages (due evenly over the spread, from `t0`); answers how long that took. */
async function createMessages(o: OutboundCore, s: Setup, label: string, t0: number, from: number, to: number): Promise<number> {
  const started = now();
  const idx = Array.from({ length: to - from }, (_, k) => from + k);
  await pool(idx, CREATE_CONCURRENCY, async (i) => {
    const due = Math.round(t0 + (i * SPREAD_S * 1000) / MESSAGES);
    if (due <= Date.now() + 500) throw new Error(`message ${i} would be created ${Math.round(Date.now() - due)} ms before its due time: give a larger --lead-s`);
    const r = await o.t.api.post("/scheduled-messages", { body: `bench ${label} #${i}`, scheduleDate: due, contactId: s.contacts[i % s.contacts.length], connectionId: s.connectionId, userId: s.userId }, s.admin);
    if (r.status !== 201) throw new Error(`create ${i}: ${r.status} ${JSON.stringify(r.body)}`);
  });
  return now() - started;
}

const pluginDb = (o: OutboundCore) => createConnection({ ...MYSQL, database: `${o.t.store.dbName}__${PLUGIN.replace(/-/g, "_")}` });

/**
 * The quick way to the same state (default; --via-api 1 creates each through the API): rows
 * cloned from one the API created (the pilot's), inserted in bulk, and each one's job put on the
 * scheduler exactly as the plugin does (owner, name `fire`, key `message-<id>`, due time, data).
 */
async function seedMessages(o: OutboundCore, s: Setup, label: string, dueOf: (i: number) => number): Promise<number> {
  const started = now();
  const db = await pluginDb(o);
  const ids: number[] = [];
  try {
    const [tpl] = (await db.query("SELECT * FROM messages WHERE tenantId = ? AND body LIKE 'pilot #%' LIMIT 1", [s.tenantId])) as unknown as [Array<Record<string, unknown>>];
    if (!tpl[0]) throw new Error("no pilot message to clone");
    const cols = Object.keys(tpl[0]);
    const base = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
    for (let i = 0; i < MESSAGES; i += 1000) {
      const rows: unknown[][] = [];
      for (let k = i; k < Math.min(MESSAGES, i + 1000); k++) {
        const due = dueOf(k);
        const row: Record<string, unknown> = { ...tpl[0], id: base + k, body: `bench ${label} #${k}`, scheduleDate: due, nextAt: due, contactId: s.contacts[k % s.contacts.length], createdAt: Date.now(), updatedAt: Date.now() };
        rows.push(cols.map((c) => row[c]));
        ids.push(base + k);
      }
      await db.query(`INSERT INTO messages (${cols.map((c) => `\`${c}\``).join(", ")}) VALUES ?`, [rows]);
    }
  } finally {
    await db.end();
  }
  await pool(ids, SEED_CONCURRENCY, async (id, k) => {
    const at = dueOf(k);
    await o.t.core.broker.call("scheduler.schedule", { owner: PLUGIN, service: `v1.${PLUGIN}`, tenantId: s.tenantId, name: "fire", key: `message-${id}`, runAt: at, data: { id, at }, attempts: 3 });
  });
  return now() - started;
}

/** The plugin's own view: its messages by status (the pilot's 200 stay pending), and the errors of the failed ones. */
async function pluginStatuses(o: OutboundCore, tenantId: number, label: string): Promise<{ byStatus: Record<string, number>; errors: Record<string, number> }> {
  const db = await pluginDb(o);
  try {
    const [rows] = await db.query("SELECT status, COUNT(*) AS n FROM messages WHERE tenantId = ? AND body LIKE ? GROUP BY status", [tenantId, `bench ${label} #%`]);
    const [errs] = await db.query("SELECT errorMessage AS e, COUNT(*) AS n FROM messages WHERE tenantId = ? AND body LIKE ? AND errorMessage IS NOT NULL GROUP BY errorMessage", [tenantId, `bench ${label} #%`]);
    return {
      byStatus: Object.fromEntries((rows as Array<{ status: string; n: number }>).map((r) => [r.status, Number(r.n)])),
      errors: Object.fromEntries((errs as Array<{ e: string; n: number }>).map((r) => [String(r.e).slice(0, 120), Number(r.n)])),
    };
  } finally {
    await db.end();
  }
}

/** Creation time per message (ms), from a batch due tomorrow (they never fire during the bench). */
async function creationCost(o: OutboundCore, s: Setup): Promise<number> {
  const n = Math.min(VIA_API ? 200 : 30, MESSAGES);
  const started = now();
  await pool(Array.from({ length: n }, (_, i) => i), CREATE_CONCURRENCY, async (i) => {
    const r = await o.t.api.post("/scheduled-messages", { body: `pilot #${i}`, scheduleDate: Date.now() + 86_400_000, contactId: s.contacts[i % s.contacts.length], connectionId: s.connectionId, userId: s.userId }, s.admin);
    if (r.status !== 201) throw new Error(`create pilot ${i}: ${r.status} ${JSON.stringify(r.body)}`);
  });
  return (now() - started) / n;
}

interface Fire {
  i: number;
  due: number;
  at: number[];
}

async function run(box: { o: OutboundCore }, s: Setup, label: string, restart: boolean, msPerCreate: number) {
  const leadS = LEAD_S > 0 ? LEAD_S : VIA_API ? Math.ceil((MESSAGES * msPerCreate * 1.3) / 1000) + 5 : Math.ceil(MESSAGES / 400) + 10;
  const t0 = Date.now() + leadS * 1000;
  const dueOf = (i: number) => Math.round(t0 + (i * SPREAD_S * 1000) / MESSAGES);
  const createMs = VIA_API ? await createMessages(box.o, s, label, t0, 0, MESSAGES) : await seedMessages(box.o, s, label, dueOf);
  if (Date.now() > t0 - 1000) throw new Error(`creating the messages took ${Math.round(createMs)} ms, past the first due time: give a larger --lead-s`);
  const lastDue = dueOf(MESSAGES - 1);
  const from = ((await box.o.t.core.broker.call("v1.channel-bench-fixture.count")) as number) ?? 0;
  await sleep(Math.max(0, t0 - Date.now() - 1000));
  const cpuOf = cpuSampler()();
  const firstDueAt = now();
  Object.assign(sql, { on: true, core: 0, plugins: 0 });
  let downtime: { stoppedAt: number; readyAt: number; stopMs: number; startMs: number } | null = null;
  if (restart) {
    await sleep(Math.max(0, t0 + (SPREAD_S * 1000) / 2 - Date.now()));
    const stoppedAt = now();
    const store = box.o;
    await box.o.t.stop({ keep: true });
    const stopMs = now() - stoppedAt;
    box.o = await startOutboundCore([`v1.${PLUGIN}`], store, TICK_MS);
    countCoreStatements(box.o);
    const readyAt = now();
    downtime = { stoppedAt, readyAt, stopMs: Math.round(stopMs), startMs: Math.round(readyAt - stoppedAt - stopMs) };
  }
  // Until every message was handed over, or the grace after the last due time ran out.
  const expected = MESSAGES;
  const count = async () => ((await box.o.t.core.broker.call("v1.channel-bench-fixture.count")) as number) - from;
  await waitFor("every message handed over", count, (n) => n >= expected || Date.now() > lastDue + GRACE_S * 1000, (lastDue - Date.now()) + GRACE_S * 1000 + 10_000, 250).catch(() => undefined);
  await sleep(2000); // a double fire arriving just after the last one
  const cpu = cpuOf();
  sql.on = false;
  const fires = new Map<number, Fire>();
  let foreign = 0;
  const re = new RegExp(`^bench ${label} #(\\d+)$`);
  for (const h of await handed(box.o.t, from)) {
    const m = re.exec(h.body);
    if (!m) {
      foreign++;
      continue;
    }
    const i = Number(m[1]);
    const f = fires.get(i) ?? { i, due: dueOf(i), at: [] };
    f.at.push(h.at);
    fires.set(i, f);
  }
  const plugin = await pluginStatuses(box.o, s.tenantId, label);
  // What is still pending goes stale (cancelled), so the next run measures its own messages only.
  const db = await pluginDb(box.o);
  try {
    await db.query("UPDATE messages SET status = 'cancelled' WHERE tenantId = ? AND status = 'pending' AND body LIKE ?", [s.tenantId, `bench ${label} #%`]);
  } finally {
    await db.end();
  }
  const lateness = [...fires.values()].map((f) => f.at[0] - f.due);
  const doubles = [...fires.values()].filter((f) => f.at.length > 1);
  const missed = MESSAGES - fires.size;
  const lat = summarise(lateness);
  const firstFires = [...fires.values()].map((f) => f.at[0]).sort((a, b) => a - b);
  const fireSpan = firstFires.length > 1 ? (firstFires[firstFires.length - 1] - firstFires[0]) / 1000 : 0;
  const early = lateness.filter((x) => x < 0).length;
  const out: Record<string, unknown> = {
    run: label,
    restartInTheMiddle: restart,
    messages: MESSAGES,
    spreadSeconds: SPREAD_S,
    creation: { via: VIA_API ? "POST /api/scheduled-messages" : "rows in SQL + scheduler.schedule", seconds: Number((createMs / 1000).toFixed(1)), perSecond: Math.round((MESSAGES * 1000) / createMs), apiMsPerCreate: Number(msPerCreate.toFixed(1)) },
    leadSeconds: leadS,
    fired: fires.size,
    // Throughput: what the spread asks for, and what the scheduler and the plugin delivered (first to last send).
    duePerSecond: Number((MESSAGES / SPREAD_S).toFixed(1)),
    firedPerSecond: fireSpan ? Number((fires.size / fireSpan).toFixed(1)) : null,
    latenessMs: lat,
    firedEarly: early,
    doubleFires: doubles.length,
    extraSends: doubles.reduce((a, f) => a + f.at.length - 1, 0),
    missed,
    plugin,
    otherSendsSeen: foreign,
    cpuPercentOfOneCore: cpu,
    // The core's own CPU per fired message (this process: core, plugin and bench together), less sensitive to a shared machine than the timings.
    cpuMsPerFire: fires.size ? Number(((cpu.serverProcess / 100) * ((now() - firstDueAt) / fires.size)).toFixed(2)) : null,
    // What each fire costs the databases (the bench's own reads after the run are not counted).
    sqlStatementsPerFire: fires.size ? { core: Number((sql.core / fires.size).toFixed(2)), plugins: Number((sql.plugins / fires.size).toFixed(2)) } : null,
  };
  if (downtime) {
    const down = [...fires.values()].filter((f) => f.due >= downtime!.stoppedAt && f.due <= downtime!.readyAt);
    const up = [...fires.values()].filter((f) => f.due < downtime!.stoppedAt || f.due > downtime!.readyAt);
    out.restart = {
      stopMs: downtime.stopMs,
      startMs: downtime.startMs,
      downSeconds: Number(((downtime.readyAt - downtime.stoppedAt) / 1000).toFixed(1)),
      dueWhileDown: down.length,
      latenessDueWhileDownMs: summarise(down.map((f) => f.at[0] - f.due)),
      latenessOthersMs: summarise(up.map((f) => f.at[0] - f.due)),
    };
  }
  out.meetsGoal = lat.p95 <= GOAL.p95LatenessMs && doubles.length === 0 && missed === 0;
  return out;
}

async function main() {
  const loadAverageAtStart = Number(os.loadavg()[0].toFixed(2));
  const box = { o: await startOutboundCore([`v1.${PLUGIN}`], undefined, TICK_MS) };
  countCoreStatements(box.o);
  try {
    const f = await outboundTenant(box.o.t, "PLUS", [PLUGIN]);
    const connectionId = await benchConnection(box.o.t, f.admin, "Bench");
    const contacts = await benchContacts(box.o.t, f.tenantId, connectionId, CONTACTS);
    await waitFor("GET /scheduled-messages", () => box.o.t.api.get("/scheduled-messages", f.admin), (r) => r.status === 200);
    const s: Setup = { tenantId: f.tenantId, admin: f.admin, userId: f.agent.userId, connectionId, contacts };
    const msPerCreate = await creationCost(box.o, s);
    const steady = await run(box, s, "steady", false, msPerCreate);
    // A fresh session after the restart: the core kept it (sessions live in the database).
    const restarted = await run(box, s, "restart", true, msPerCreate);
    const result = {
      benchmark: "scheduler",
      cpus: os.cpus().length,
      node: process.version,
      loadAverageAtStart,
      tickMs: TICK_MS,
      contacts: CONTACTS,
      runs: [steady, restarted],
      goal: GOAL,
      meetsGoal: steady.meetsGoal === true && restarted.meetsGoal === true,
    };
    const text = JSON.stringify(result, null, 2);
    console.log(text);
    fs.writeFileSync(path.resolve(__dirname, "../../scratch/bench-scheduler.json"), text + "\n");
  } finally {
    await stopOutboundCore(box.o);
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
