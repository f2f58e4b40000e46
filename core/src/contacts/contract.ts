/**
 * What other services may know of a contact: its view, the card a channel's message shows of
 * its sender, and the actions and events of the contacts service. Other services import this
 * file, never the contacts service or its models.
 */
import type { ContactView as ContactWire } from "@openatende/contracts/contact-fields";
import type { ContactUpdateEvent, ContactUpdateResult } from "@openatende/plugin-sdk";

/** A contact as the API shows it, with the row's Date stamps (JSON turns them into strings). */
export type ContactView = ContactWire<Date>;

/** Who a channel's message is from: a channel identity (WhatsApp JID, Telegram id, e-mail address, …) of a tenant. */
export interface ChannelIdentity {
  tenantId: number;
  channelType: string;
  externalId: string;
}

/** contacts.resolveInbound: the identity, and what the channel knows of its contact. */
export interface InboundParams extends ChannelIdentity {
  name?: string;
  phone?: string;
  email?: string;
  avatarUrl?: string;
  /** Answer id, name and picture only (what a channel needs), without tags and wallet. */
  slim?: boolean;
}

/** The card of a channel identity's contact (id, name, picture). */
export interface InboundContact {
  id: number;
  name: string;
  profilePicUrl: string | null;
}

/** contacts.resolveInbound's answer: the card (with `slim`; without it the whole ContactView), and whether the contact was created now. */
export type ResolvedInbound = InboundContact & { created: boolean };

/** contacts.applyChannelUpdate: what a channel learnt of a contact (channels.contact), with the connection's type instead of the connection. */
export type ChannelContactUpdate = Omit<ContactUpdateEvent, "connectionId"> & { channelType: string };

/** contacts.botCard: a contact as a bot's delivery shows it. */
export interface ContactBotCard {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  profilePicUrl: string | null;
  tags: Array<{ id: number; name: string; color: string }>;
}

/** Name, number and picture of a contact (contacts.summaries: ticket lists). */
export interface ContactSummary {
  id: number;
  name: string;
  number: string | null;
  profilePicUrl: string | null;
}

/** contacts.query (platform-query.ts): the core API's filtered page of a tenant's contacts. */
export interface ContactQueryParams {
  tenantId: number;
  ids?: number[];
  tagIds?: number[];
  search?: string;
  /** Birthday in this month (1–12). */
  birthdayMonth?: number;
  /** State field equal to one of these. */
  states?: string[];
  offset: number;
  limit: number;
}

/** contacts.notesQuery: the tenant's contact notes, newest first, the first `limit` of them. */
export interface ContactNotesQueryParams {
  tenantId: number;
  contactIds?: number[];
  userIds?: number[];
  from?: string | Date;
  to?: string | Date;
  search?: string;
  limit: number;
}

export interface ContactNoteHit {
  id: number;
  contactId: number;
  contactName: string;
  userId: number | null;
  title: string;
  body: string;
  createdAt: Date;
}

/** A contact as a tag's keyset page shows it (platform.contacts.byTags): what a campaign links. */
export interface TaggedContact {
  id: number;
  name: string;
  number: string | null;
}

/** Actions of the contacts service other services call. */
export interface ContactsActions {
  /** The contact of a channel identity, created on first contact (race-safe). */
  "contacts.resolveInbound": { params: InboundParams; result: ResolvedInbound };
  /** Read only: the card of a known identity, or null when resolving it would write anything. */
  "contacts.findInbound": { params: ChannelIdentity & { avatarUrl?: string }; result: InboundContact | null };
  "contacts.applyChannelUpdate": { params: ChannelContactUpdate; result: ContactUpdateResult };
  "contacts.getInternal": { params: { tenantId: number; id: number }; result: ContactView | null };
  /** What a bot's delivery shows of a contact (bot-card.ts); null when it is not the tenant's. */
  "contacts.botCard": { params: { tenantId: number; id: number }; result: ContactBotCard | null };
  /** Unknown ids are left out. */
  "contacts.summaries": { params: { tenantId: number; ids: number[] }; result: ContactSummary[] };
  /** Ids of the tenant's contacts whose name, e-mail or number contains `q` (ticket search), newest first. */
  "contacts.searchIds": { params: { tenantId: number; q: string; limit?: number }; result: number[] };
  /** The contact's address on a channel type (its newest identity there), or null. */
  "contacts.identityFor": { params: { tenantId: number; contactId: number; channelType: string }; result: string | null };
  "contacts.count": { params: { tenantId: number }; result: number };
  "contacts.countByTag": { params: { tenantId: number; tagId: number }; result: number };
  /** The tag leaves every contact of the tenant; answers how many links went. */
  "contacts.detachTag": { params: { tenantId: number; tagId: number }; result: number };
  /** The core API of plugins (core/src/platform): a filtered page by name, every field shown. */
  "contacts.query": { params: ContactQueryParams; result: { rows: ContactView[]; count: number; hasMore: boolean } };
  "contacts.afterId": { params: { tenantId: number; afterId: number; limit: number; withTotal?: boolean }; result: { rows: ContactView[]; total?: number } };
  /** The tenant's contacts carrying any of the tags. */
  "contacts.idsByTags": { params: { tenantId: number; tagIds: number[] }; result: number[] };
  /** The core API's keyset page of the contacts carrying any of the tags: id order, after `afterId`, no count. */
  "contacts.taggedPage": { params: { tenantId: number; tagIds: number[]; afterId: number; limit: number }; result: TaggedContact[] };
  "contacts.notesQuery": { params: ContactNotesQueryParams; result: { rows: ContactNoteHit[]; count: number } };
  /** A plugin's change of a contact's name or e-mail (contacts.updated follows). */
  "contacts.platformUpdate": { params: { tenantId: number; id: number; name?: string; email?: string | null }; result: ContactView };
}

export interface ContactsEvents {
  /** `source`: "api", "import" or the channel type that met the contact first. */
  "contacts.created": { tenantId: number; contactId: number; source: string };
  "contacts.updated": { tenantId: number; contactId: number };
  "contacts.deleted": { tenantId: number; contactId: number };
  /** The contacts of `removedIds` became `keptId` (tickets, messages, identities moved there). */
  "contacts.merged": { tenantId: number; keptId: number; removedIds: number[] };
}
