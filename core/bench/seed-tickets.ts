/**
 * The busy-tenant seed of bench:lists, shared with bench:reports: one busy tenant (20 users, 5
 * queues, 100k contacts, 100k tickets: 15k open, 10k pending, 75k closed, 9k of the active ones
 * with unread messages; 1M messages, 10 per ticket) and two small tenants, seeded with
 * multi-row INSERTs straight into the tables in a child process (this file run with `--seed`),
 * so that the million rows built there never sit in the heap of the process being measured.
 * Closed tickets were last active 3 to 90 days ago, active ones within the last 3 days.
 */
import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createPool, Pool } from "mysql2/promise";
import { createBenchTenant, BenchCore, BenchTenant, MYSQL, tag } from "./common";

const CHUNK = 5000;

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
export async function seedBusyTenant(b: BenchCore) {
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

if (require.main === module && process.argv[2] === "--seed") {
  seedChild(JSON.parse(process.argv[3])).then(
    (counts) => process.send!(counts, () => process.exit(0)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
