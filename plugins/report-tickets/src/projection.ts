/**
 * The tickets projection: a ticket of the core API as the report's row, the backfill that pages
 * through the core's tickets (and their contacts' numbers) for a tenant seen for the first time,
 * and the writes the core's ticket and contact events make.
 */
import type { CoreApi, PlatformTicket, TenantData, TenantTable } from "@openatende/plugin-sdk";
import { hourOf, ticketPages, type BackfillRun, type ProjectionSource } from "@openatende/report-kit";

export const TICKET_STATUSES = ["open", "pending", "closed", "group", "chatbot"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export interface TicketRow extends Record<string, unknown> {
  id: number;
  protocol: string | null;
  status: TicketStatus;
  contactId: number;
  contactName: string;
  contactNumber: string | null;
  queueId: number | null;
  userId: number | null;
  createdAt: number;
  closedAt: number | null;
  createdHour: number;
  version: number;
  deleted: boolean;
}

const ms = (iso: string | null | undefined) => (iso ? Date.parse(iso) : NaN);

/** The row of a ticket (its contact's number from the contact, when known). */
export function rowOf(t: PlatformTicket, contactNumber: string | null): TicketRow {
  const createdAt = ms(t.createdAt);
  const updated = ms(t.updatedAt);
  const closed = t.status === "closed" ? ms(t.closedAt) : NaN;
  return {
    id: t.id,
    protocol: t.protocol ? t.protocol.slice(0, 64) : null,
    status: t.status,
    contactId: t.contactId,
    contactName: (t.contact?.name ?? "").slice(0, 191),
    contactNumber: contactNumber ? contactNumber.slice(0, 64) : null,
    queueId: t.queueId,
    userId: t.userId,
    createdAt,
    // A closed ticket without its closing time (older data) is taken as closed when last changed.
    closedAt: t.status === "closed" ? (Number.isFinite(closed) ? closed : updated) : null,
    createdHour: hourOf(createdAt),
    version: Number.isFinite(updated) ? updated : createdAt,
    deleted: false,
  };
}

export const ticketsTable = (t: TenantData) => t.table<TicketRow>("tickets");

/** Normalises what the database answers (bigint columns may come back as strings, booleans as 0/1). */
export function fromDb(r: TicketRow): TicketRow {
  return {
    ...r,
    createdAt: Number(r.createdAt),
    closedAt: r.closedAt === null ? null : Number(r.closedAt),
    createdHour: Number(r.createdHour),
    version: Number(r.version),
    deleted: !!r.deleted,
    queueId: r.queueId === null ? null : Number(r.queueId),
    userId: r.userId === null ? null : Number(r.userId),
  };
}

/** Writes rows whose version is not older than what is stored, and never over a tombstone. */
export async function writeRows(table: TenantTable<TicketRow>, rows: TicketRow[]): Promise<number> {
  if (!rows.length) return 0;
  const stored = new Map((await table.find({ id: rows.map((r) => r.id) })).map((r) => [r.id, fromDb(r)]));
  const fresh = rows.filter((r) => {
    const s = stored.get(r.id);
    return !s || (!s.deleted && s.version <= r.version);
  });
  if (fresh.length) await table.upsertMany(fresh);
  return fresh.length;
}

/** The numbers of these contacts, by id. */
async function numbersOf(api: CoreApi, tenantId: number, ids: number[]): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 100) {
    const { rows } = await api.contacts.list({ tenantId, ids: unique.slice(i, i + 100), limit: 100 });
    for (const c of rows) out.set(c.id, c.number);
  }
  return out;
}

/** The row of a ticket an event carries: the number kept for its contact, else asked of the core. */
export async function eventRow(api: CoreApi, tx: TenantData, t: PlatformTicket): Promise<TicketRow> {
  const known = await ticketsTable(tx).find({ contactId: t.contactId }, { limit: 1 });
  const number = known.length ? known[0].contactNumber : ((await numbersOf(api, tx.tenantId, [t.contactId])).get(t.contactId) ?? null);
  return rowOf(t, number);
}

/** The backfill and the clearing of the report's projection. */
export const ticketsSource: ProjectionSource = {
  name: "tickets",
  async clear(tenant) {
    await ticketsTable(tenant).delete({});
  },
  async backfill(run: BackfillRun) {
    const { api, tenantId, tenant } = run;
    let written = 0;
    for await (const { rows, seen, expected } of ticketPages(api, tenantId, TICKET_STATUSES)) {
      const numbers = await numbersOf(api, tenantId, rows.map((t) => t.contactId));
      const n = await writeRows(ticketsTable(tenant), rows.map((t) => rowOf(t, numbers.get(t.contactId) ?? null)));
      written += n;
      await run.progress(n, { seen, expected });
    }
    return written;
  },
};

/** A contact's new name and number on its tickets' rows. */
export async function contactChanged(api: CoreApi, tx: TenantData, tenantId: number, contactId: number): Promise<void> {
  const rows = await ticketsTable(tx).count({ contactId });
  if (!rows) return;
  const c = await api.contacts.get({ tenantId, id: contactId });
  await ticketsTable(tx).update({ contactId }, { contactName: c.name.slice(0, 191), contactNumber: c.number ? c.number.slice(0, 64) : null });
}

/** A deleted ticket: its row stays as a tombstone that no later write (an older backfill page) revives. */
export async function tombstone(tx: TenantData, id: number): Promise<void> {
  const n = await ticketsTable(tx).update({ id }, { deleted: true, version: Number.MAX_SAFE_INTEGER });
  if (n) return;
  await ticketsTable(tx).upsert({ id, protocol: null, status: "closed", contactId: 0, contactName: "", contactNumber: null, queueId: null, userId: null, createdAt: 0, closedAt: null, createdHour: 0, version: Number.MAX_SAFE_INTEGER, deleted: true });
}
