import { call, emit, type Caller, type Emitter } from "../bus/call";
import { rooms, ticketRooms, type VisibilitySettings } from "@openatende/contracts/visibility";
import { TtlCache } from "../lib/ttl-cache";

export { rooms };

/**
 * Admins in the strict sense (spec §6: profile admin or super, or a support account), without
 * the supervisors of `rooms.admins`: what only /configuracoes shows — a connection's QR code —
 * goes here.
 */
export const adminOnlyRoom = (tenantId: number) => `${rooms.admins(tenantId)}:strict`;

export interface RealtimePush {
  rooms: string[];
  event: string;
  payload: unknown;
  /** Sockets in any of these rooms are left out, whatever other room they are in. */
  except?: string[];
}

/**
 * Sends an event to sockets in rooms. One gateway's realtime service takes it (a balanced
 * event) and socket.io's Redis adapter carries it to the sockets held by other gateway nodes.
 */
export function pushRealtime(ctx: Emitter, push: RealtimePush): void {
  if (!push.rooms.length) return;
  void emit(ctx, "realtime.push", push);
}

/** The visibility settings of spec §6 that decide who hears of a ticket. */
export type Visibility = VisibilitySettings & {
  /** Users who get no group ticket (spec §6 "groups tab hidden for chosen users"). */
  groupsHiddenForUsers?: number[];
  /** Contacts' phone and e-mail are hidden from non-admins: live events (agents hear them too) carry neither. */
  hideContactInfo?: boolean;
};

const VISIBILITY_TTL_MS = 5000;
/** Concurrent misses share one read (every message of a busy tenant asks at once when the entry runs out). */
const visibilityCache = new TtlCache<number, Visibility>(VISIBILITY_TTL_MS, 50_000);

/** A tenant's visibility settings, cached a few seconds per process (they change rarely). */
export function visibilityOf(ctx: Caller, tenantId: number): Promise<Visibility> {
  return visibilityCache.get(tenantId, async () => {
    const s = await call(ctx, "settings.forTenant", { tenantId });
    const hidden = Array.isArray(s.groupsHiddenForUsers) ? (s.groupsHiddenForUsers as unknown[]).map(Number).filter(Number.isInteger) : [];
    return { ticketsOwnerOnly: !!s.ticketsOwnerOnly, botAndUnassignedAdminOnly: !!s.botAndUnassignedAdminOnly, groupsHiddenForUsers: hidden, hideContactInfo: s.hideContactInfo === true };
  });
}

export function forgetVisibility(tenantId?: number): void {
  if (tenantId === undefined) visibilityCache.drop();
  else visibilityCache.dropKey(tenantId);
}

/** The rooms that hear of a ticket: its audiences of spec §6 (@openatende/contracts/visibility). */
export { ticketRooms };

/**
 * Who hears of a ticket's events: the rooms of its audiences, less — for a group ticket — the
 * sockets of the users the tenant hides groups from (they get none in lists or by id either).
 */
export async function ticketAudience(ctx: Caller, t: { tenantId: number; status: string; queueId: number | null; userId: number | null; isGroup?: boolean | null }): Promise<Pick<RealtimePush, "rooms" | "except">> {
  const v = await visibilityOf(ctx, t.tenantId);
  const hidden = t.isGroup ? (v.groupsHiddenForUsers ?? []) : [];
  return { rooms: ticketRooms(t, v), ...(hidden.length ? { except: hidden.map((id) => rooms.user(t.tenantId, id)) } : {}) };
}

/** Whether the tenant hides contacts' phone and e-mail (cached with the visibility settings). */
export async function hidesContactInfo(ctx: Caller, tenantId: number): Promise<boolean> {
  return !!(await visibilityOf(ctx, tenantId)).hideContactInfo;
}
