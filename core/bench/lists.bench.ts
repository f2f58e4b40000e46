/**
 * `npm run bench:lists`: the attendance lists and a ticket's messages through the HTTP API
 * on a busy tenant. Prints JSON.
 *
 * A fresh MariaDB database migrated by the core; one busy tenant (20 users, 5 queues, 100k
 * contacts, 100k tickets: 15k open, 10k pending, 75k closed, 9k of the active ones with
 * unread messages; 1M messages, 10 per ticket) and two small tenants, seeded with multi-row
 * INSERTs straight into the tables (in a child process: seed-tickets.ts, shared with
 * bench:reports). Then, as the busy tenant's admin
 * (and, for information, as one of its agents), for each case: a warm-up, 200 sequential
 * requests (p50/p95/p99), and 10 concurrent clients for 20 s (requests/s, p95), with the SQL
 * statements each request costs, counted through the core's own Sequelize instance (its
 * `logging` option, set here and nowhere else), and the CPU each process used meanwhile.
 *
 * The HTTP clients run in a child process (http-load.cjs) so they do not share the server's
 * event loop. Flags (`npm run bench:lists -- --duration-s 10`): --sequential, --concurrency,
 * --duration-s, --warmup-s, --cases <names, comma separated>, --phases (time windows for a
 * `node --cpu-prof` profile), --keep-db.
 */
import * as os from "node:os";
import { startBenchCore, login, api, cpuSampler, httpLoad as load, Auth, BenchCore, benchArg } from "./common";
import { seedBusyTenant } from "./seed-tickets";

const SEQUENTIAL = benchArg("sequential", 200);
const CONCURRENCY = benchArg("concurrency", 10);
const DURATION_S = benchArg("duration-s", 20);
const WARMUP_S = benchArg("warmup-s", 3);
const GOAL = { sequentialP95Ms: 5, concurrentRps: 700 };

// --- measure ---------------------------------------------------------------------------------

/**
 * With --phases, the monotonic time window of each concurrent phase on stderr, to read a
 * `node --cpu-prof` profile of the server for that window only.
 */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
  if (!benchArg("phases", 0)) return run();
  const t0 = process.hrtime.bigint() / 1000n;
  try {
    return await run();
  } finally {
    console.error(`PHASE ${name} ${t0} ${process.hrtime.bigint() / 1000n}`);
  }
}

/** SQL statements of the core's Sequelize instance, counted through its `logging` option. */
function sqlCounter(b: BenchCore) {
  let n = 0;
  (b.core.sequelize as unknown as { options: { logging: unknown } }).options.logging = () => {
    n++;
  };
  return { get: () => n };
}

