import {
  canSee,
  listMatches,
  seesEveryTicket,
  ticketRooms,
  type Match,
  type Viewer,
  type VisibilitySettings,
} from "@openatende/contracts/visibility";
import type { AuthUser } from "../types";
import type { TicketStatus } from "./model";

/**
 * Ticket visibility (spec §6) in the core: the per-ticket check, the socket rooms and the SQL
 * of the attendance list, all from the one rule in @openatende/contracts/visibility (which
 * the shell's live list applies too). Nothing here decides who sees what; it only writes the
 * rule's answers as SQL.
 */
export { canSee, seesEveryTicket, ticketRooms, type Viewer, type VisibilitySettings };

/** The viewer a request's user is, with the queues they belong to. */
export function viewerOf(u: Pick<AuthUser, "id" | "profile" | "isSupport">, queues: readonly number[]): Viewer {
  return { id: u.id, profile: u.profile, isSupport: !!u.isSupport, queues: [...queues] };
}

/**
 * Spec §6 "the groups tab can be hidden for chosen users": those users get no group ticket,
 * in the list (its SQL leaves them out) nor one by one (404), whatever their profile.
 */
export function groupsHiddenFor(userId: number, s: { groupsHiddenForUsers?: unknown }): boolean {
  const ids = s.groupsHiddenForUsers;
  return Array.isArray(ids) && ids.some((x) => Number(x) === userId);
}

/** One index range of the list: conditions joined by AND, after `tenantId = ? AND status = ?`. */
export interface Branch {
  where: string[];
  params: unknown[];
}

/** The list's filters that decide which tickets of a status are in it (beyond search and unread). */
export interface ListScopeFilter {
  viewer: Viewer;
  settings: VisibilitySettings;
  /** Admins and supervisors: every ticket (narrowed by the queue filters). */
  showAll: boolean;
  /** Queues the caller asked for (empty: no queue filter). */
  queueIds: number[];
  includeNotQueueDefined: boolean;
  isNotAssignedUser: boolean;
}

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");

/**
 * The conditions of one match under the list's queue filters, as index-friendly branches: a
 * match names its queue (an exact prefix of the queue index) or its user (of the user index),
 * or, when it names neither, is split by the wanted queues. Null when the filters leave
 * nothing of it.
 */
function branchesOfMatch(m: Match, f: ListScopeFilter): Branch[] {
  const b: Branch = { where: [], params: [] };
  if (m.queueId === null) {
    if (!f.includeNotQueueDefined) return [];
    b.where.push("queueId IS NULL");
  } else if (m.queueId !== undefined) {
    if (f.queueIds.length && !f.queueIds.includes(m.queueId)) return [];
    b.where.push("queueId = ?");
    b.params.push(m.queueId);
  }
  if (m.userId === null) b.where.push("userId IS NULL");
  else if (m.userId !== undefined) {
    // Unassigned only: a match of someone's tickets holds none.
    if (f.isNotAssignedUser) return [];
    b.where.push("userId = ?");
    b.params.push(m.userId);
  }
  if (m.queueId !== undefined) return [b];
  // Any queue: narrowed by the queue filters.
  if (!f.queueIds.length) {
    if (!f.includeNotQueueDefined) b.where.push("queueId IS NOT NULL");
    return [b];
  }
  if (m.userId !== undefined) {
    // A user's tickets are few: one range of the user index, the queues checked on it.
    b.where.push(`(queueId IN (${placeholders(f.queueIds.length)})${f.includeNotQueueDefined ? " OR queueId IS NULL" : ""})`);
    b.params.push(...f.queueIds);
    return [b];
  }
  const out = f.queueIds.map((q) => ({ where: [...b.where, "queueId = ?"], params: [...b.params, q] }));
  if (f.includeNotQueueDefined) out.push({ where: [...b.where, "queueId IS NULL"], params: [...b.params] });
  return out;
}

/** The SQL branches of the tickets of a status in the viewer's list: their union is the list. */
export function visibleBranches(f: ListScopeFilter, status: TicketStatus): Branch[] {
  return listMatches(f.viewer, status, f.settings, f.showAll).flatMap((m) => branchesOfMatch(m, f));
}
