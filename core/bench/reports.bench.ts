/**
 * `npm run bench:reports`: the report plugins on the busy tenant of bench:lists (100k tickets,
 * seed-tickets.ts). Prints JSON.
 *
 * 1. Backfill: the tenant is allowed report-tickets and report-users (by a platform super user,
 *    as an operator would); each projection is filled on the tenant's first report query by
 *    paging through the core API. Both at once, each timed from its first query to its first
 *    200 (the query answers _PROJECTION_BUILDING, 503, while it runs), and as the plugin's
 *    marker says (finishedAt - startedAt), with the rows it wrote. Progress lines on stderr.
 * 2. p95 of each report's page API as the pages ask it (the default period, the current month
 *    in America/Sao_Paulo; the general settings' SLA set): report-tickets `rows` (the first page)
 *    and `summary` (the cards), report-users `rows` (the per-user statistics); a warm-up, then
 *    sequential requests from a child process (http-load.cjs), as in bench:lists.
 * 3. The Excel export of the whole 100k tickets (a period covering every one of them): wall time
 *    from the request to the last byte (read by a child process into a file, parsed afterwards to
 *    count the rows) and the peak RSS of the process that makes it. The plugins run inside the
 *    core's process, which is this one: its peak RSS (VmHWM, reset through /proc/self/clear_refs
 *    just before; and process.memoryUsage().rss sampled every 25 ms) with the RSS before.
 *
 * Flags: --sequential 100 --warmup 10 --max-seconds 60 (per case) --keep-db --log 1 (the
 * core's warnings on stderr), --help. A run seeds a fresh database (~35 s) and backfills both
 * projections (~5 min on a loaded 2-core machine): there is no reuse of an earlier run's.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import ExcelJS from "exceljs";
import { startBenchCore, login, api, httpLoad, cpuSampler, benchArg, sleep, tag, PASSWORD, Auth, BenchCore } from "./common";
import { seedBusyTenant } from "./seed-tickets";

const SEQUENTIAL = benchArg("sequential", 100);
const WARMUP = benchArg("warmup", 10);
const MAX_SECONDS = benchArg("max-seconds", 60);
const GOAL = { pageP95Ms: 200, statsP95Ms: 200, exportSeconds: 15, exportPeakRssMb: 300 };
const MB = 1024 * 1024;
const round = (x: number, d = 1) => Number(x.toFixed(d));

/** A platform super user (in a tenant of its own) who allows plugins to tenants. */
async function superUser(b: BenchCore): Promise<Auth> {
  const t = (await b.core.broker.call("tenants.createInternal", { name: `Platform ${tag()}` })) as { id: number };
  const email = `super-${tag()}@bench.test`;
  await b.core.broker.call("users.createInternal", { tenantId: t.id, name: "Super", email, password: PASSWORD, profile: "super", isMaster: true });
  return login(b.url, email);
}

async function must(r: Promise<{ status: number; body: any }>, what: string, status = 200) {
  const x = await r;
  if (x.status !== status) throw new Error(`${what}: ${x.status} ${JSON.stringify(x.body).slice(0, 300)}`);
  return x.body;
}

/** A full collection, so that an RSS read after it is what is live (the flag is set at run time: tsx starts node). */
const collectGarbage: () => void = (() => {
  try {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc") as () => void;
  } catch {
    return () => undefined;
  }
})();

/** What the RSS was made of when it peaked (MB): V8's heap (live data and garbage not yet collected) and buffers outside it. */
type MemoryAtPeak = { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };

/** RSS of this process (the core's, with the plugins in it) sampled while `run` runs. */
async function rssDuring<T>(run: () => Promise<T>): Promise<{ result: T; peakRssMb: number; vmHwmMb: number | null; atPeakMb: MemoryAtPeak }> {
  let peak = process.memoryUsage().rss;
  let atPeak = process.memoryUsage();
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peak) [peak, atPeak] = [m.rss, m];
  }, 25);
  let hwm: number | null = null;
  try {
    fs.writeFileSync("/proc/self/clear_refs", "5"); // resets VmHWM to the current RSS
    hwm = 0;
  } catch {
    /* not Linux */
  }
  try {
    const result = await run();
    if (hwm !== null) hwm = Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync("/proc/self/status", "utf8"))?.[1] ?? NaN) * 1024;
    const atPeakMb = Object.fromEntries(Object.entries(atPeak).map(([k, v]) => [k, round(v / MB)])) as MemoryAtPeak;
    return { result, peakRssMb: round(Math.max(peak, process.memoryUsage().rss) / MB), vmHwmMb: hwm === null ? null : round(hwm / MB), atPeakMb };
  } finally {
    clearInterval(timer);
  }
}

/**
 * The projection of `plugin` filled by its first query: polls `probe` until it answers 200
 * (503 _PROJECTION_BUILDING meanwhile; the query itself waits up to 15 s).
 */
