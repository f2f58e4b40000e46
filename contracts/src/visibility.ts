/**
 * Who may see a ticket (spec §6), stated once. The core's per-ticket check, the SQL of the
 * attendance list, the socket rooms a ticket's events go to and the shell's live list all
 * derive from the two functions below, which are each other's inverse:
 *
 * - `audienceOf(ticket)`: the audiences that see a ticket (what rooms are made of);
 * - `ticketsOf(audience)`: the tickets an audience sees, as column equalities (what SQL is
 *   made of).
 *
 * Admins (admin, super, support accounts) and supervisors see every ticket. Anyone else sees
 * the tickets they hold, their queues' tickets and the unassigned tickets without a queue,
 * unless the tenant keeps assigned tickets to their owners (`ticketsOwnerOnly`) or keeps
 * chatbot tickets and those with no user nor queue to admins (`botAndUnassignedAdminOnly`).
 * To change the rule, change these two functions and their table in visibility.test.ts.
 */

/** The one who looks: profile as stored (user, supervisor, admin, super). */
export interface Viewer {
  id: number;
  profile: string;
  /** Support accounts count as admins. */
  isSupport?: boolean;
  /** The queues the viewer belongs to. */
  queues: readonly number[];
}

/** Tenant settings that narrow what non-admins see (spec §6). */
export interface VisibilitySettings {
  ticketsOwnerOnly?: boolean;
  botAndUnassignedAdminOnly?: boolean;
}

/** What of a ticket decides who sees it. */
export interface TicketPlace {
  status: string;
  queueId: number | null;
  userId: number | null;
}

export type Audience =
  /** Admins and supervisors. */
  | { kind: "staff" }
  /** The user holding the ticket. */
  | { kind: "owner"; userId: number }
  /** The members of a queue. */
  | { kind: "queue"; queueId: number }
  /** Every user of the tenant. */
  | { kind: "everyone" };

/** Admins (profiles admin and super, support accounts) and supervisors see every ticket. */
export function seesEveryTicket(v: Pick<Viewer, "profile" | "isSupport">): boolean {
  return v.profile === "admin" || v.profile === "super" || v.profile === "supervisor" || !!v.isSupport;
}

const present = (x: number | null | undefined): x is number => x !== null && x !== undefined;

/** The audiences that see a ticket. */
export function audienceOf(t: TicketPlace, s: VisibilitySettings = {}): Audience[] {
  const out: Audience[] = [{ kind: "staff" }];
  if (present(t.userId)) out.push({ kind: "owner", userId: t.userId });
  const botOrLoose = t.status === "chatbot" || (!present(t.queueId) && !present(t.userId));
  if (s.botAndUnassignedAdminOnly && botOrLoose) return out;
  if (present(t.queueId)) {
    if (!(s.ticketsOwnerOnly && present(t.userId))) out.push({ kind: "queue", queueId: t.queueId });
  } else if (!present(t.userId)) out.push({ kind: "everyone" });
  return out;
}

/** Whether the viewer belongs to an audience. */
export function inAudience(v: Viewer, a: Audience): boolean {
  switch (a.kind) {
    case "staff":
      return seesEveryTicket(v);
    case "owner":
      return a.userId === v.id;
    case "queue":
      return v.queues.includes(a.queueId);
    case "everyone":
      return true;
  }
}

/** The per-ticket check: whether the viewer may see the ticket. */
export function canSee(v: Viewer, t: TicketPlace, s: VisibilitySettings = {}): boolean {
  return audienceOf(t, s).some((a) => inAudience(v, a));
}

/**
 * Tickets of one status, as equalities on their columns: a number is that value, null is "no
 * value" (SQL IS NULL), a column left out is any value. `{}` is every ticket of the status.
 */
export interface Match {
  queueId?: number | null;
  userId?: number | null;
}

export function matches(m: Match, t: Pick<TicketPlace, "queueId" | "userId">): boolean {
  const same = (want: number | null | undefined, have: number | null | undefined) => want === undefined || (want === null ? !present(have) : want === have);
  return same(m.queueId, t.queueId) && same(m.userId, t.userId);
}

/** The tickets of a status an audience sees (the inverse of audienceOf); null when none. */
export function ticketsOf(a: Audience, status: string, s: VisibilitySettings = {}): Match | null {
  switch (a.kind) {
    case "staff":
      return {};
    case "owner":
      return { userId: a.userId };
    case "queue":
      if (s.botAndUnassignedAdminOnly && status === "chatbot") return null;
      return s.ticketsOwnerOnly ? { queueId: a.queueId, userId: null } : { queueId: a.queueId };
    case "everyone":
      return s.botAndUnassignedAdminOnly ? null : { queueId: null, userId: null };
  }
}

