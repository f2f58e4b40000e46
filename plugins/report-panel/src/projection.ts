/**
 * The live panel's projection: the tenant's waiting and in-service tickets (migrations/0001),
 * backfilled from the core's pending and open tickets and kept by ticket events, each rewritten
 * as the core answers it now (a ticket's events may come out of order).
 */
import type { CoreApi, PlatformTicket, TenantData } from "@openatende/plugin-sdk";
import { ticketPages, type ProjectionSource } from "@openatende/report-kit";

export const LIVE_STATUSES = ["pending", "open"] as const;

export interface LiveTicket extends Record<string, unknown> {
  id: number;
  status: string;
  queueId: number | null;
  waitingSince: number | null;
  version: number;
  deleted: boolean;
}

export const liveTickets = (t: TenantData) => t.table<LiveTicket>("live_tickets");

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** A stored row as numbers (bigint columns may come back as strings, booleans as 0/1). */
export function fromDb(r: LiveTicket): LiveTicket {
  return { id: Number(r.id), status: String(r.status), queueId: numOrNull(r.queueId), waitingSince: numOrNull(r.waitingSince), version: Number(r.version), deleted: Boolean(Number(r.deleted)) };
}

/**
 * The ticket as a row. A pending ticket waits since it was kept pending before (the row says),
 * else since its last change (what made it pending), or its creation when it was never changed.
 */
export function rowOf(t: PlatformTicket, kept: LiveTicket | undefined): LiveTicket {
  const createdAt = Date.parse(t.createdAt);
  const updatedAt = Date.parse(t.updatedAt);
  const version = Number.isFinite(updatedAt) ? updatedAt : createdAt;
  let waitingSince: number | null = null;
  if (t.status === "pending") waitingSince = kept?.status === "pending" && kept.waitingSince !== null ? kept.waitingSince : kept ? version : createdAt;
  return { id: t.id, status: t.status, queueId: t.queueId, waitingSince, version, deleted: false };
}

/** Writes the tickets whose row is missing or not newer; a tombstone stays. Answers how many. */
export async function writeTickets(tenant: TenantData, tickets: PlatformTicket[]): Promise<number> {
  if (!tickets.length) return 0;
  const table = liveTickets(tenant);
  const kept = new Map((await table.find({ id: tickets.map((t) => t.id) })).map((r) => [Number(r.id), fromDb(r)]));
  const rows: LiveTicket[] = [];
  for (const t of tickets) {
    const k = kept.get(t.id);
    const row = rowOf(t, k);
    if (!k || (!k.deleted && k.version <= row.version)) rows.push(row);
  }
  if (rows.length) await table.upsertMany(rows);
  return rows.length;
}

export const liveTicketsSource: ProjectionSource = {
  name: "live-tickets",
  async clear(tenant) {
    await liveTickets(tenant).delete({});
  },
  async backfill({ api, tenantId, tenant, progress }) {
    let written = 0;
    for await (const { rows, seen, expected } of ticketPages(api, tenantId, LIVE_STATUSES)) {
      const n = await writeTickets(tenant, rows);
      written += n;
      await progress(n, { seen, expected });
    }
    return written;
  },
};

/** An event's ticket as the core has it now; gone: a tombstone. */
export async function refresh(api: CoreApi, tx: TenantData, ticketId: number): Promise<void> {
  try {
    await writeTickets(tx, [await api.tickets.get({ tenantId: tx.tenantId, id: ticketId })]);
  } catch (err) {
    if ((err as { code?: number }).code !== 404) throw err;
    await tombstone(tx, ticketId);
  }
}

export async function tombstone(tx: TenantData, id: number): Promise<void> {
  await liveTickets(tx).upsert({ id, status: "deleted", queueId: null, waitingSince: null, version: Number.MAX_SAFE_INTEGER, deleted: true });
}
