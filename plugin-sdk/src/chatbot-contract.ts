/**
 * The chatbot kind (spec §3 Auto-reply flow, Flow bot settings; §4 Ticket: the `chatbot` status
 * and its log events). A chatbot plugin owns the tickets it was handed:
 *
 * 1. **Binding.** The plugin tells the core which of the tenant's connections and queues hand
 *    their new tickets to one of its bots (`platform.chatbots.bind`, from its connection and
 *    queue form sections). A connection or queue has at most one chatbot: binding it replaces
 *    whatever bot (of any plugin) it had. `ref` is the plugin's own name for the bot (a flow id).
 * 2. **Start.** A customer's message that opens a ticket on a bound connection (or, without
 *    one, on a connection whose queue is bound) opens it in status `chatbot`, owned by that
 *    plugin and ref, and logs `chatBot` (chatbot started). A ticket an agent or a bot transfers to a bound
 *    queue without a user goes to that queue's bot the same way. `platform.chatbots.start`
 *    hands a pending ticket (no user) to the calling plugin's bot (a closure flow, a restart
 *    keyword).
 * 3. **Conversation.** Each inbound message of a `chatbot` ticket reaches its owner's
 *    `chatbotMessage` action (CHATBOT_MESSAGE_ACTION, made by definePlugin from `chatbot`) as a
 *    ChatbotInbound, durably (a plugin that is down gets it when it is back), in order per
 *    ticket, at least once (`id` tells a repeat apart); the first one says `reason: "started"`.
 *    The plugin answers with `platform.messages.send` (text, or media uploaded with
 *    `platform.files.upload`).
 * 4. **End.** `platform.chatbots.handoff` gives the ticket to a user (open), or to a queue
 *    (pending; with `distribute` "balance" the queue's online user with the fewest open tickets
 *    takes it, "random" any online one of the queue), logging `queue` / `userDefine` (bot queue
 *    / bot user defined), or `retriesLimitQueue` / `retriesLimitUserDefine` (the same by attempt
 *    limit) when `reason` is "attempts"; or the plugin closes it with
 *    `platform.tickets.update` (status closed). Only the owning plugin may hand a ticket off
 *    (another plugin, or a ticket no longer in `chatbot` status: ERR_CHATBOT_NOT_OWNER, 409).
 *    An agent who accepts or transfers the ticket ends the bot's part: the plugin hears it as
 *    ticket.statusChanged / ticket.transferred and stops its timers.
 *
 * How to extend: add optional fields only.
 */
import type { PlatformMessage, PlatformTicket } from "./core-api/contract";

/** The action of a chatbot plugin's service the core hands each inbound message of its tickets to. */
export const CHATBOT_MESSAGE_ACTION = "chatbotMessage";

export type ChatbotScope = "connection" | "queue";

/** A connection or queue that hands its new tickets to a bot. */
export interface ChatbotBinding {
  scope: ChatbotScope;
  targetId: number;
  pluginId: string;
  /** The plugin's own name of the bot (a flow id…), at most 64 characters. */
  ref: string;
}

/** How a hand-off to a queue picks a user: none (the queue's waiting list), balance, random. */
export type ChatbotDistribution = "none" | "balance" | "random";

/** Why a bot hands a ticket off: its flow says so, its attempts ran out, its wait time passed. */
export type ChatbotHandoffReason = "flow" | "attempts" | "timeout";

/** One inbound message (or the start) of a ticket a chatbot owns, as its plugin receives it. */
export interface ChatbotInbound {
  /** Unique per delivery ("<ticketId>:<messageId>" or "<ticketId>:start:<n>"): a repeat has the same id. */
  id: string;
  tenantId: number;
  /** The bot that owns the ticket (the binding's or start's ref). */
  ref: string;
  /** "started": the ticket was just handed to the bot (with the message that opened it, if any). */
  reason: "started" | "message";
  ticket: PlatformTicket;
  contact: { id: number; name: string; number: string | null; email: string | null };
  /** The customer's message; null when the ticket came to the bot without one (a transfer, a start). */
  message: PlatformMessage | null;
  /** Epoch ms when the core received the message (or handed the ticket over). */
  at: number;
}

/** What a plugin's chatbotMessage handler answers (the core records nothing of it; for tests and logs). */
export interface ChatbotReply {
  handled: boolean;
}
