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
export type Visibility = VisibilitySettings;

const VISIBILITY_TTL_MS = 5000;
const visibilityCache = new Map<number, { at: number; v: Visibility }>();

/** A tenant's visibility settings, cached a few seconds per process (they change rarely). */
export async function visibilityOf(ctx: Caller, tenantId: number): Promise<Visibility> {
  const hit = visibilityCache.get(tenantId);
  if (hit && Date.now() - hit.at < VISIBILITY_TTL_MS) return hit.v;
  const s = await call(ctx, "settings.forTenant", { tenantId });
  const v = { ticketsOwnerOnly: !!s.ticketsOwnerOnly, botAndUnassignedAdminOnly: !!s.botAndUnassignedAdminOnly };
  visibilityCache.set(tenantId, { at: Date.now(), v });
  return v;
}

export function forgetVisibility(tenantId?: number): void {
  if (tenantId === undefined) visibilityCache.clear();
  else visibilityCache.delete(tenantId);
}

/** The rooms that hear of a ticket: its audiences of spec §6 (@openatende/contracts/visibility). */
export { ticketRooms };
