import type { TicketStatus } from "./model";
import { seesEveryTicket, visibleBranches, type Branch, type Viewer, type VisibilitySettings } from "./visibility";

/**
 * The ticket list as a union of index ranges.
 *
 * A list is the tickets a user may see (spec §6), filtered (spec §3 attendance filter) and
 * ordered pinned first, then unread, then by last activity. Written as one WHERE with ORs,
 * that makes the database scan and sort every matching ticket. Instead each way a ticket
 * can be visible becomes its own branch — (status, queue), (status, user), (status, no
 * queue), (status) — each an exact prefix of one of the list indexes, read in index order
 * and cut at offset + page + 1 rows. Branches read sort keys only (index-only), the database
 * merges them and cuts the page, and only the page's rows are read whole. The work of a
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
  /** Who asks: which tickets they may see is ./visibility's (spec §6). */
  viewer: Viewer;
  withUnreadMessages: boolean;
  isNotAssignedUser: boolean;
  includeNotQueueDefined: boolean;
  /** Leave group tickets out (spec §6: groups hidden for the caller). */
  noGroups?: boolean;
  /** Contact ids matching a search, or undefined when no search. */
  contactIds?: number[];
  /** A search that is a protocol or a ticket id. */
  protocolOrId?: { protocol: string; id: number | null };
  settings: VisibilitySettings;
  /** Spec §2 ticket ordering; pinned and unread come first either way (spec §4). Default recent. */
  order?: ListOrder;
  offset: number;
  limit: number;
  /**
   * MariaDB/MySQL only: read the date columns as the ISO-8601 text the API answers with
   * rather than as Date objects that are then printed again (parsing and printing them cost
   * more than the rest of the page's rows). SQLite answers its stored text either way.
   */
  datesAsText?: boolean;
}

/**
 * The orders a user picks for their list (kept in their filter): latest activity first, or
 * oldest activity first (the customer waiting longest). Each is read along its own indexes:
 * "recent" backwards along the all-ascending list indexes (0007, 0009), "oldest" forwards
 * along their pinned/hasUnread-descending twins (0016).
 */
export const LIST_ORDERS = ["recent", "oldest"] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

const ORDERS: Record<ListOrder, string> = {
  recent: "pinned DESC, hasUnread DESC, lastMessageAt DESC, id DESC",
  oldest: "pinned DESC, hasUnread DESC, lastMessageAt ASC, id ASC",
};
export const ORDER = ORDERS.recent;
const orderOf = (o: ListOrder | undefined, alias: "" | "t." = "") => ORDERS[o ?? "recent"].replace(/(\w+) (ASC|DESC)/g, `${alias}$1 $2`);
export const COLUMNS =
  "id, tenantId, contactId, connectionId, queueId, userId, status, protocol, isGroup, pinned, unreadMessages, hasUnread, lastMessage, lastMessageAt, closedAt, createdAt, updatedAt";

/** The caller's branches for each status, with the request's filters on each. */
function filtered(f: ListFilter, branchesOf: (status: TicketStatus) => Branch[]): Branch[] {
  const out: Branch[] = [];
  for (const status of f.statuses) {
    for (const v of branchesOf(status)) {
      const b: Branch = { where: ["tenantId = ?", "status = ?", ...v.where], params: [f.tenantId, status, ...v.params] };
      // `pinned IN (0, 1)` turns "unread first" into two exact index ranges (pinned, then not).
      if (f.withUnreadMessages) b.where.push("pinned IN (0, 1)", "hasUnread = 1");
      if (f.isNotAssignedUser) b.where.push("userId IS NULL");
      if (f.noGroups) b.where.push("isGroup = 0");
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
      out.push(b);
    }
  }
  return out;
}

/** Sort keys: every list index holds them, so a branch is read from its index alone. */
const KEYS = "id, pinned, hasUnread, lastMessageAt";
const DATE_COLUMNS = new Set(["closedAt", "createdAt", "updatedAt"]);

/**
 * The page's columns, of `tickets` or of its alias `t`. As text, a DATETIME (stored in UTC,
 * whole seconds) reads as Date#toJSON prints it; NULL stays NULL.
 */
function columns(datesAsText: boolean | undefined, alias: "" | "t."): string {
  return COLUMNS.split(", ")
    .map((c) => (datesAsText && DATE_COLUMNS.has(c) ? `DATE_FORMAT(${alias}${c}, '%Y-%m-%dT%H:%i:%s.000Z') AS ${c}` : alias + c))
    .join(", ");
}

/**
 * One statement answering the page itself: `limit + 1` rows from `offset` (the extra row
 * tells whether more follow), in list order, each ticket once. Branches are read as index
 * ranges of sort keys only, merged and cut by the database, and only the page's rows are
 * read whole; the rows sent back never exceed the page, whatever its number.
 */
function pageStatement(
  branches: Branch[],
  offset: number,
  limit: number,
  datesAsText: boolean | undefined,
  order: ListOrder | undefined,
  /** One more column, evaluated once (an uncorrelated subquery). */
  extra?: { sql: string; params: unknown[] },
): { sql: string; params: unknown[] } {
  const more = extra ? `, ${extra.sql}` : "";
  const by = orderOf(order);
  const byT = orderOf(order, "t.");
  const first = extra?.params ?? [];
  if (branches.length === 1) {
    const [b] = branches;
    const where = b.where.join(" AND ");
    if (offset === 0) return { sql: `SELECT ${columns(datesAsText, "")}${more} FROM tickets WHERE ${where} ORDER BY ${by} LIMIT ${limit + 1}`, params: [...first, ...b.params] };
    return {
      sql: `SELECT ${columns(datesAsText, "t.")}${more} FROM (SELECT id FROM tickets WHERE ${where} ORDER BY ${by} LIMIT ${offset}, ${limit + 1}) AS p JOIN tickets t ON t.id = p.id ORDER BY ${byT}`,
      params: [...first, ...b.params],
    };
  }
  const cut = offset + limit + 1;
  const parts = branches.map((b, i) => `SELECT * FROM (SELECT ${KEYS} FROM tickets WHERE ${b.where.join(" AND ")} ORDER BY ${by} LIMIT ${cut}) AS b${i}`);
  return {
    // UNION (not ALL): a ticket two branches share is kept once (same row, same sort keys).
    sql: `SELECT ${columns(datesAsText, "t.")}${more} FROM (${parts.join(" UNION ")} ORDER BY ${by} LIMIT ${offset}, ${limit + 1}) AS p JOIN tickets t ON t.id = p.id ORDER BY ${byT}`,
    params: [...first, ...branches.flatMap((b) => b.params)],
  };
}