async function backfill(b: BenchCore, admin: Auth, plugin: string, probe: string) {
  const t0 = performance.now();
  const cpu = cpuSampler()();
  const mem = await rssDuring(async () => {
    for (;;) {
      const r = await api(b.url, "GET", probe, undefined, admin);
      if (r.status === 200) return;
      if (r.status !== 503) throw new Error(`${plugin} backfill: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      await sleep(500);
    }
  });
  const seconds = (performance.now() - t0) / 1000;
  const svc = b.core.broker.getLocalService({ name: plugin, version: 1 }) as unknown as { projection: { state(t: number): Promise<{ startedAt: number; finishedAt: number | null; rows: number; status: string }> } };
  const st = await svc.projection.state(admin.tenantId);
  return {
    seconds: round(seconds),
    markerSeconds: st?.finishedAt ? round((st.finishedAt - st.startedAt) / 1000) : null,
    rows: st?.rows ?? null,
    status: st?.status ?? null,
    rowsPerSecond: st?.rows ? Math.round(st.rows / seconds) : null,
    peakRssMb: mem.peakRssMb,
    cpuPercentOfOneCore: cpu(),
  };
}

/** A page API as the page asks it: one sample, a warm-up, then sequential requests. */
async function pageCase(b: BenchCore, who: Auth, p: string, describe: (body: any) => Record<string, unknown>) {
  const sample = await must(api(b.url, "GET", p, undefined, who), p);
  const url = `${b.url}/api${p}`;
  await httpLoad(url, who, { count: WARMUP, connections: 1 });
  const cpu = cpuSampler()();
  const seq = await httpLoad(url, who, { count: SEQUENTIAL, duration: MAX_SECONDS, connections: 1 });
  return { path: p, ...describe(sample), sequential: { requests: seq.requests, p50: seq.p50, p95: seq.p95, p99: seq.p99, non2xx: seq.non2xx, errors: seq.errors }, cpuPercentOfOneCore: cpu({ loadGenerator: seq.cpuSeconds }) };
}

/** GET `url` streamed into `file` by a child process; answers its status and bytes. */
function downloadInChild(url: string, who: Auth, file: string): Promise<{ status: number; bytes: number }> {
  const script = `
    const http = require("node:http"), fs = require("node:fs");
    const [url, headers, file] = process.argv.slice(1);
    http.get(url, { headers: JSON.parse(headers) }, (res) => {
      const out = fs.createWriteStream(file);
      let bytes = 0;
      res.on("data", (c) => (bytes += c.length));
      res.pipe(out);
      out.on("finish", () => process.send({ status: res.statusCode, bytes }, () => process.exit(0)));
    }).on("error", (e) => { console.error(e); process.exit(1); });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", script, url, JSON.stringify({ authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId, "x-locale": "pt-BR" }), file], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (m) => resolve(m as { status: number; bytes: number }));
    child.on("error", reject);
    child.on("exit", (code) => code !== 0 && reject(new Error(`download exited with ${code}`)));
  });
}

/** Data rows of the export's sheet (after the title, the period and the header). */
async function xlsxRows(file: string): Promise<number> {
  let n = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: "emit", sharedStrings: "ignore", styles: "ignore", hyperlinks: "ignore" });
  for await (const ws of reader) for await (const _row of ws) n++;
  return n - 3;
}

