/**
 * What other services know of the chatbot kind's core side (plugin-sdk chatbot-contract.ts):
 * the tenant's bindings (which connection or queue hands its new tickets to which plugin's
 * bot) and the delivery of a `chatbot` ticket's inbound messages to its owning plugin. The
 * tickets service decides the routing (tickets/chatbot-routing.ts) from `chatbots.bindingsInternal`,
 * cached per tenant and forgotten on `chatbots.changed`.
 */
import type { ChatbotBinding, ChatbotScope } from "@openatende/plugin-sdk";
import type { MessageView } from "../messages/model";

export type { ChatbotBinding, ChatbotScope };

/** The bot that owns a ticket (tickets.chatbotPluginId / chatbotRef). */
export interface ChatbotOwner {
  pluginId: string;
  ref: string;
}

/**
 * One thing a chatbot ticket's owner is handed (chatbots.deliver): the customer's `message`
 * (reason "message", or "started" for the one that opened the ticket), or the start of a
 * ticket handed over without one (`message` null, `startId`: the chatBot log entry's id).
 */
export interface ChatbotDelivery {
  tenantId: number;
  ticketId: number;
  contactId: number;
  pluginId: string;
  ref: string;
  reason: "started" | "message";
  message: (MessageView & { ticketId?: number | null }) | null;
  startId?: number;
}

export interface ChatbotsActions {
  /** The tenant's bindings; `available`: only those whose plugin the tenant may use now (the routing's). */
  "chatbots.bindingsInternal": { params: { tenantId: number; available?: boolean }; result: ChatbotBinding[] };
  /**
   * Binds the tenant's connection or queue (checked: its not-found code) to `pluginId`'s bot
   * `ref`, replacing any; `ref` null removes that plugin's own binding of it.
   */
  "chatbots.bind": { params: { tenantId: number; pluginId: string; scope: ChatbotScope; targetId: number; ref: string | null }; result: { bound: boolean } };
  /** Queues a delivery to the owning plugin (durable, once per id: ChatbotInbound.id). */
  "chatbots.deliver": { params: ChatbotDelivery; result: { id: string } };
}

export interface ChatbotsEvents {
  /** A binding of the tenant changed: routing caches forget the tenant. */
  "chatbots.changed": { tenantId: number };
  /** A node queued a delivery for a plugin: the node that delivers starts working its queue. */
  "chatbots.queued": { pluginId: string };
}

/** ChatbotInbound.id of a delivery. */
export function deliveryId(d: Pick<ChatbotDelivery, "ticketId" | "message" | "startId">): string {
  return d.message ? `${d.ticketId}:${d.message.id}` : `${d.ticketId}:start:${d.startId ?? 0}`;
}
