/**
 * What the plugin's integration tests share: a real core (MariaDB, Redis) on a test clock whose
 * scheduler ticks every 200 ms, with the plugin's service reading the same clock; BASIC tenants
 * the plugin is allowed for, each with a connected web chat connection and contacts with
 * birthdays; what the core stored as sent, and SQL on the plugin's own database.
 */
import { createConnection } from "mysql2/promise";
import { createSuper, createTenant, startCore, uid, type Auth, type Res, type StartOptions, type TenantFixture, type TestCore, ok, expectError, waitFor } from "@openatende/core/testkit";
import { TestClock } from "../../../core/src/lib/clock";
export { ok, expectError, waitFor };

export type { Auth, Res, TenantFixture, TestCore };
export { TestClock };

export const MIN = 60_000;
export const API = "/relatorios/aniversariantes";

/** Long enough for several scheduler ticks to have run whatever was due. */
export const settle = (ms = 1500) => new Promise((r) => setTimeout(r, ms));

/** A core on `clock` with the plugin reading it; `restartOf`: the same installation after `stop({ keep: true })`. */
export async function birthdaysCore(clock: TestClock, restartOf?: TestCore): Promise<TestCore> {
  const env = { NAMESPACE: restartOf?.config.namespace ?? `birthdays-${uid()}` };
  const opts: StartOptions = { clock, schedulerTickMs: 200, env, ...(restartOf ? { reuse: restartOf.store } : {}) };
  const t = await startCore(opts);
  const svc = t.core.broker.getLocalService({ name: "report-birthdays", version: 1 }) as unknown as { clock: { now(): number } } | undefined;
  if (!svc) throw new Error("report-birthdays is not loaded in the core");
  svc.clock = clock;
  return t;
}

export interface Shop extends TenantFixture {
  conn: number;
  contact(name: string, birthday: string | null): Promise<number>;
}

/** A BASIC tenant the plugin is allowed for, with a connected web chat connection. */
export async function shop(t: TestCore, sup: Auth): Promise<Shop> {
  const f = await createTenant(t, { tier: "BASIC" });
  await ok(t.api.put(`/plugins/report-birthdays/tenants/${f.tenantId}`, { allowed: true }, sup));
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, f.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
  await waitFor("the plugin's routes", () => t.api.get(`${API}/sends`, f.admin), (r) => r.status === 200);
  return {
    ...f,
    conn: c.id,
    async contact(name, birthday) {
      const number = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
      return (await ok(t.api.post("/contacts", { name, number, ...(birthday ? { birthday } : {}) }, f.admin), 201)).id;
    },
  };
}

export { createSuper };

/** The texts the platform sent (no agent) to each contact of the tenant. */
export async function sentTexts(t: TestCore, tenantId: number): Promise<Array<{ contactId: number; body: string }>> {
  return (await coreSql(t, "SELECT contactId, body FROM messages WHERE tenantId = ? AND fromMe = 1 AND userId IS NULL ORDER BY id", [tenantId])) as Array<{ contactId: number; body: string }>;
}

async function sql(database: string, query: string, args: unknown[]): Promise<unknown> {
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database });
  try {
    const [rows] = await db.query(query, args);
    return rows;
  } finally {
    await db.end();
  }
}

/** The core's database name (a MariaDB test core always has one). */
const dbOf = (t: TestCore) => String(t.config.database.database);
export const coreSql = (t: TestCore, query: string, args: unknown[] = []) => sql(dbOf(t), query, args);
export const pluginSql = (t: TestCore, query: string, args: unknown[] = []) => sql(`${dbOf(t)}__report_birthdays`, query, args);