async function excelExport(b: BenchCore, admin: Auth) {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const q = `from=${day(Date.now() - 120 * 86400_000)}&to=${day(Date.now())}&tz=UTC`;
  const expected = (await must(api(b.url, "GET", `/relatorios/tickets/summary?${q}`, undefined, admin), "summary")).total as number;
  const file = path.join(os.tmpdir(), `oa-bench-reports-${tag()}.xlsx`);
  try {
    // The export's own memory is what the process grows by from a settled heap (the core's own
    // ~250-600 MB depends on what ran before: the backfills' garbage).
    collectGarbage();
    const before = process.memoryUsage();
    const rssBeforeMb = round(before.rss / MB);
    const cpu = cpuSampler()();
    const t0 = performance.now();
    const m = await rssDuring(() => downloadInChild(`${b.url}/api/relatorios/tickets/export?format=xlsx&${q}`, admin, file));
    const seconds = (performance.now() - t0) / 1000;
    const cpuPct = cpu();
    if (m.result.status !== 200) throw new Error(`export: ${m.result.status} ${fs.readFileSync(file, "utf8").slice(0, 300)}`);
    const rows = await xlsxRows(file);
    return {
      path: `/relatorios/tickets/export?format=xlsx&${q}`,
      expectedRows: expected,
      rows,
      bytes: m.result.bytes,
      seconds: round(seconds, 2),
      rowsPerSecond: Math.round(rows / seconds),
      rssBeforeMb,
      peakRssMb: m.peakRssMb,
      vmHwmMb: m.vmHwmMb,
      peakOverBeforeMb: round(Math.max(m.peakRssMb, m.vmHwmMb ?? 0) - rssBeforeMb),
      heapUsedBeforeMb: round(before.heapUsed / MB),
      atPeakMb: m.atPeakMb,
      // After a full GC: what the export left live (heapUsed) against the RSS V8 keeps reserved.
      afterGcMb: (() => {
        collectGarbage();
        const m = process.memoryUsage();
        return { rss: round(m.rss / MB), heapUsed: round(m.heapUsed / MB) };
      })(),
      measuredIn: "the core's process (the plugin runs in it; it is this benchmark's process)",
      cpuPercentOfOneCore: cpuPct,
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

const HELP = `npm run bench:reports -- [flags]   prints JSON on stdout, progress on stderr
  --sequential N   requests per page case after the warm-up (default 100)
  --warmup N       warm-up requests per case (default 10)
  --max-seconds N  time limit of a case's requests (default 60)
  --keep-db 1      keep the seeded databases (the core's and the plugins' own, <name>__<plugin>)
  --log 1          the core's warnings and errors on stderr
Seeds a fresh 100k-ticket tenant each run (seed-tickets.ts, ~35 s), then the reports' backfill (minutes).`;

async function main() {
  if (process.argv.includes("--help")) {
    console.log(HELP);
    process.exit(0);
  }
  const loadAverageAtStart = os.loadavg().map((x) => round(x, 2));
  // Tokens outlive the run (the backfill alone takes longer than the default 15 minutes).
  const b = await startBenchCore({ ACCESS_TOKEN_TTL: "86400" });
  try {
    const seeded = await seedBusyTenant(b);
    const admin = await login(b.url, seeded.busy.users[0].email);
    await must(api(b.url, "PUT", "/settings/sla", { value: { green: 30, yellow: 60, red: 120 } }, admin), "SLA settings");
    const sup = await superUser(b);
    for (const id of ["report-tickets", "report-users"]) await must(api(b.url, "PUT", `/plugins/${id}/tenants/${admin.tenantId}`, { allowed: true }, sup), `allow ${id}`);
    for (let i = 0; (await api(b.url, "GET", "/relatorios/tickets/options", undefined, admin)).status !== 200; i++) {
      if (i > 100) throw new Error("the report routes never answered");
      await sleep(100);
    }

    // Both projections are filled at once, as after an operator allows both plugins.
    const [ticketsBackfill, usersBackfill] = await Promise.all([backfill(b, admin, "report-tickets", "/relatorios/tickets/rows"), backfill(b, admin, "report-users", "/relatorios/usuarios/rows")]);
    const backfills = { concurrently: true, "report-tickets": ticketsBackfill, "report-users": usersBackfill };
    console.error(`BACKFILL ${JSON.stringify(backfills)}`);
    const loadAverageAfterBackfill = os.loadavg().map((x) => round(x, 2));

    const cases = {
      ticketsRows: await pageCase(b, admin, "/relatorios/tickets/rows", (x) => ({ items: x.rows.length, hasMore: x.hasMore, period: `${x.period.from}..${x.period.to}` })),
      ticketsSummary: await pageCase(b, admin, "/relatorios/tickets/summary", (x) => ({ ticketsInPeriod: x.total, closedSla: x.closedSla, inProgressSla: x.inProgressSla })),
      usersStats: await pageCase(b, admin, "/relatorios/usuarios/rows", (x) => ({ users: x.rows.length, ticketsInPeriod: x.rows.reduce((s: number, r: { total: number }) => s + r.total, 0) })),
    };
    console.error(`CASES ${JSON.stringify(cases)}`);
    const exported = await excelExport(b, admin);

    const pageP95 = Math.max(cases.ticketsRows.sequential.p95, cases.ticketsSummary.sequential.p95);
    const meets = {
      ticketsPageWithCards: pageP95 <= GOAL.pageP95Ms,
      usersStats: cases.usersStats.sequential.p95 <= GOAL.statsP95Ms,
      exportTime: exported.seconds <= GOAL.exportSeconds,
      exportPeakRss: Math.max(exported.peakRssMb, exported.vmHwmMb ?? 0) <= GOAL.exportPeakRssMb,
    };
    const result = {
      benchmark: "reports",
      cpus: os.cpus().length,
      node: process.version,
      loadAverage: { atStart: loadAverageAtStart, afterBackfill: loadAverageAfterBackfill, atEnd: os.loadavg().map((x) => round(x, 2)) },
      seed: { seconds: seeded.seconds, busyTenant: seeded.busyTenant, smallTenants: 2 },
      backfill: backfills,
      cases,
      excelExport: exported,
      goal: GOAL,
      meetsGoal: meets,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await b.stop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
