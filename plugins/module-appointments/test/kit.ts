/**
 * What the module's integration tests share: a real core (MariaDB, Redis) on a test clock whose
 * scheduler ticks every 200 ms, PLUS or PREMIUM tenants with a web chat connection, contacts
 * and open tickets, a user with availability every day, a service, and reading what the core
 * stored as sent on a ticket.
 */
import { createConnection } from "mysql2/promise";
import { createTenant, startCore, uid, type Auth, type Res, type StartOptions, type TenantFixture, type TestCore, ok, expectError, waitFor } from "@openatende/core/testkit";
export { ok, expectError, waitFor };

export type { Auth, Res, TenantFixture, TestCore };

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
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

/** A core on `clock`; `restartOf`: the same installation after `stop({ keep: true })`. */
export function appointmentsCore(clock: Clock, restartOf?: TestCore): Promise<TestCore> {
  const env = { NAMESPACE: restartOf?.config.namespace ?? `appt-${uid()}` };
  const opts: StartOptions = { clock, schedulerTickMs: 200, env, ...(restartOf ? { reuse: restartOf.store } : {}) };
  return startCore(opts);
}

export const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));

/** Every day from 00:00 to 24:00: any future time fits (tests of the availability rule set their own). */
export const ALWAYS = Array.from({ length: 7 }, () => [{ kind: "fullDay", start: "00:00", end: "24:00" }]);

export interface Clinic extends TenantFixture {
  conn: number;
  contacts: number[];
  tickets: number[];
  service: { id: number; duration: number };
}

/** A tenant of `tier` with a connected web chat connection, `n` contacts with an open ticket, the agent available always, and a 30-minute service by the agent and the admin. */
export async function clinic(t: TestCore, n = 2, tier: "PLUS" | "PREMIUM" = "PREMIUM"): Promise<Clinic> {
  const f = await createTenant(t, { tier });
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, f.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
  const contacts: number[] = [];
  const tickets: number[] = [];
  for (let i = 0; i < n; i++) {
    const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const contact = await ok(t.api.post("/contacts", { name: `Paciente ${i + 1} ${uid()}`, number }, f.admin), 201);
    contacts.push(contact.id);
    tickets.push((await ok(t.api.post("/tickets", { contactId: contact.id, connectionId: c.id }, f.admin), 201)).id);
  }
  for (const u of [f.agent.userId, f.admin.userId]) await ok(t.api.call("PUT", `/availability/${u}`, { days: ALWAYS }, f.admin));
  const service = await serviceOf(t, f, [f.agent.userId, f.admin.userId]);
  return { ...f, conn: c.id, contacts, tickets, service };
}

/** A 30-minute service of the users; a PLUS tenant gets it straight in the plugin's database (its admin cannot reach the PREMIUM routes). */
export async function serviceOf(t: TestCore, f: TenantFixture & { tier?: string }, users: number[]): Promise<{ id: number; duration: number }> {
  const r = await t.api.post("/appointments/services", { name: `Consulta ${uid()}`, description: "Avaliação", duration: 30, price: 150, users }, f.admin);
  if (r.status === 201) return { id: r.body.id, duration: 30 };
  const id = Math.floor(Math.random() * 1e9) + 1;
  await pluginSql(t, "INSERT INTO services (tenantId, id, name, description, duration, priceCents, users, createdAt, updatedAt) VALUES (?, ?, ?, '', 30, 15000, ?, ?, ?)", [f.tenantId, id, `Consulta ${uid()}`, JSON.stringify(users), Date.now(), Date.now()]);
  return { id, duration: 30 };
}

/** The texts the ticket's messages carry that were sent by the platform (no agent). */
export async function sentOn(t: TestCore, who: Auth, ticketId: number): Promise<string[]> {
  const r = await ok(t.api.get(`/messages/${ticketId}?pageSize=100&watch=true`, who));
  const rows = (r.messages ?? r.rows ?? r) as Array<{ body: string; fromMe: boolean; userId: number | null }>;
  return rows.filter((m) => m.fromMe && !m.userId).map((m) => m.body);
}

export async function pluginSql(t: TestCore, sql: string, args: unknown[] = []): Promise<unknown> {
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: `${t.config.database.database}__module_appointments` });
  try {
    const [rows] = await db.query(sql, args);
    return rows;
  } finally {
    await db.end();
  }
}

/** A future instant on both clocks, on a whole minute. */
export const ahead = (clock: Clock, ms: number) => Math.ceil((Math.max(clock.now(), Date.now()) + ms) / MIN) * MIN;

/** A start `ms` ahead that leaves the local (São Paulo) day room for a 2-hour appointment: past 21:00 it moves to 10:00 the next day. */
export function slot(clock: Clock, ms: number): number {
  let at = ahead(clock, ms);
  const local = new Date(at - 3 * HOUR);
  if (local.getUTCHours() >= 21) at = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1, 13, 0);
  return at;
}
