import { call, emit, type Caller, type Emitter } from "../bus/call";
import { rooms, ticketRooms, type VisibilitySettings } from "@openatende/contracts/visibility";

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
const visibilityCache = new Map<number, { at: number; v: Visibility }>();

/** A tenant's visibility settings, cached a few seconds per process (they change rarely). */
export async function visibilityOf(ctx: Caller, tenantId: number): Promise<Visibility> {
  const hit = visibilityCache.get(tenantId);
  if (hit && Date.now() - hit.at < VISIBILITY_TTL_MS) return hit.v;
  const s = await call(ctx, "settings.forTenant", { tenantId });
  const hidden = Array.isArray(s.groupsHiddenForUsers) ? (s.groupsHiddenForUsers as unknown[]).map(Number).filter(Number.isInteger) : [];
  const v = { ticketsOwnerOnly: !!s.ticketsOwnerOnly, botAndUnassignedAdminOnly: !!s.botAndUnassignedAdminOnly, groupsHiddenForUsers: hidden, hideContactInfo: s.hideContactInfo === true };
  visibilityCache.set(tenantId, { at: Date.now(), v });
  return v;
}

export function forgetVisibility(tenantId?: number): void {
  if (tenantId === undefined) visibilityCache.clear();
  else visibilityCache.delete(tenantId);
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
