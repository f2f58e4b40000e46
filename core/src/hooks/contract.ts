/**
 * The plugins' hooks (plugin-sdk hooks-contract.ts): what the core asks plugins before it goes
 * on, and the contacts they claimed. Internal: plugins claim through the core API
 * (platform.inbound.claim / release); the tickets service asks `hooks.beforeClose` before a
 * user's close, the channels service `hooks.takeClaimed` before a message opens a ticket.
 */
import type { ClaimedInbound, PlatformTicket } from "@openatende/plugin-sdk";

export interface HooksActions {
  /** Every available plugin with a beforeClose hook, in turn: the first refusal (a plugin's client error) is thrown. */
  "hooks.beforeClose": { params: { tenantId: number; ticket: PlatformTicket; userId: number }; result: { asked: number } };
  /** Claims the contact on the connection for `pluginId` until `minutes` from now, replacing any claim there. */
  "hooks.claim": { params: { tenantId: number; pluginId: string; contactId: number; connectionId: number; ref: string; ticketId?: number | null; minutes: number }; result: { claimed: true; expiresAt: number } };
  /** Drops `pluginId`'s claim of the contact on the connection. */
  "hooks.release": { params: { tenantId: number; pluginId: string; contactId: number; connectionId: number }; result: { released: boolean } };
  /**
   * A message that would open a ticket: when a live claim holds its contact there, its plugin is
   * asked; consumed → the claim's ticket (where the message is to be kept), else null.
   */
  "hooks.takeClaimed": { params: Omit<ClaimedInbound, "ref" | "ticketId" | "at">; result: { ticketId: number | null } | null };
}
