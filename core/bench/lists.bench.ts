/**
 * `npm run bench:lists`: the attendance lists and a ticket's messages through the HTTP API
 * on a busy tenant. Prints JSON.
 *
 * A fresh MariaDB database migrated by the core; one busy tenant (20 users, 5 queues, 100k
 * contacts, 100k tickets: 15k open, 10k pending, 75k closed, 9k of the active ones with
 * unread messages; 1M messages, 10 per ticket) and two small tenants, seeded with multi-row
 * INSERTs straight into the tables (in a child process). Then, as the busy tenant's admin
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
import * as path from "node:path";
import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createPool, Pool } from "mysql2/promise";
import { startBenchCore, createBenchTenant, login, api, authHeaders, cpuSampler, Auth, BenchCore, BenchTenant, MYSQL, tag, benchArg } from "./common";

const SEQUENTIAL = benchArg("sequential", 200);
const CONCURRENCY = benchArg("concurrency", 10);
const DURATION_S = benchArg("duration-s", 20);
const WARMUP_S = benchArg("warmup-s", 3);
const CHUNK = 5000;
const GOAL = { sequentialP95Ms: 5, concurrentRps: 700 };

// --- seed ------------------------------------------------------------------------------------

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sqlDate = (ms: number) => `'${new Date(ms).toISOString().slice(0, 19).replace("T", " ")}'`;
const DAY = 86400_000;

interface SeedSpec {
  tenant: BenchTenant;
  connectionId: number;
  contacts: number;
  open: number;
  pending: number;
  closed: number;
  unread: number;
  messagesPerTicket: number;
}

const ids = { contact: 0, ticket: 0, message: 0 };

async function insertChunks(pool: Pool, table: string, columns: string, rows: string[], parallel = 1) {
  const chunks: string[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) chunks.push(rows.slice(i, i + CHUNK));
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      const c = await pool.getConnection();
      try {
        await c.query("SET unique_checks = 0, foreign_key_checks = 0");
        while (next < chunks.length) {
          const chunk = chunks[next++];
          await c.query(`INSERT INTO ${table} (${columns}) VALUES ${chunk.join(",")}`);
        }
      } finally {
        c.release();
      }
    }),
  );
}

/** Contacts, tickets (one per contact) and their messages of one tenant; ids are given, not generated. */
async function seedTenant(pool: Pool, s: SeedSpec) {
  const now = Date.now();
  const rand = rng(s.tenant.tenantId * 7919);
  const tid = s.tenant.tenantId;
  const created = sqlDate(now - 100 * DAY);

  const contactRows: string[] = [];
  const firstContact = ids.contact + 1;
  for (let i = 0; i < s.contacts; i++) {
    const id = ++ids.contact;
    contactRows.push(`(${id},${tid},'Cliente ${tid}-${i}','55${11 + (i % 80)}9${String(10000000 + i).slice(-8)}','cliente${i}@t${tid}.test','webchat',${created},${created})`);
  }
  await insertChunks(pool, "contacts", "id,tenantId,name,number,email,source,createdAt,updatedAt", contactRows, 2);

  const ticketRows: string[] = [];
  const messageRows: string[] = [];
  const total = s.open + s.pending + s.closed;
  const active = s.open + s.pending;
  const agents = s.tenant.users.map((u) => u.id);
  for (let i = 0; i < total; i++) {
    const id = ++ids.ticket;
    const contactId = firstContact + (i % s.contacts);
    const status = i < s.open ? "open" : i < active ? "pending" : "closed";
    const queueId = rand() < 0.03 ? null : s.tenant.queueIds[i % s.tenant.queueIds.length];
    const userId = status === "pending" ? null : agents[Math.floor(rand() * agents.length)];
    // Exactly `unread` active tickets have unread messages, spread over open and pending.
    const unread = i < active && (i * 7919) % active < s.unread;
    const unreadMessages = unread ? 1 + (i % 5) : 0;
    const pinned = status === "open" && i % 750 === 0 ? 1 : 0;
    const last = status === "closed" ? now - 3 * DAY - Math.floor(rand() * 87 * DAY) : now - Math.floor(rand() * 3 * DAY);
    const activeKey = status === "closed" ? "NULL" : `'${contactId}:${s.connectionId}'`;
    const closedAt = status === "closed" ? sqlDate(last + 60_000) : "NULL";
    const createdAt = sqlDate(last - (s.messagesPerTicket + 1) * 60_000);
    ticketRows.push(
      `(${id},${tid},${contactId},${s.connectionId},${queueId ?? "NULL"},${userId ?? "NULL"},'${status}','20250101${id}',0,${pinned},${unreadMessages},${unread ? 1 : 0},'Mensagem ${s.messagesPerTicket - 1} do atendimento ${id}',${last},${activeKey},${closedAt},${createdAt},${sqlDate(last)})`,
    );
    for (let k = 0; k < s.messagesPerTicket; k++) {
      const mid = ++ids.message;
      const fromMe = k % 2 === 1;
      const ts = last - (s.messagesPerTicket - 1 - k) * 60_000;
      const read = fromMe || !unread || k < s.messagesPerTicket - unreadMessages ? 1 : 0;
      messageRows.push(
        `(${mid},${tid},${id},${contactId},${s.connectionId},'bp-${mid}',${fromMe ? 1 : 0},${fromMe ? (userId ?? "NULL") : "NULL"},'Mensagem ${k} do atendimento ${id}: texto de exemplo para o benchmark','${fromMe ? "sent" : "received"}','[]',${read},${ts},${sqlDate(ts)},${sqlDate(ts)})`,
      );
    }
  }
  await insertChunks(
    pool,
    "tickets",
    "id,tenantId,contactId,connectionId,queueId,userId,status,protocol,isGroup,pinned,unreadMessages,hasUnread,lastMessage,lastMessageAt,activeKey,closedAt,createdAt,updatedAt",
    ticketRows,
    2,
  );
  ticketRows.length = 0;
  await insertChunks(pool, "messages", "id,tenantId,ticketId,contactId,connectionId,providerId,fromMe,userId,body,status,reactions,`read`,providerTs,createdAt,updatedAt", messageRows, 2);
}

