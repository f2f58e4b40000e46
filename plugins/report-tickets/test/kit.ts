/**
 * What the report's integration tests share: a real core (MariaDB, Redis) with the plugin, a
 * tenant seeded BEFORE the plugin is allowed (so its first query backfills), tickets whose
 * creation and closing times are set in the core's database to hand-picked instants, and raw
 * downloads.
 */
import { createConnection } from "mysql2/promise";
import { type Auth, type Res, type TenantFixture, type TestCore, uid, ok, expectError, waitFor } from "@openatende/core/testkit";
export { ok, expectError, waitFor };

export const MIN = 60_000;

export interface Seeded {
  conn: number;
  contact(name: string, number: string): Promise<number>;
  ticket(contactId: number, opts: { queueId?: number; status: "open" | "pending" | "closed"; userId?: number }): Promise<number>;
}

export async function seedOf(t: TestCore, f: TenantFixture): Promise<Seeded> {
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, f.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
  return {
    conn: c.id,
    contact: async (name, number) => (await ok(t.api.post("/contacts", { name, number }, f.admin), 201)).id,
    async ticket(contactId, opts) {
      const id = (await ok(t.api.post("/tickets", { contactId, connectionId: c.id, queueId: opts.queueId }, f.admin), 201)).id as number;
      const change: Record<string, unknown> = { status: opts.status };
      if (opts.userId) change.userId = opts.userId;
      await ok(t.api.put(`/tickets/${id}`, change, f.admin));
      return id;
    },
  };
}

/** Sets a ticket's creation and closing instants in the core's database (what a long-lived tenant has). */
export async function setTimes(t: TestCore, times: Array<{ id: number; createdAt: number; closedAt?: number | null }>): Promise<void> {
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: t.config.database.database, timezone: "Z" });
  try {
    for (const x of times) {
      const closed = x.closedAt ? new Date(x.closedAt) : null;
      await db.query("UPDATE tickets SET createdAt = ?, closedAt = ?, updatedAt = ? WHERE id = ?", [new Date(x.createdAt), closed, closed ?? new Date(x.createdAt), x.id]);
    }
  } finally {
    await db.end();
  }
}

/** A download's bytes and headers. */
export async function download(t: TestCore, path: string, who: Auth, locale = "pt-BR"): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`${t.url}/api${path}`, { headers: { authorization: `Bearer ${who.token}`, "x-session-id": who.sessionId, "x-locale": locale } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The plugin's service in the core's broker: its clock is what the SLA classes are counted at. */
export function pluginService(t: TestCore): { clock: { now(): number } } {
  const svc = t.core.broker.getLocalService({ name: "report-tickets", version: 1 }) as unknown as { clock: { now(): number } } | undefined;
  if (!svc) throw new Error("report-tickets is not loaded in the core");
  return svc;
}
