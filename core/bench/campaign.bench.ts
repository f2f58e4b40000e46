/**
 * `npm run bench:campaign`: normal campaigns (plugins/campaign-whatsapp on the campaign engine)
 * through a real core (MariaDB, Redis, the scheduler on the real clock) and the benchmarks'
 * channel, which records each send it is handed and acks it delivered then read. Prints JSON and
 * writes it to scratch/bench-campaign.json.
 *
 * How a target rate is set: the engine paces each of a campaign's connections (a lane) by a
 * random interval between the campaign's minimum and maximum seconds (whole seconds), and a
 * campaign takes at most 20 connections. A target of R sends/s therefore runs on R × --interval-s
 * connections (min = max = --interval-s, 1 by default: each connection sends once a second),
 * split over ceil(connections / 20) campaigns started at the same instant. Each campaign's
 * contacts come from a tag, enough for the whole window.
 *
 * Phases:
 *  1. each target of --rates (80,300): --warmup-s, then --duration-s measured (achieved rate =
 *     sends handed to the channel inside the window / its length; per-second buckets); then the
 *     campaigns are paused and checked: duplicates (a contact handed over twice), losses (a
 *     contact the campaign counts as sent that never reached the channel);
 *  2. the highest sustained rate: --max-campaigns campaigns of 20 connections with no interval
 *     (min = max = 0, the engine as fast as it goes), measured the same way;
 *  3. a worker killed mid-run: a campaign set (target --kill-rate, 80) with contacts for
 *     --kill-s (30) seconds at that rate; the core running the plugin and the scheduler is stopped halfway and
 *     started again on the same database and Redis; the run goes on to its end: sends, rate,
 *     duplicates, losses (contacts never handed over);
 *  4. the time to create a --recipients (100,000) recipient campaign from a tag (POST /campanhas
 *     + POST /campanhas/item/contacts with the tag): the contacts are seeded in SQL beforehand;
 *  5. with --ingest 1, bench:ingest's rate in the same run (a child process, after this core stopped).
 *
 * Development: the defaults are short (--duration-s 15); the issue's numbers are
 * `npm run bench:campaign -- --duration-s 60 --ingest 1`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { createConnection } from "mysql2/promise";
import { QueryTypes } from "sequelize";
import { benchArg, cpuSampler, MYSQL, sleep } from "./common";
import { bodyOf, rateIn, sendsOf } from "./campaign-sends";
import { benchConnection, CHANNEL_SERVICE, handed, outboundTenant, pool, startOutboundCore, stopOutboundCore, waitFor, type Auth, type OutboundCore } from "./outbound-kit";

const DURATION_S = benchArg("duration-s", 15);
const WARMUP_S = benchArg("warmup-s", 5);
const INTERVAL_S = benchArg("interval-s", 1);
const MAX_CAMPAIGNS = benchArg("max-campaigns", 5);
const KILL_RATE = benchArg("kill-rate", 80);
const KILL_S = benchArg("kill-s", 30);
const RECIPIENTS = benchArg("recipients", 100_000);
const WITH_INGEST = benchArg("ingest", 0) !== 0;
const RATES = (() => {
  const i = process.argv.indexOf("--rates");
  return i < 0 ? [80, 300] : process.argv[i + 1].split(",").map(Number);
})();
const LANES_PER_CAMPAIGN = 20;
const PLUGIN = "campaign-whatsapp";
const GOAL = { rateWithinPercent: 2, duplicates: 0, losses: 0, creationSeconds: 10 };

const now = () => performance.timeOrigin + performance.now();

interface Ctx {
  box: { o: OutboundCore };
  tenantId: number;
  admin: Auth;
  adminEmail: string;
  connections: number[];
  /** The seeded contacts' ids, in order (contact i is named `C<i>`). */
  contactIds: number[];
}

// ---- seeding ----------------------------------------------------------------------------