async function main() {
  const loadAverageAtStart = Number(os.loadavg()[0].toFixed(2));
  const b = await startBenchCore();
  try {
    const seeded = await seedBusyTenant(b);
    const admin = await login(b.url, seeded.busy.users[0].email);
    // An agent (profile "user", two queues): their list is a union of branches, not one range.
    const agent = await login(b.url, seeded.busy.users.find((u) => u.profile === "user")!.email);
    const sql = sqlCounter(b);
    const cpu = cpuSampler();

    const open = await api(b.url, "GET", "/tickets?status=open&showAll=true", undefined, admin);
    if (open.status !== 200 || open.body.tickets.length !== 40) throw new Error(`open tab: ${open.status} ${JSON.stringify(open.body).slice(0, 300)}`);
    const ticketId = open.body.tickets[0].id as number;

    // `goal`: the ticket-list cases the goal applies to; the others are for information.
    const cases: Array<{ name: string; path: string; goal: boolean; who?: Auth }> = [
      { name: "open", path: "/tickets?status=open&showAll=true", goal: true },
      { name: "pending", path: "/tickets?status=pending&showAll=true", goal: true },
      { name: "unread", path: "/tickets?showAll=true&withUnreadMessages=true", goal: true },
      { name: "closedPage50", path: "/tickets?status=closed&pageNumber=50", goal: true },
      { name: "messages", path: `/messages/${ticketId}`, goal: false },
      { name: "agentDefaultList", path: "/tickets", goal: false, who: agent },
    ];

    // Statements per request (the caller's list cache warm), and whether they grow with the page.
    const perRequest = async (p: string, who: Auth = admin) => {
      await api(b.url, "GET", p, undefined, who);
      const before = sql.get();
      const r = await api(b.url, "GET", p, undefined, who);
      if (r.status !== 200) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      return { statements: sql.get() - before, items: (r.body.tickets ?? r.body.messages).length as number, hasMore: r.body.hasMore as boolean };
    };
    const pages = {
      closedPage1: await perRequest("/tickets?status=closed&pageNumber=1"),
      closedPage50: await perRequest("/tickets?status=closed&pageNumber=50"),
      closedShowAllPage1: await perRequest("/tickets?status=closed&showAll=true&pageNumber=1"),
      closedShowAllPage50: await perRequest("/tickets?status=closed&showAll=true&pageNumber=50"),
      agentClosedPage1: await perRequest("/tickets?status=closed&pageNumber=1", agent),
      agentClosedPage50: await perRequest("/tickets?status=closed&pageNumber=50", agent),
    };

    const casesArg = process.argv.indexOf("--cases");
    const only = casesArg > 0 ? process.argv[casesArg + 1]?.split(",") : undefined;
    const selected = cases.filter((x) => !only || only.includes(x.name));
    // Warm-up of the whole process (JIT, pools, caches, the buffer pool after the seed) before
    // any case is measured; each case has its own short warm-up too.
    for (const c of selected) await load(`${b.url}/api${c.path}`, c.who ?? admin, { duration: WARMUP_S, connections: CONCURRENCY });
    const results: Record<string, unknown> = {};
    let allMeet = true;
    for (const c of selected) {
      const url = `${b.url}/api${c.path}`;
      const who = c.who ?? admin;
      const sample = await perRequest(c.path, who);
      await load(url, who, { duration: WARMUP_S, connections: CONCURRENCY });
      const s0 = sql.get();
      const seq = await load(url, who, { count: SEQUENTIAL, connections: 1 });
      const statements = (sql.get() - s0) / Math.max(1, seq.requests);
      const cpuOf = cpu();
      const conc = await profiled(c.name, () => load(url, who, { duration: DURATION_S, connections: CONCURRENCY }));
      const cpuPct = cpuOf({ loadGenerator: conc.cpuSeconds });
      const meets = seq.p95 <= GOAL.sequentialP95Ms && conc.rps >= GOAL.concurrentRps;
      if (c.goal) allMeet &&= meets;
      results[c.name] = {
        path: c.path,
        items: sample.items,
        sqlStatementsPerRequest: Number(statements.toFixed(2)),
        sequential: { requests: seq.requests, p50: seq.p50, p95: seq.p95, p99: seq.p99, non2xx: seq.non2xx },
        concurrent: { connections: CONCURRENCY, seconds: DURATION_S, requests: conc.requests, rps: conc.rps, p50: conc.p50, p95: conc.p95, p99: conc.p99, non2xx: conc.non2xx, errors: conc.errors, cpuPercentOfOneCore: cpuPct },
        ...(c.goal ? { meetsGoal: meets } : {}),
      };
    }

    const result = {
      benchmark: "lists",
      cpus: os.cpus().length,
      node: process.version,
      loadAverageAtStart,
      seed: { seconds: seeded.seconds, busyTenant: seeded.busyTenant, smallTenants: 2 },
      statementsByPage: pages,
      statementsConstantAcrossPages:
        pages.closedPage1.statements === pages.closedPage50.statements &&
        pages.closedShowAllPage1.statements === pages.closedShowAllPage50.statements &&
        pages.agentClosedPage1.statements === pages.agentClosedPage50.statements,
      cases: results,
      goal: { ...GOAL, appliesTo: "ticket-list cases" },
      meetsGoal: allMeet,
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