/**
 * Unread only, over several statuses, with no queue or user condition: one range of the
 * unread index (tenantId, hasUnread, pinned, lastMessageAt, id, status), read in list order
 * with the status checked inside the index, instead of a branch per status merged after.
 * Closing a ticket clears its unread mark, so that range holds active tickets almost only.
 */
function unreadAcrossStatuses(f: ListFilter, branches: Branch[]): Branch[] {
  // The unread index holds pinned ascending: it gives "recent" (read backwards) only.
  if (!f.withUnreadMessages || branches.length < 2 || (f.order ?? "recent") !== "recent") return branches;
  const [first] = branches;
  const where = first.where.join(" AND ");
  const rest = JSON.stringify(first.params.slice(2));
  const mergeable = branches.every(
    (b) =>
      b.where[0] === "tenantId = ?" &&
      b.where[1] === "status = ?" &&
      b.where.join(" AND ") === where &&
      !b.where.some((w) => /queueId|userId/.test(w)) &&
      JSON.stringify(b.params.slice(2)) === rest,
  );
  if (!mergeable) return branches;
  const statuses = branches.map((b) => b.params[1]);
  return [{ where: [first.where[0], `status IN (${statuses.map(() => "?").join(",")})`, ...first.where.slice(2)], params: [first.params[0], ...statuses, ...first.params.slice(2)] }];
}

/** The page as one statement over the caller's branches; null when nothing can match. */
export function buildListQuery(f: ListFilter): { sql: string; params: unknown[] } | null {
  const branches = unreadAcrossStatuses(f, filtered(f, (status) => visibleBranches(f, status)));
  return branches.length ? pageStatement(branches, f.offset, f.limit, f.datesAsText, f.order) : null;
}

/**
 * An admin or supervisor without showAll sees their own tickets, their queues' and those
 * without a queue. When no ticket of the statuses is in another queue, that is every ticket
 * of the statuses: one range per status instead of a branch per queue. The statement reads
 * that page and, in the same snapshot, whether any ticket lies outside (`listOutside`);
 * when one does, the page is discarded and the exact branches are read instead.
 */
function wideStatement(f: ListFilter): { sql: string; params: unknown[] } | null {
  const staff = seesEveryTicket(f.viewer);
  if (!staff || f.showAll || !f.includeNotQueueDefined || f.isNotAssignedUser || !f.statuses.length) return null;
  const allowed = [...new Set(f.queueIds.length ? f.viewer.queues.filter((q) => f.queueIds.includes(q)) : f.viewer.queues)].sort((a, b) => a - b);
  const wide = unreadAcrossStatuses(f, filtered(f, () => [{ where: [], params: [] }]));
  if (!wide.length) return null;
  // Queue ids outside `allowed`, as index ranges (NULL is never inside a comparison).
  const gaps: string[] = [];
  if (!allowed.length) gaps.push("queueId IS NOT NULL");
  else {
    gaps.push("queueId < ?");
    for (let i = 1; i < allowed.length; i++) gaps.push("(queueId > ? AND queueId < ?)");
    gaps.push("queueId > ?");
  }
  const gapParams = allowed.length ? [allowed[0], ...allowed.slice(1).flatMap((q, i) => [allowed[i], q]), allowed[allowed.length - 1]] : [];
  // Every row carries the answer; no row means the page is past the end of every ticket of
  // the statuses, so past the end of the caller's too: empty either way.
  return pageStatement(wide, f.offset, f.limit, f.datesAsText, f.order, {
    sql: `(SELECT EXISTS (SELECT 1 FROM tickets WHERE tenantId = ? AND status IN (${f.statuses.map(() => "?").join(",")}) AND (${gaps.join(" OR ")}))) AS listOutside`,
    params: [f.tenantId, ...f.statuses, ...gapParams],
  });
}

export interface ListedRow {
  id: number;
  pinned: number | boolean;
  hasUnread: number | boolean;
  lastMessageAt: number | string;
  [k: string]: unknown;
}

export type ListRunner = (sql: string, params: unknown[]) => Promise<ListedRow[]>;

/**
 * The page of the list, in list order: one SQL statement, or two for an admin whose queues
 * leave some tickets out (see wideStatement). Never more as the page number grows.
 */
export async function listPage(f: ListFilter, run: ListRunner): Promise<{ rows: ListedRow[]; hasMore: boolean }> {
  const page = (rows: ListedRow[]) => ({ rows: rows.slice(0, f.limit), hasMore: rows.length > f.limit });
  const wide = wideStatement(f);
  if (wide) {
    const rows = await run(wide.sql, wide.params);
    if (!rows.length || !Number(rows[0].listOutside)) {
      for (const r of rows) delete r.listOutside;
      return page(rows);
    }
  }
  const q = buildListQuery(f);
  return q ? page(await run(q.sql, q.params)) : { rows: [], hasMore: false };
}