/** `n` contacts with a phone number each, in SQL (what is measured is the campaign, not the contact import). */
async function seedContacts(c: Ctx, n: number): Promise<number[]> {
  const sql = c.box.o.t.core.sequelize;
  const base = 10_000_000 + Math.floor(Math.random() * 80_000_000);
  for (let i = 0; i < n; i += 5000) {
    const rows: string[] = [];
    const args: unknown[] = [];
    for (let k = i; k < Math.min(n, i + 5000); k++) {
      rows.push("(?, ?, ?, NOW(), NOW())");
      args.push(c.tenantId, `C${k}`, `5511${base + k}`);
    }
    await sql.query(`INSERT INTO contacts (tenantId, name, number, createdAt, updatedAt) VALUES ${rows.join(",")}`, { replacements: args });
  }
  const ids = (await sql.query("SELECT id, name FROM contacts WHERE tenantId = ? AND name LIKE 'C%'", { replacements: [c.tenantId], type: QueryTypes.SELECT })) as Array<{ id: number; name: string }>;
  const out: number[] = new Array(n);
  for (const r of ids) {
    const k = Number(r.name.slice(1));
    if (Number.isInteger(k) && k < n) out[k] = Number(r.id);
  }
  return out;
}

/** A tag (made through the API) on contacts [from, to) of the seeded ones. */
async function tagContacts(c: Ctx, name: string, from: number, to: number): Promise<number> {
  const t = await c.box.o.t.api.post("/tags", { name, color: "#336699" }, c.admin);
  if (t.status !== 201 && t.status !== 200) throw new Error(`tag: ${t.status} ${JSON.stringify(t.body)}`);
  const tagId = Number(t.body.id);
  for (let i = from; i < to; i += 5000) {
    const slice = c.contactIds.slice(i, Math.min(to, i + 5000));
    await c.box.o.t.core.sequelize.query(`INSERT INTO contact_tags (tenantId, contactId, tagId, createdAt) VALUES ${slice.map(() => "(?, ?, ?, NOW())").join(",")}`, { replacements: slice.flatMap((id) => [c.tenantId, id, tagId]) });
  }
  return tagId;
}

// ---- campaigns --------------------------------------------------------------------------

interface Plan {
  label: string;
  /** Connections of each campaign. */
  lanes: number[][];
  intervalS: number;
  /** Contacts of each campaign (the same tag for all of them). */
  perCampaign: number;
}

function planFor(label: string, lanesTotal: number, intervalS: number, contactsEach: (lanes: number) => number, c: Ctx, offset = 0): Plan {
  const campaigns = Math.ceil(lanesTotal / LANES_PER_CAMPAIGN);
  const lanes: number[][] = Array.from({ length: campaigns }, () => []);
  for (let k = 0; k < lanesTotal; k++) lanes[k % campaigns].push(c.connections[(offset + k) % c.connections.length]);
  return { label, lanes, intervalS, perCampaign: Math.max(...lanes.map((l) => contactsEach(l.length))) };
}


/** Creates the plan's campaigns with their contacts, then schedules them all to start together; answers their ids and the start. */
async function launch(c: Ctx, p: Plan, tagId: number): Promise<{ ids: number[]; startAt: number }> {
  const api = c.box.o.t.api;
  const draft = (k: number, startAt: number) => ({ name: `Bench ${p.label} ${k}`, startAt, connectionIds: p.lanes[k], minIntervalSeconds: p.intervalS, maxIntervalSeconds: p.intervalS, content: { messages: [bodyOf(p.label, k)] } });
  const ids: number[] = [];
  for (let k = 0; k < p.lanes.length; k++) {
    const r = await api.post("/campanhas", draft(k, Date.now() + 3600_000), c.admin);
    if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
    ids.push(Number(r.body.id));
    const added = await api.post("/campanhas/item/contacts", { id: r.body.id, source: { kind: "tags", tagIds: [tagId] } }, c.admin);
    if (added.status !== 200) throw new Error(`contacts: ${added.status} ${JSON.stringify(added.body)}`);
  }
  const startAt = Date.now() + 3000 + p.lanes.length * 150;
  for (let k = 0; k < ids.length; k++) {
    const u = await api.put("/campanhas/item", { id: ids[k], ...draft(k, startAt) }, c.admin);
    if (u.status !== 200) throw new Error(`update: ${u.status} ${JSON.stringify(u.body)}`);
    const s = await api.post("/campanhas/item/schedule", { id: ids[k] }, c.admin);
    if (s.status !== 200) throw new Error(`schedule: ${s.status} ${JSON.stringify(s.body)}`);
  }
  return { ids, startAt };
}

async function each(c: Ctx, ids: number[], op: "pause" | "cancel"): Promise<void> {
  for (const id of ids) await c.box.o.t.api.post(`/campanhas/item/${op}`, { id }, c.admin);
}