/**
 * Tenants, queues and users through the services; then contacts, tickets and messages in a
 * child process, so that the million rows built there never sit in the server's heap (a
 * large old space slows every young-generation GC of the process being measured).
 */
async function seed(b: BenchCore) {
  const t0 = performance.now();
  const busy = await createBenchTenant(b, { name: "Busy", queues: 5, users: 20 });
  const small = [await createBenchTenant(b, { name: "Small A", queues: 2, users: 3 }), await createBenchTenant(b, { name: "Small B", queues: 2, users: 3 })];
  const counts = await new Promise<Record<string, number>>((resolve, reject) => {
    const child = fork(__filename, ["--seed", JSON.stringify({ dbName: b.dbName, busy, small })], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (m) => resolve(m as Record<string, number>));
    child.on("error", reject);
    child.on("exit", (code) => code !== 0 && reject(new Error(`seed exited with ${code}`)));
  });
  return { busy, seconds: Number(((performance.now() - t0) / 1000).toFixed(1)), busyTenant: counts };
}

async function seedChild(arg: { dbName: string; busy: BenchTenant; small: BenchTenant[] }) {
  const { busy, small } = arg;
  const pool = createPool({ ...MYSQL, database: arg.dbName, connectionLimit: 3, multipleStatements: false });
  try {
    const connectionOf = async (t: BenchTenant) => {
      const [r] = (await pool.query("INSERT INTO connections (tenantId,name,type,status,isDefault,token,queueId,settings,createdAt,updatedAt) VALUES (?,?,?,?,?,?,?,?,NOW(),NOW())", [
        t.tenantId,
        "Site",
        "channel-webchat",
        "disconnected",
        1,
        tag() + tag() + tag() + tag(),
        t.queueIds[0],
        "{}",
      ])) as unknown as [{ insertId: number }];
      return r.insertId;
    };
    for (const t of small) {
      await seedTenant(pool, { tenant: t, connectionId: await connectionOf(t), contacts: 2000, open: 300, pending: 200, closed: 1500, unread: 150, messagesPerTicket: 10 });
    }
    await seedTenant(pool, { tenant: busy, connectionId: await connectionOf(busy), contacts: 100_000, open: 15_000, pending: 10_000, closed: 75_000, unread: 9_000, messagesPerTicket: 10 });
    await pool.query("ANALYZE TABLE contacts, tickets, messages");
    const [[counts]] = (await pool.query(
      "SELECT (SELECT COUNT(*) FROM contacts WHERE tenantId = ?) AS contacts, (SELECT COUNT(*) FROM tickets WHERE tenantId = ?) AS tickets, (SELECT COUNT(*) FROM messages WHERE tenantId = ?) AS messages, (SELECT COUNT(*) FROM tickets WHERE tenantId = ? AND status <> 'closed' AND hasUnread = 1) AS unread",
      [busy.tenantId, busy.tenantId, busy.tenantId, busy.tenantId],
    )) as unknown as [[Record<string, number>]];
    return Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, Number(v)]));
  } finally {
    await pool.end();
  }
}

// --- measure ---------------------------------------------------------------------------------

interface LoadResult {
  /** CPU seconds the load generator used. */
  cpuSeconds: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
}

function load(url: string, auth: Auth, opts: { duration?: number; count?: number; connections: number }): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const arg = JSON.stringify({ url, headers: authHeaders(auth), duration: opts.duration, count: opts.count, connections: opts.connections });
    const child = fork(path.join(__dirname, "http-load.cjs"), [arg], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    child.on("message", (m) => resolve(m as LoadResult));
    child.on("error", reject);
    child.on("exit", (code) => code !== 0 && reject(new Error(`load generator exited with ${code}`)));
  });
}

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
    const seeded = await seed(b);
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

if (process.argv[2] === "--seed") {
  seedChild(JSON.parse(process.argv[3])).then(
    (counts) => process.send!(counts, () => process.exit(0)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
} else {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
