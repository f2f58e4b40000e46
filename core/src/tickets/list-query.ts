import type { TicketStatus } from "./model";

/**
 * The ticket list as a union of index ranges.
 *
 * A list is the tickets a user may see (spec §6), filtered (spec §3 attendance filter) and
 * ordered pinned first, then unread, then by last activity. Written as one WHERE with ORs,
 * that makes the database scan and sort every matching ticket. Instead each way a ticket
 * can be visible becomes its own branch — (status, queue), (status, user), (status, no
 * queue), (status) — each an exact prefix of one of the list indexes, read in index order
 * and cut at offset + page + 1 rows. The branches are merged in memory. The work of a
 * request is bounded by the page, not by the size of the table, and the number of SQL
 * statements does not grow with the page number.
 */

export interface ListFilter {
  tenantId: number;
  statuses: TicketStatus[];
  /** Queues the caller asked for (empty: no queue filter). */
  queueIds: number[];
  /** Admins and supervisors with showAll see every ticket. */
  showAll: boolean;
  me: { id: number; queues: number[]; admin: boolean };
  withUnreadMessages: boolean;
  isNotAssignedUser: boolean;
  includeNotQueueDefined: boolean;
  /** Contact ids matching a search, or undefined when no search. */
  contactIds?: number[];
  /** A search that is a protocol or a ticket id. */
  protocolOrId?: { protocol: string; id: number | null };
  settings: { ticketsOwnerOnly: boolean; botAndUnassignedAdminOnly: boolean };
  offset: number;
  limit: number;
}

interface Branch {
  where: string[];
  params: unknown[];
}

export const ORDER = "pinned DESC, hasUnread DESC, lastMessageAt DESC, id DESC";
export const COLUMNS =
  "id, tenantId, contactId, connectionId, queueId, userId, status, protocol, isGroup, pinned, unreadMessages, hasUnread, lastMessage, lastMessageAt, closedAt, createdAt, updatedAt";

function branchesFor(f: ListFilter, status: TicketStatus): Branch[] {
  const base = (): Branch => ({ where: ["tenantId = ?", "status = ?"], params: [f.tenantId, status] });
  const out: Branch[] = [];
  const seeAll = f.showAll && f.me.admin;
  if (status === "chatbot" && f.settings.botAndUnassignedAdminOnly && !f.me.admin) return [];

  if (seeAll) {
    if (f.queueIds.length) {
      for (const q of f.queueIds) {
        const b = base();
        b.where.push("queueId = ?");
        b.params.push(q);
        out.push(b);
      }
      if (f.includeNotQueueDefined) {
        const b = base();
        b.where.push("queueId IS NULL");
        out.push(b);
      }
    } else out.push(base());
    return out;
  }

  // Not "show all": the caller's own tickets, their queues' tickets, and tickets without a queue.
  const queues = f.queueIds.length ? f.me.queues.filter((q) => f.queueIds.includes(q)) : f.me.queues;
  if (!f.isNotAssignedUser) {
    const mine = base();
    mine.where.push("userId = ?");
    mine.params.push(f.me.id);
    out.push(mine);
  }
  for (const q of queues) {
    const b = base();
    b.where.push("queueId = ?");
    b.params.push(q);
    if (f.settings.ticketsOwnerOnly && !f.me.admin) {
      b.where.push("(userId IS NULL OR userId = ?)");
      b.params.push(f.me.id);
    }
    out.push(b);
  }
  if (f.includeNotQueueDefined && !(f.settings.botAndUnassignedAdminOnly && !f.me.admin)) {
    const b = base();
    b.where.push("queueId IS NULL");
    if (!f.me.admin) {
      b.where.push("(userId IS NULL OR userId = ?)");
      b.params.push(f.me.id);
    }
    out.push(b);
  }
  return out;
}

/** Builds one UNION ALL statement; null when nothing can match. */
export function buildListQuery(f: ListFilter): { sql: string; params: unknown[] } | null {
  const parts: string[] = [];
  const params: unknown[] = [];
  const cut = f.offset + f.limit + 1;
  for (const status of f.statuses) {
    for (const b of branchesFor(f, status)) {
      if (f.withUnreadMessages) b.where.push("hasUnread = 1");
      if (f.isNotAssignedUser) b.where.push("userId IS NULL");
      if (f.contactIds || f.protocolOrId) {
        const or: string[] = [];
        if (f.contactIds?.length) {
          or.push(`contactId IN (${f.contactIds.map(() => "?").join(",")})`);
          b.params.push(...f.contactIds);
        }
        if (f.protocolOrId) {
          or.push("protocol = ?");
          b.params.push(f.protocolOrId.protocol);
          if (f.protocolOrId.id !== null) {
            or.push("id = ?");
            b.params.push(f.protocolOrId.id);
          }
        }
        if (!or.length) continue;
        b.where.push(`(${or.join(" OR ")})`);
      }
      parts.push(`SELECT * FROM (SELECT ${COLUMNS} FROM tickets WHERE ${b.where.join(" AND ")} ORDER BY ${ORDER} LIMIT ${cut}) AS b${parts.length}`);
      params.push(...b.params);
    }
  }
  if (!parts.length) return null;
  return { sql: parts.join(" UNION ALL "), params };
}

export interface ListedRow {
  id: number;
  pinned: number | boolean;
  hasUnread: number | boolean;
  lastMessageAt: number | string;
  [k: string]: unknown;
}

/** Merges the branches' rows: one row per ticket, in list order, cut to the page. */
export function mergePage<T extends ListedRow>(rows: T[], offset: number, limit: number): { rows: T[]; hasMore: boolean } {
  const seen = new Map<number, T>();
  for (const r of rows) if (!seen.has(Number(r.id))) seen.set(Number(r.id), r);
  const all = [...seen.values()].sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) ||
      Number(b.hasUnread) - Number(a.hasUnread) ||
      Number(b.lastMessageAt) - Number(a.lastMessageAt) ||
      Number(b.id) - Number(a.id),
  );
  return { rows: all.slice(offset, offset + limit), hasMore: all.length > offset + limit };
}
