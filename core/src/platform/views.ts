/**
 * The core's rows as the core API of plugins shows them (plugin-sdk core-api/contract.ts): only
 * the fields the contract names, dates as ISO strings (the same in the core's process and
 * across the transporter).
 */
import type { PlatformContact, PlatformMessage, PlatformNote, PlatformQueue, PlatformTag, PlatformTicket, PlatformUser } from "@openatende/plugin-sdk";
import type { ContactView } from "../contacts/contract";
import type { TicketRow } from "../tickets/contract";
import type { MessageView } from "../messages/model";
import type { UserWithQueues } from "../users/contract";
import type { TagView } from "../tags/contract";
import type { QueueName } from "../queues/contract";

export const iso = (d: Date | string | null | undefined): string | null => (d === null || d === undefined ? null : new Date(d).toISOString());
const isoNow = (d: Date | string | null | undefined): string => iso(d) ?? new Date(0).toISOString();

/** Queues have no colour of their own in this core: the contract's field is answered empty. */
export const NO_QUEUE_COLOR = "";

export const tagOf = (t: { id: number; name: string; color: string }): PlatformTag => ({ id: t.id, name: t.name, color: t.color });

export function contactOf(c: ContactView): PlatformContact {
  return {
    id: c.id,
    name: c.name,
    number: c.number ?? null,
    email: c.email ?? null,
    profilePicUrl: c.profilePicUrl ?? null,
    // Groups are tickets' property here (a group's contact is an ordinary contact row).
    isGroup: false,
    tags: (c.tags ?? []).map(tagOf),
    birthday: c.birthday ?? null,
    state: c.state ?? null,
    createdAt: isoNow(c.createdAt),
    updatedAt: isoNow(c.updatedAt),
  };
}

export function ticketOf(t: TicketRow, contact?: ContactView | { id: number; name: string; profilePicUrl: string | null; tags?: PlatformTag[] }): PlatformTicket {
  return {
    id: t.id,
    protocol: t.protocol ?? null,
    status: t.status,
    contactId: t.contactId,
    connectionId: t.connectionId ?? null,
    queueId: t.queueId ?? null,
    userId: t.userId ?? null,
    isGroup: !!t.isGroup,
    unreadMessages: t.unreadMessages ?? 0,
    lastMessage: t.lastMessage ?? null,
    lastMessageAt: Number(t.lastMessageAt ?? 0),
    closedAt: iso(t.closedAt),
    createdAt: isoNow(t.createdAt),
    updatedAt: isoNow(t.updatedAt),
    ...(contact
      ? { contact: { id: contact.id, name: contact.name, profilePicUrl: contact.profilePicUrl ?? null }, tags: (contact.tags ?? []).map(tagOf) }
      : {}),
  };
}

export function messageOf(m: MessageView & { ticketId: number }): PlatformMessage {
  return { id: Number(m.id), ticketId: m.ticketId, fromMe: !!m.fromMe, userId: m.userId ?? null, body: m.body ?? null, mediaType: m.mediaType ?? null, status: m.status, failReason: m.failReason ?? null, createdAt: isoNow(m.createdAt) };
}

export const queueOf = (q: QueueName): PlatformQueue => ({ id: q.id, name: q.name, color: NO_QUEUE_COLOR });

export function userOf(u: UserWithQueues): PlatformUser {
  return { id: u.id, name: u.name, profile: u.profile, online: u.status === "online", queueIds: [...(u.queues ?? [])] };
}

export const tagsOf = (tags: TagView[]): PlatformTag[] => tags.map(tagOf);

/** The tenant settings a plugin reads (spec §6 visibility, the ticket rules): a list, so nothing else ever leaks. */
export const READABLE_SETTINGS = [
  "pageSize",
  "ticketListLimit",
  "noReopenMinutes",
  "sla",
  "protocol",
  "hideContactInfo",
  "ticketsOwnerOnly",
  "botAndUnassignedAdminOnly",
  "groupsHiddenForUsers",
  "forceWalletDelivery",
  "signature",
] as const;

export type NoteRow = PlatformNote & { sortId: number };
