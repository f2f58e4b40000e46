import type { Context } from "moleculer";
import type { TicketRow } from "../tickets/model";
import { hidesContactInfo, pushRealtime, ticketAudience } from "../realtime/push";
import { call, emit } from "../bus/call";
import { REALTIME_EVENTS, appMessage, chatCreated } from "@openatende/contracts/realtime";
import { withHiddenParticipant, type MessageView } from "../messages/model";

type PushTicket = Pick<TicketRow, "id" | "tenantId" | "userId" | "queueId" | "status" | "isGroup" | "unreadMessages" | "chatbotPluginId" | "chatbotRef">;

/**
 * The realtime events of a new inbound message, to whoever may see its ticket: the spec's list
 * channel (`chat:create`, with what the shell shows and notifies on) and `appMessage`. A
 * message written on the account's own phone says `fromMe` and comes read, so nobody is
 * notified of it; a group message names the member who wrote it (`participant`).
 *
 * A customer's message on a ticket a bot owns (status chatbot) is also queued for the bot's
 * plugin (core/src/chatbots, chatbots.deliver): "started" when the message opened the ticket
 * (`opened`), "message" otherwise.
 */
export async function pushInbound(
  ctx: Pick<Context, "emit" | "call">,
  o: { ticket: PushTicket; contact: { id: number; name: string; profilePicUrl?: string | null }; message: MessageView; body: string; isGroup: boolean; fromMe: boolean; hasMedia: boolean; opened?: boolean; verifiedBizName?: string | null },
): Promise<void> {
  const { ticket, contact } = o;
  const bot = ticket.status === "chatbot" && !o.fromMe && ticket.chatbotPluginId && ticket.chatbotRef ? { pluginId: ticket.chatbotPluginId, ref: ticket.chatbotRef } : null;
  // Queued first (the bot's answer is what the customer waits for), awaited last.
  const queued = bot
    ? call(ctx, "chatbots.deliver", { tenantId: ticket.tenantId, ticketId: ticket.id, contactId: contact.id, ...bot, reason: o.opened ? "started" : "message", message: o.message })
    : null;
  const audience = await ticketAudience(ctx, ticket);
  // Agents hear these too: with the tenant's hideContactInfo a group member's address and phone stay out.
  const message = (await hidesContactInfo(ctx, ticket.tenantId)) ? withHiddenParticipant(o.message) : o.message;
  // The payloads are the contract's (@openatende/contracts/realtime), which the shell reads.
  pushRealtime(ctx, { ...audience, event: REALTIME_EVENTS.ticketList(ticket.tenantId), payload: chatCreated({ ...o, message }) });
  pushRealtime(ctx, { ...audience, event: REALTIME_EVENTS.appMessage(ticket.tenantId), payload: appMessage("create", message, ticket, contact) });
  void emit(ctx, "messages.changed", { action: "create", tenantId: ticket.tenantId, ticketId: ticket.id, message: o.message, at: Date.now(), ticketStatus: ticket.status });
  if (queued) await queued;
}