/** The campaigns' contacts as the plugin stored them. */
async function stored(c: Ctx, ids: number[]): Promise<Array<{ campaignId: number; name: string; status: string; failReason: string | null }>> {
  const db = await createConnection({ ...MYSQL, database: `${c.box.o.t.store.dbName}__${PLUGIN.replace(/-/g, "_")}` });
  try {
    const [rows] = await db.query("SELECT campaignId, name, status, failReason FROM campaign_contacts WHERE tenantId = ? AND campaignId IN (?)", [c.tenantId, ids]);
    return (rows as Array<{ campaignId: number; name: string; status: string; failReason: string | null }>).map((r) => ({ ...r, campaignId: Number(r.campaignId) }));
  } finally {
    await db.end();
  }
}

/** Duplicates (a contact of a campaign handed over more than once) and losses (counted as sent by the plugin, never handed over). */
async function integrity(c: Ctx, label: string, ids: number[], sends: ReturnType<typeof sendsOf>) {
  const seen = new Map<string, number>();
  for (const s of sends) seen.set(`${s.k}:${s.contact}`, (seen.get(`${s.k}:${s.contact}`) ?? 0) + 1);
  const duplicates = [...seen.values()].filter((n) => n > 1).length;
  const rows = await stored(c, ids);
  const byStatus: Record<string, number> = {};
  let losses = 0;
  const failReasons: Record<string, number> = {};
  for (const r of rows) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
    const k = ids.indexOf(r.campaignId);
    if (["sent", "delivered", "read", "played"].includes(r.status) && !seen.has(`${k}:${Number(r.name.slice(1))}`)) losses++;
    if (r.failReason) failReasons[r.failReason] = (failReasons[r.failReason] ?? 0) + 1;
  }
  return { duplicates, losses, contactStatuses: byStatus, failReasons, label };
}

async function ratePhase(c: Ctx, label: string, p: Plan, target: number | null) {
  const tagId = await tagContacts(c, `bench-${label}`, 0, p.perCampaign);
  const setupStart = now();
  const { ids, startAt } = await launch(c, p, tagId);
  const setupSeconds = Number(((now() - setupStart) / 1000).toFixed(1));
  const from0 = (await c.box.o.t.core.broker.call(`${CHANNEL_SERVICE}.count`)) as number;
  await sleep(Math.max(0, startAt - Date.now()));
  const cpuOf = cpuSampler()();
  const windowFrom = startAt + WARMUP_S * 1000;
  const windowTo = windowFrom + DURATION_S * 1000;
  await sleep(Math.max(0, windowTo - Date.now()) + 500);
  const cpu = cpuOf();
  await each(c, ids, "pause");
  await sleep(3000); // sends already under way land
  const sends = sendsOf(await handed(c.box.o.t, from0), label);
  const rate = rateIn(sends.map((s) => s.at), windowFrom, windowTo);
  const check = await integrity(c, label, ids, sends);
  await each(c, ids, "cancel");
  return {
    phase: label,
    targetPerSecond: target,
    setting: { campaigns: p.lanes.length, connections: p.lanes.reduce((a, l) => a + l.length, 0), intervalSeconds: p.intervalS, contactsPerCampaign: p.perCampaign },
    setupSeconds,
    warmupSeconds: WARMUP_S,
    measuredSeconds: DURATION_S,
    achieved: rate,
    vsTargetPercent: target ? Number((((rate.perSecond - target) / target) * 100).toFixed(1)) : null,
    firstSendAfterStartMs: sends.length ? Math.round(sends[0].at - startAt) : null,
    duplicates: check.duplicates,
    losses: check.losses,
    contactStatusesAfterPause: check.contactStatuses,
    failReasons: check.failReasons,
    cpuPercentOfOneCore: cpu,
  };
}

