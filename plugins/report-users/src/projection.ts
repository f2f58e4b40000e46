/**
 * The per-user statistics' projection: a core ticket as a row (attendant, queue, status, opened
 * and closed instants), the backfill paging through the core's tickets of every status, and
 * the writes of ticket events (the ticket as the core answers it now) and deletions.
 */
import type { CoreApi, PlatformTicket, TenantData } from "@openatende/plugin-sdk";
import { hourOf, ticketPages, type ProjectionSource } from "@openatende/report-kit";

export const STATUSES = ["open", "pending", "closed", "group", "chatbot"] as const;
export type Status = (typeof STATUSES)[number];

export interface UserTicketRow extends Record<string, unknown> {
  id: number;
  status: Status;
  userId: number | null;
  queueId: number | null;
  createdAt: number;
  closedAt: number | null;
  createdHour: number;
  version: number;
  deleted: boolean;
}

export const ticketRows = (t: TenantData) => t.table<UserTicketRow>("tickets");

export function toRow(t: PlatformTicket): UserTicketRow {
  const createdAt = Date.parse(t.createdAt);
  const updatedAt = Date.parse(t.updatedAt);
  const closing = t.closedAt ? Date.parse(t.closedAt) : NaN;
  const closed = t.status === "closed";
  return {
    id: t.id,
    status: t.status,
    userId: t.userId,
    queueId: t.queueId,
    createdAt,
    // Older data may have no closing instant: the last change is when it closed.
    closedAt: closed ? (Number.isFinite(closing) ? closing : updatedAt) : null,
    createdHour: hourOf(createdAt),
    version: Number.isFinite(updatedAt) ? updatedAt : createdAt,
    deleted: false,
  };
}

/** What the database answers, as numbers (bigint columns may come back as strings, booleans as 0/1). */
export function normalise(r: UserTicketRow): UserTicketRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return { ...r, userId: num(r.userId), queueId: num(r.queueId), createdAt: Number(r.createdAt), closedAt: num(r.closedAt), createdHour: Number(r.createdHour), version: Number(r.version), deleted: Boolean(Number(r.deleted)) };
}

/** Writes the rows not older than what is kept; a tombstone stays. Answers how many it wrote. */
export async function keepNewest(tenant: TenantData, rows: UserTicketRow[]): Promise<number> {
  if (!rows.length) return 0;
  const kept = new Map((await ticketRows(tenant).find({ id: rows.map((r) => r.id) })).map((r) => [Number(r.id), normalise(r)]));
  const newer = rows.filter((r) => {
    const k = kept.get(r.id);
    return k === undefined || (!k.deleted && k.version <= r.version);
  });
  if (newer.length) await ticketRows(tenant).upsertMany(newer);
  return newer.length;
}

export const userTicketsSource: ProjectionSource = {
  name: "user-tickets",
  async clear(tenant) {
    await ticketRows(tenant).delete({});
  },
  async backfill({ api, tenantId, tenant, progress }) {
    let total = 0;
    for await (const { rows, seen, expected } of ticketPages(api, tenantId, STATUSES)) {
      const n = await keepNewest(tenant, rows.map(toRow));
      total += n;
      await progress(n, { seen, expected });
    }
    return total;
  },
};

/** An event's ticket, written as the core has it now (its events may arrive out of order). */
export async function refreshTicket(api: CoreApi, tx: TenantData, ticketId: number): Promise<void> {
  let current: PlatformTicket | null = null;
  try {
    current = await api.tickets.get({ tenantId: tx.tenantId, id: ticketId });
  } catch (err) {
    if ((err as { code?: number }).code !== 404) throw err;
  }
  if (current) await keepNewest(tx, [toRow(current)]);
}

/** A deleted ticket: kept as a tombstone with the highest version. */
export async function markDeleted(tx: TenantData, id: number): Promise<void> {
  const gone = { deleted: true, version: Number.MAX_SAFE_INTEGER };
  if (await ticketRows(tx).update({ id }, gone)) return;
  await ticketRows(tx).upsert({ id, status: "closed", userId: null, queueId: null, createdAt: 0, closedAt: null, createdHour: 0, ...gone });
}