/** The audiences a viewer belongs to. */
export function audiencesOfViewer(v: Viewer): Audience[] {
  if (seesEveryTicket(v)) return [{ kind: "staff" }];
  return [{ kind: "owner", userId: v.id }, ...v.queues.map((queueId): Audience => ({ kind: "queue", queueId })), { kind: "everyone" }];
}

/** The tickets of a status the viewer may see, as a union of matches. */
export function visibleMatches(v: Viewer, status: string, s: VisibilitySettings = {}): Match[] {
  return audiencesOfViewer(v)
    .map((a) => ticketsOf(a, status, s))
    .filter((m): m is Match => m !== null);
}

// --- the attendance list ---------------------------------------------------------------------

/** The attendance list's filters (spec §3) that take part in which tickets it holds. */
export interface ListScope {
  statuses: readonly string[];
  /** Admins and supervisors: every ticket instead of their own part of the house. */
  showAll?: boolean;
  /** Only these queues (empty: any queue). */
  queueIds?: readonly number[];
  /** Tickets without a queue too. */
  includeNotQueueDefined: boolean;
  withUnreadMessages?: boolean;
  isNotAssignedUser?: boolean;
}

/**
 * The tickets of a status in the viewer's list before its queue filters: what they may see,
 * and for admins and supervisors without showAll their own part of the house (their tickets,
 * their queues' and those without a queue), which is all anyone else can see anyway.
 */
export function listMatches(v: Viewer, status: string, s: VisibilitySettings, showAll: boolean): Match[] {
  if (!seesEveryTicket(v)) return visibleMatches(v, status, s);
  if (showAll) return [{}];
  return [{ userId: v.id }, ...v.queues.map((queueId) => ({ queueId })), { queueId: null }];
}

/** Whether the list's queue filters let a ticket of this queue (or none) through. */
export function queueWanted(f: Pick<ListScope, "queueIds" | "includeNotQueueDefined">, queueId: number | null): boolean {
  if (!present(queueId)) return f.includeNotQueueDefined;
  return f.queueIds?.length ? f.queueIds.includes(queueId) : true;
}

/** Whether a ticket is in the viewer's attendance list under these filters (search aside). */
export function inList(v: Viewer, t: TicketPlace & { unreadMessages: number }, s: VisibilitySettings, f: ListScope): boolean {
  if (!f.statuses.includes(t.status)) return false;
  if (f.withUnreadMessages && !(t.unreadMessages > 0)) return false;
  if (f.isNotAssignedUser && present(t.userId)) return false;
  if (!queueWanted(f, t.queueId)) return false;
  return listMatches(v, t.status, s, !!f.showAll).some((m) => matches(m, t));
}

// --- socket rooms ----------------------------------------------------------------------------

/** Socket.io rooms. Ids are global, the tenant prefix keeps every room inside one tenant. */
export const rooms = {
  tenant: (tenantId: number) => `tenant:${tenantId}`,
  admins: (tenantId: number) => `tenant:${tenantId}:admins`,
  user: (tenantId: number, userId: number) => `tenant:${tenantId}:user:${userId}`,
  queue: (tenantId: number, queueId: number) => `tenant:${tenantId}:queue:${queueId}`,
};

export function audienceRoom(tenantId: number, a: Audience): string {
  switch (a.kind) {
    case "staff":
      return rooms.admins(tenantId);
    case "owner":
      return rooms.user(tenantId, a.userId);
    case "queue":
      return rooms.queue(tenantId, a.queueId);
    case "everyone":
      return rooms.tenant(tenantId);
  }
}

/** The rooms a ticket's events go to: one per audience that sees it. */
export function ticketRooms(t: TicketPlace & { tenantId: number }, s: VisibilitySettings = {}): string[] {
  return audienceOf(t, s).map((a) => audienceRoom(t.tenantId, a));
}

/** The rooms a viewer's sockets join to hear of the tickets they may see. */
export function viewerRooms(v: Viewer, tenantId: number): string[] {
  const out = [rooms.tenant(tenantId), rooms.user(tenantId, v.id)];
  if (seesEveryTicket(v)) out.push(rooms.admins(tenantId));
  for (const q of v.queues) out.push(rooms.queue(tenantId, q));
  return out;
}
