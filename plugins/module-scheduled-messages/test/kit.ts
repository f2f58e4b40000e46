/**
 * What the module's integration tests share: a real core (MariaDB, Redis) on a test clock whose
 * scheduler ticks every 200 ms, tenants with a web chat connection, contacts and open tickets,
 * and reading what the core stored as sent on a ticket.
 */
import { createConnection } from "mysql2/promise";
import { createTenant, startCore, uid, type Auth, type Res, type StartOptions, type TenantFixture, type TestCore, ok, expectError, waitFor } from "@openatende/core/testkit";
export { ok, expectError, waitFor };

export type { Auth, Res, TenantFixture, TestCore };

/** The core's clock for the tests: moves only when told (the scheduler decides what is due by it). */
export class Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    if (t > this.t) this.t = t;
  }
}

export const MIN = 60_000;

/** A core on `clock`; `restartOf`: the same installation (database, data, Redis namespace) after `stop({ keep: true })`. */
export function scheduledCore(clock: Clock, restartOf?: TestCore): Promise<TestCore> {
  const env = { NAMESPACE: restartOf?.config.namespace ?? `sched-${uid()}` };
  const opts: StartOptions = { clock, schedulerTickMs: 200, env, ...(restartOf ? { reuse: restartOf.store } : {}) };
  return startCore(opts);
}

/** Long enough for several scheduler ticks to have run whatever was due. */
export const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));

export interface Shop extends TenantFixture {
  conn: number;
  contacts: number[];
  tickets: number[];
}

/** A tenant with a connected web chat connection, `n` contacts and an open ticket for each. */
export async function shop(t: TestCore, n = 2, tier: "FREE" | "PLUS" = "FREE"): Promise<Shop> {
  const f = await createTenant(t, { tier });
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, f.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
  const contacts: number[] = [];
  const tickets: number[] = [];
  for (let i = 0; i < n; i++) {
    const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const contact = await ok(t.api.post("/contacts", { name: `Cliente ${i + 1} ${uid()}`, number }, f.admin), 201);
    contacts.push(contact.id);
    tickets.push((await ok(t.api.post("/tickets", { contactId: contact.id, connectionId: c.id }, f.admin), 201)).id);
  }
  return { ...f, conn: c.id, contacts, tickets };
}

/** The texts the ticket's messages carry that were sent by the platform (no agent). */
export async function sentOn(t: TestCore, who: Auth, ticketId: number): Promise<string[]> {
  const r = await ok(t.api.get(`/messages/${ticketId}?pageSize=100&watch=true`, who));
  const rows = (r.messages ?? r.rows ?? r) as Array<{ body: string; fromMe: boolean; userId: number | null }>;
  return rows.filter((m) => m.fromMe && !m.userId).map((m) => m.body);
}

/** Runs SQL on the plugin's own database (what a crash between two steps leaves behind). */
export async function pluginSql(t: TestCore, sql: string, args: unknown[] = []): Promise<unknown> {
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: `${t.config.database.database}__module_scheduled_messages` });
  try {
    const [rows] = await db.query(sql, args);
    return rows;
  } finally {
    await db.end();
  }
}

/** A future instant on both clocks: the plugin checks "in the future" by the machine's, the scheduler fires by the test's. */
export const ahead = (clock: Clock, ms: number) => Math.max(clock.now(), Date.now()) + ms;
