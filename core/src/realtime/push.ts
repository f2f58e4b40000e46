import type { Context } from "moleculer";

/** Socket.io rooms. Ids are global, the tenant prefix keeps every room inside one tenant. */
export const rooms = {
  tenant: (tenantId: number) => `tenant:${tenantId}`,
  admins: (tenantId: number) => `tenant:${tenantId}:admins`,
  user: (tenantId: number, userId: number) => `tenant:${tenantId}:user:${userId}`,
  queue: (tenantId: number, queueId: number) => `tenant:${tenantId}:queue:${queueId}`,
};

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
export function pushRealtime(ctx: Pick<Context, "emit">, push: RealtimePush): void {
  if (!push.rooms.length) return;
  void ctx.emit("realtime.push", push);
}

/** The visibility settings of spec §6 that decide who hears of a ticket. */
export interface Visibility {
  ticketsOwnerOnly?: boolean;
  botAndUnassignedAdminOnly?: boolean;
}

const VISIBILITY_TTL_MS = 5000;
const visibilityCache = new Map<number, { at: number; v: Visibility }>();

/** A tenant's visibility settings, cached a few seconds per process (they change rarely). */
export async function visibilityOf(ctx: Pick<Context, "call">, tenantId: number): Promise<Visibility> {
  const hit = visibilityCache.get(tenantId);
  if (hit && Date.now() - hit.at < VISIBILITY_TTL_MS) return hit.v;
  const s = (await ctx.call("settings.forTenant", { tenantId })) as Visibility;
  const v = { ticketsOwnerOnly: !!s.ticketsOwnerOnly, botAndUnassignedAdminOnly: !!s.botAndUnassignedAdminOnly };
  visibilityCache.set(tenantId, { at: Date.now(), v });
  return v;
}

export function forgetVisibility(tenantId?: number): void {
  if (tenantId === undefined) visibilityCache.clear();
  else visibilityCache.delete(tenantId);
}

/**
 * Rooms that may see a ticket, mirroring the list's rules (spec §6): admins and supervisors
 * always; its user; its queue's members — or, without a queue, everyone — unless the
 * ticket is someone's (agents see only unassigned ones there), the tenant keeps assigned
 * tickets to their owners (ticketsOwnerOnly), or keeps chatbot and unassigned no-queue
 * tickets to admins (botAndUnassignedAdminOnly).
 */
export function ticketRooms(t: { tenantId: number; queueId: number | null; userId: number | null; status?: string }, v: Visibility = {}): string[] {
  const out = [rooms.admins(t.tenantId)];
  if (t.userId) out.push(rooms.user(t.tenantId, t.userId));
  const botOrLoose = t.status === "chatbot" || (!t.queueId && !t.userId);
  if (v.botAndUnassignedAdminOnly && botOrLoose) return out;
  if (t.queueId) {
    if (!(v.ticketsOwnerOnly && t.userId)) out.push(rooms.queue(t.tenantId, t.queueId));
  } else if (!t.userId) out.push(rooms.tenant(t.tenantId));
  return out;
}
