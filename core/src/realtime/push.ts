import type { Context } from "moleculer";

/** Socket.io rooms. Ids are global, the tenant prefix keeps every room inside one tenant. */
export const rooms = {
  tenant: (tenantId: number) => `tenant:${tenantId}`,
  admins: (tenantId: number) => `tenant:${tenantId}:admins`,
  user: (tenantId: number, userId: number) => `tenant:${tenantId}:user:${userId}`,
  queue: (tenantId: number, queueId: number) => `tenant:${tenantId}:queue:${queueId}`,
};

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

/** Rooms that may see a ticket (spec §6): admins and supervisors, its user, its queue or, without a queue, the whole tenant. */
export function ticketRooms(t: { tenantId: number; queueId: number | null; userId: number | null }): string[] {
  const out = [rooms.admins(t.tenantId)];
  if (t.userId) out.push(rooms.user(t.tenantId, t.userId));
  out.push(t.queueId ? rooms.queue(t.tenantId, t.queueId) : rooms.tenant(t.tenantId));
  return out;
}
