/**
 * The campaign kind (spec §3 Campaign and Campaign contact, §4 Campaign transitions, §5
 * Campaign rules). A campaign plugin is one *type* of campaign (normal, WABA template, SMS),
 * with its own screens and route base (/campanhas, /campanhaswaba, /campanhasms); what every
 * type shares — the statuses and their rules, the contacts, the pacing, the business-hours
 * gate, exactly-once dispatch and the counts from acks — is written once, in the library
 * `@openatende/campaign-engine`, which each type builds on.
 *
 * 1. **Statuses**: pending → scheduled → processing → finished; paused and canceled beside
 *    them. Edit only pending or canceled; delete only pending or canceled with no linked
 *    contacts; pause only scheduled or processing; resume only paused (back to scheduled, or to
 *    processing once it started); scheduling needs linked contacts and a start not in the past;
 *    cancel anything not finished or canceled.
 * 2. **Contacts**: linked from tags, from the contact list, or from a CSV (matched to the
 *    tenant's contacts); each is a Campaign contact with its own status and, once sent, the
 *    message id its acks are counted by.
 * 3. **Dispatch**: through the core API's `platform.messages.sendTo` (ticket "closed": a mass
 *    send opens no ticket), round-robin over the campaign's connections, each paced by a random
 *    interval between the campaign's minimum and maximum seconds, only while the connection's
 *    business time is open (resuming by itself at the next opening). Every send carries
 *    `campaignSendKey(...)` as its idempotency key, and the contact's claim is recorded before
 *    the send, so a worker killed mid-campaign and restarted sends nothing twice and loses
 *    nothing. A channel answering ERR_RATE_LIMITED slows the campaign down (the connection
 *    backs off) instead of failing the contact, which is sent again under its next attempt's key.
 * 4. **Counts**: from the core's `message.acked` events (the message ids recorded per contact),
 *    pushed live to the tenant as the realtime event CAMPAIGN_PROGRESS_EVENT.
 *
 * A type plugin declares `kind: "campaign"` in its manifest and serves the CAMPAIGN_ROUTE_OPS
 * under its route base; `runCampaignConformance` checks it.
 *
 * How to extend: add optional fields and new types; never change what a status means.
 */
import type { PlatformSend } from "./core-api/contract";

export const CAMPAIGN_STATUSES = ["pending", "scheduled", "processing", "paused", "canceled", "finished"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * A campaign contact's status: `pending` (not sent yet), `sending` (claimed for a send whose
 * outcome is not recorded yet: after a restart it is sent again under the same key, which the
 * core answers with the first message), `sent` (handed to the channel), then from acks
 * `delivered`, `read`, `played`; `failed` (the channel refused it; `failReason` says why).
 */
export const CAMPAIGN_CONTACT_STATUSES = ["pending", "sending", "sent", "delivered", "read", "played", "failed"] as const;
export type CampaignContactStatus = (typeof CAMPAIGN_CONTACT_STATUSES)[number];

/** Where a campaign's contacts come from. A CSV's rows are matched to the tenant's contacts by number. */
export type CampaignContactSource = { kind: "tags"; tagIds: number[] } | { kind: "contacts"; contactIds: number[] } | { kind: "csv"; csv: string };

/**
 * A campaign's counts (spec §3): `contacts` linked, `toSend` not sent yet (pending or
 * sending), `delivered` handed to the channel, `received` acked by the contact's device,
 * `read`, `played` (audio), `failed`. Each ack level counts the ones above it too (a read
 * message was received).
 */
export interface CampaignCounts {
  contacts: number;
  toSend: number;
  delivered: number;
  received: number;
  read: number;
  played: number;
  failed: number;
}

/** At most three message variants per campaign; one is chosen for each contact. */
export const CAMPAIGN_MAX_VARIANTS = 3;

/** The pacing bounds of a campaign's random interval, in seconds. */
export const CAMPAIGN_INTERVAL_MAX_SECONDS = 3600;

/** A campaign as every type shares it (the type's own content is `content`). */
export interface CampaignSummary {
  id: number;
  name: string;
  status: CampaignStatus;
  /** Epoch ms. */
  startAt: number;
  connectionIds: number[];
  minIntervalSeconds: number;
  maxIntervalSeconds: number;
  counts: CampaignCounts;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** One campaign contact as the screens list it. */
export interface CampaignContactView {
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  status: CampaignContactStatus;
  /** Which message variant was chosen (0-based), once sent. */
  variant: number | null;
  connectionId: number | null;
  messageId: number | null;
  failReason: string | null;
  sentAt: number | null;
}

/**
 * What a campaign type contributes to the engine: how to check its content (the messages,
 * a template, an SMS text) and how to make one contact's send from it. `Content` is the type's
 * own JSON (kept with the campaign).
 */
export interface CampaignTypeDefinition<Content = unknown> {
  /** "normal", "waba", "sms". */
  type: string;
  /** The route base of its screens and API, without slashes ("campanhas"). */
  routeBase: string;
  /** The problems of a content (empty: valid), as field names → a catalogue code. */
  validateContent(content: Content): Record<string, string>;
  /** How many message variants the content has (1 to CAMPAIGN_MAX_VARIANTS). */
  variantCount(content: Content): number;
  /** The send of one contact with variant `variant` (the engine adds the idempotency key and the ticket). */
  buildSend(content: Content, contact: { contactId: number; name: string; number: string | null }, variant: number): Omit<PlatformSend, "idempotencyKey">;
}

/** The operations every type serves under its route base (`runCampaignConformance` checks them). */
export const CAMPAIGN_ROUTE_OPS = {
  list: "GET /{base}",
  get: "GET /{base}/item",
  create: "POST /{base}",
  update: "PUT /{base}/item",
  remove: "DELETE /{base}/item",
  addContacts: "POST /{base}/item/contacts",
  removeContacts: "DELETE /{base}/item/contacts",
  contacts: "GET /{base}/item/contacts",
  schedule: "POST /{base}/item/schedule",
  pause: "POST /{base}/item/pause",
  resume: "POST /{base}/item/resume",
  cancel: "POST /{base}/item/cancel",
} as const;
export type CampaignRouteOp = keyof typeof CAMPAIGN_ROUTE_OPS;

/** The route of an operation under a base: campaignRoute("campanhas", "pause") → "POST /campanhas/item/pause". */
export function campaignRoute(base: string, op: CampaignRouteOp): string {
  return CAMPAIGN_ROUTE_OPS[op].replace("{base}", base);
}

/** The realtime event a campaign's progress is pushed as (payload: { campaignId, status, counts }). */
export const CAMPAIGN_PROGRESS_EVENT = "campaign.progress";

/**
 * The idempotency key of a campaign contact's send: attempt 0 is the first; a send the
 * channel refused as rate limited is made again under the next attempt's key (the refused
 * one was never handed over, so nothing is sent twice).
 */
export function campaignSendKey(campaignId: number, campaignContactId: number, attempt = 0): string {
  return `campaign:${campaignId}:contact:${campaignContactId}${attempt > 0 ? `:retry:${attempt}` : ""}`;
}
