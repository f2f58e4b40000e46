import type { Context } from "moleculer";
import type { TicketRow } from "../tickets/model";
import { pushRealtime, ticketRooms, visibilityOf } from "../realtime/push";
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
  pushRealtime(ctx, {
    rooms,
    event: `${ticket.tenantId}:ticketList`,
    payload: {
      type: "chat:create",
      payload: {
        body: o.body,
        read: o.fromMe,
        fromMe: o.fromMe,
        isGroup: o.isGroup,
        participant: message.participant,
        verifiedBizName: null,
        messageId: message.id,
        mediaType: o.hasMedia ? message.mediaType : null,
        ticket: {
          id: ticket.id,
          userId: ticket.userId,
          queueId: ticket.queueId,
          contactId: contact.id,
          isGroup: !!ticket.isGroup,
          status: ticket.status,
          unreadMessages: ticket.unreadMessages,
          contact: { name: contact.name, profilePicUrl: contact.profilePicUrl ?? null },
        },
      },
    },
  });
  pushRealtime(ctx, {
    rooms,
    event: `${ticket.tenantId}:appMessage`,
    payload: {
      action: "create",
      message,
      ticket: { id: ticket.id, status: ticket.status, userId: ticket.userId, queueId: ticket.queueId },
      contact: { id: contact.id, name: contact.name, profilePicUrl: contact.profilePicUrl ?? null },
    },
  });
}