/** Phase 3: the core (the plugin's worker and the scheduler) stopped halfway and started again; the campaigns run to their end. */
async function killPhase(c: Ctx) {
  const lanesTotal = KILL_RATE * INTERVAL_S;
  const p = planFor("kill", lanesTotal, INTERVAL_S, (lanes) => Math.ceil((lanes / INTERVAL_S) * KILL_S), c);
  const tagId = await tagContacts(c, "bench-kill", 0, p.perCampaign);
  const { ids, startAt } = await launch(c, p, tagId);
  const expected = p.perCampaign * ids.length;
  const from0 = (await c.box.o.t.core.broker.call(`${CHANNEL_SERVICE}.count`)) as number;
  await sleep(Math.max(0, startAt + (KILL_S * 1000) / 2 - Date.now()));
  const stoppedAt = now();
  const before = c.box.o;
  await before.t.stop({ keep: true });
  c.box.o = await startOutboundCore([`v1.${PLUGIN}`], before);
  const readyAt = now();
  c.admin = await c.box.o.t.api.login(c.adminEmail);
  const finished = async () => {
    const st = await stored(c, ids);
    return st.filter((r) => r.status === "pending" || r.status === "sending").length;
  };
  const left = await waitFor("the campaigns to finish", finished, (n) => n === 0, KILL_S * 1000 * 10 + 120_000, 1000).catch(() => -1);
  await sleep(3000);
  const sends = sendsOf(await handed(c.box.o.t, from0), "kill");
  const check = await integrity(c, "kill", ids, sends);
  const distinct = new Set(sends.map((s) => `${s.k}:${s.contact}`)).size;
  const first = sends[0]?.at ?? startAt;
  const last = sends[sends.length - 1]?.at ?? first;
  const down = readyAt - stoppedAt;
  return {
    phase: "kill",
    targetPerSecond: KILL_RATE,
    setting: { campaigns: ids.length, connections: lanesTotal, intervalSeconds: INTERVAL_S, contactsPerCampaign: p.perCampaign },
    contacts: expected,
    handedOver: sends.length,
    distinctContactsHanded: distinct,
    duplicates: check.duplicates,
    // Every contact must reach the channel once: the ones that never did.
    losses: expected - distinct,
    lossesCountedSentButNotHanded: check.losses,
    leftUnsentAtTimeout: left,
    restart: { stopAtSecond: Number(((stoppedAt - startAt) / 1000).toFixed(1)), downSeconds: Number((down / 1000).toFixed(1)) },
    achievedPerSecond: Number((sends.length / Math.max(1, (last - first) / 1000)).toFixed(2)),
    achievedPerSecondExcludingDowntime: Number((sends.length / Math.max(1, (last - first - down) / 1000)).toFixed(2)),
    contactStatuses: check.contactStatuses,
    failReasons: check.failReasons,
  };
}

/** Phase 4: a campaign of `RECIPIENTS` contacts from a tag. */
async function creationPhase(c: Ctx) {
  const tagId = await tagContacts(c, "bench-recipients", 0, RECIPIENTS);
  const api = c.box.o.t.api;
  const t0 = now();
  const r = await api.post("/campanhas", { name: "Bench 100k", startAt: Date.now() + 3600_000, connectionIds: [c.connections[0]], minIntervalSeconds: 5, maxIntervalSeconds: 10, content: { messages: ["Promoção {{name}}"] } }, c.admin);
  if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  const t1 = now();
  const added = await api.post("/campanhas/item/contacts", { id: r.body.id, source: { kind: "tags", tagIds: [tagId] } }, c.admin);
  const answered = now();
  // A request the gateway gave up on (its timeout) goes on in the plugin: the time until every contact is linked.
  const linked = await waitFor(
    "every recipient linked",
    async () => Number((await api.get(`/campanhas/item?id=${r.body.id}`, c.admin)).body?.counts?.contacts ?? 0),
    (n) => n >= RECIPIENTS,
    600_000,
    500,
  ).catch(() => -1);
  const t2 = now();
  return {
    recipients: RECIPIENTS,
    linked,
    createSeconds: Number(((t1 - t0) / 1000).toFixed(2)),
    addFromTag: { status: added.status, error: added.status === 200 ? null : added.body?.error, answeredAfterSeconds: Number(((answered - t1) / 1000).toFixed(2)), allLinkedAfterSeconds: Number(((t2 - t1) / 1000).toFixed(2)) },
    totalSeconds: Number(((t2 - t0) / 1000).toFixed(2)),
  };
}

function ingestRate(): { messagesPerSecond: number | null; error?: string } {
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(require.resolve("tsx", { paths: [path.resolve(__dirname, "../..")] })).href, path.join(__dirname, "ingest.bench.ts"), "--duration-s", String(Math.min(DURATION_S, 30))], { cwd: path.resolve(__dirname, "../.."), encoding: "utf8", timeout: 300_000 });
  try {
    const json = JSON.parse(r.stdout.slice(r.stdout.indexOf("{")));
    return { messagesPerSecond: json.messagesPerSecond };
  } catch {
    return { messagesPerSecond: null, error: (r.stderr || r.stdout || "").slice(-300) };
  }
}

