/**
 * Hooks: moments where the core asks a plugin before it goes on, rather than telling it after
 * (the events of core-api/contract.ts). A plugin declares them in definePlugin's `hooks`; the
 * core calls them only for plugins available to the ticket's tenant (allowed, switched on,
 * within its tier).
 *
 * - **beforeClose** (TICKET_BEFORE_CLOSE_ACTION): a user closes a ticket (PUT /tickets/:id with
 *   status closed). The handler throws a PluginError (a code of its manifest) to refuse: the
 *   agent gets that error and the ticket stays as it was. Mass resolve, the automation's closes
 *   and plugins' closes do not ask (`ticket.closed` tells them apart by `via`). A plugin that
 *   is down or does not answer in time does not hold the close (logged).
 * - **onClaimedInbound** (CLAIMED_INBOUND_ACTION): the plugin claimed a contact on a connection
 *   (`platform.inbound.claim`: a survey waiting for its answer). While the claim lasts, that
 *   contact's messages there that would open a new ticket come to the plugin first. Answering
 *   `consumed: true` keeps the message on the claim's ticket (a closed ticket is not reopened)
 *   and opens nothing; `consumed: false` lets it open a ticket as usual. `release: true` ends
 *   the claim. A plugin that is down, throws or does not answer in time releases the claim and
 *   the message opens a ticket: a customer is never left unheard.
 *
 * How to extend: add optional fields only.
 */
import type { PlatformTicket } from "./core-api/contract";

export const TICKET_BEFORE_CLOSE_ACTION = "ticketBeforeClose";
export const CLAIMED_INBOUND_ACTION = "claimedInbound";

/** How long the core waits for a hook's answer before going on without it. */
export const HOOK_TIMEOUT_MS = 10_000;

export type PluginHookName = "beforeClose" | "onClaimedInbound";

/** A user's close the plugin may refuse. */
export interface TicketCloseCheck {
  tenantId: number;
  /** The ticket as it is before the close. */
  ticket: PlatformTicket;
  /** The user closing it. */
  userId: number;
}

/** A message of a contact the plugin claimed. */
export interface ClaimedInbound {
  /** Unique per message ("<connectionId>:<provider message id>"): a repeat has the same id. */
  id: string;
  tenantId: number;
  /** The claim's own name (what the plugin gave `platform.inbound.claim`). */
  ref: string;
  /** The claim's ticket (where a consumed message is kept), or null. */
  ticketId: number | null;
  connectionId: number;
  contact: { id: number; name: string; number: string | null };
  message: { body: string; mediaType: string | null; timestamp: number };
  /** Epoch ms when the core received it. */
  at: number;
}

export interface ClaimedInboundReply {
  consumed: boolean;
  release?: boolean;
}

/** What a claim answers (`platform.inbound.claim`). */
export interface InboundClaim {
  claimed: true;
  /** Epoch ms. */
  expiresAt: number;
}
