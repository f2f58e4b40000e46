import type { Context } from "moleculer";
import type { TicketRow } from "../tickets/model";
import { pushRealtime, ticketRooms, visibilityOf } from "../realtime/push";
import { REALTIME_EVENTS, appMessage, chatCreated } from "@openatende/contracts/realtime";
import type { MessageView } from "../messages/model";

type PushTicket = Pick<TicketRow, "id" | "tenantId" | "userId" | "queueId" | "status" | "isGroup" | "unreadMessages">;

/**
 * The realtime events of a new inbound message, to whoever may see its ticket: the spec's list
 * channel (`chat:create`, with what the shell shows and notifies on) and `appMessage`. A
 * message written on the account's own phone says `fromMe` and comes read, so nobody is
 * notified of it; a group message names the member who wrote it (`participant`).
 */
export async function pushInbound(
  ctx: Pick<Context, "emit" | "call">,
  o: { ticket: PushTicket; contact: { id: number; name: string; profilePicUrl?: string | null }; message: MessageView; body: string; isGroup: boolean; fromMe: boolean; hasMedia: boolean },
): Promise<void> {
  const { ticket, contact, message } = o;
  const rooms = ticketRooms(ticket, await visibilityOf(ctx, ticket.tenantId));
  // The payloads are the contract's (@openatende/contracts/realtime), which the shell reads.
  pushRealtime(ctx, { rooms, event: REALTIME_EVENTS.ticketList(ticket.tenantId), payload: chatCreated(o) });
  pushRealtime(ctx, { rooms, event: REALTIME_EVENTS.appMessage(ticket.tenantId), payload: appMessage("create", message, ticket, contact) });
}