async function main() {
  const loadAverageAtStart = Number(os.loadavg()[0].toFixed(2));
  const box = { o: await startOutboundCore([`v1.${PLUGIN}`]) };
  const results: Record<string, unknown> = {};
  const out = path.resolve(__dirname, "../../scratch/bench-campaign.json");
  // Each phase's figures are written as soon as they are known (a later phase that fails loses none).
  const partial = () => fs.writeFileSync(out, JSON.stringify({ benchmark: "campaign", partial: true, loadAverageAtStart, ...results }, null, 2) + "\n");
  const phase = async (name: string, fn: () => Promise<unknown>) => {
    try {
      results[name] = await fn();
    } catch (err) {
      results[name] = { error: String((err as Error).message ?? err).slice(0, 300) };
    }
    partial();
  };
  try {
    const t = box.o.t;
    const f = await outboundTenant(t, "BASIC", [PLUGIN]);
    await t.core.broker.call(`${CHANNEL_SERVICE}.acks`, { on: true });
    await waitFor("the /campanhas routes", () => t.api.get("/campanhas", f.admin), (r) => r.status !== 404);
    const maxLanes = Math.max(...RATES.map((r) => r * INTERVAL_S), MAX_CAMPAIGNS * LANES_PER_CAMPAIGN, KILL_RATE * INTERVAL_S);
    const t0 = now();
    const connections: number[] = new Array(maxLanes);
    await pool(connections, 4, async (_, i) => {
      connections[i] = await benchConnection(t, f.admin, `Bench ${i}`);
    });
    const c: Ctx = { box, tenantId: f.tenantId, admin: f.admin, adminEmail: f.emails.admin, connections, contactIds: [] };
    const contactsFor = (lanes: number) => Math.ceil((lanes / INTERVAL_S) * (WARMUP_S + DURATION_S + 10) * 1.3);
    const maxContacts = 100 * (WARMUP_S + DURATION_S + 10);
    const need = Math.max(RECIPIENTS, contactsFor(LANES_PER_CAMPAIGN), maxContacts);
    c.contactIds = await seedContacts(c, need);
    results.setup = { connections: connections.length, contactsSeeded: need, seconds: Number(((now() - t0) / 1000).toFixed(1)) };

    const phases: unknown[] = [];
    results.rates = phases;
    for (const rate of RATES) {
      phases.push(await ratePhase(c, `r${rate}`, planFor(`r${rate}`, rate * INTERVAL_S, INTERVAL_S, contactsFor, c), rate));
      partial();
    }
    // No interval: how fast the engine goes; contacts enough for 100 sends/s per campaign.
    const maxPlan = planFor("max", MAX_CAMPAIGNS * LANES_PER_CAMPAIGN, 0, () => maxContacts, c);
    phases.push(await ratePhase(c, "max", maxPlan, null));
    partial();
    await phase("killedWorker", () => killPhase(c));
    await phase("creation", () => creationPhase(c));
  } finally {
    await stopOutboundCore(box.o);
  }
  if (WITH_INGEST) results.ingestSameRun = ingestRate();
  const rates = results.rates as Array<{ targetPerSecond: number | null; achieved: { perSecond: number }; vsTargetPercent: number | null; duplicates: number; losses: number }>;
  const kill = results.killedWorker as { duplicates?: number; losses?: number };
  const creation = results.creation as { totalSeconds?: number };
  const result = {
    benchmark: "campaign",
    cpus: os.cpus().length,
    node: process.version,
    loadAverageAtStart,
    ...results,
    sustainedMaxPerSecond: Math.max(...rates.map((r) => r.achieved.perSecond)),
    goal: GOAL,
    meetsGoal:
      rates.every((r) => r.vsTargetPercent === null || Math.abs(r.vsTargetPercent) <= GOAL.rateWithinPercent) &&
      rates.every((r) => r.duplicates === 0 && r.losses === 0) &&
      kill.duplicates === 0 &&
      kill.losses === 0 &&
      (creation.totalSeconds ?? Infinity) <= GOAL.creationSeconds,
  };
  const text = JSON.stringify(result, null, 2);
  console.log(text);
  fs.writeFileSync(out, text + "\n");
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
