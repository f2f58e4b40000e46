/**
 * The realtime events of the attendance screen (spec §7), written once: their names, their
 * payloads and the pure builders the core sends them with. The shell reads the same types.
 *
 * `D` is how a date travels: a Date in the core, the ISO string JSON makes of it in the shell.
 *
 * - `{tenant}:ticketList`: `ticket:create|update|delete` with the ticket, or `chat:create`
 *   for a new inbound message (what the list shows and notifies on);
 * - `{tenant}:appMessage`: a message created, updated (status, reaction, edit) or deleted;
 * - `{tenant}:ticketNote`: a note added to a ticket;
 * - `{tenant}:userStatus`: a user went online or offline.
 */

export const REALTIME_EVENTS = {
  ticketList: (tenantId: number) => `${tenantId}:ticketList`,
  appMessage: (tenantId: number) => `${tenantId}:appMessage`,
  ticketNote: (tenantId: number) => `${tenantId}:ticketNote`,
  userStatus: (tenantId: number) => `${tenantId}:userStatus`,
};

/** `{tenant}:userStatus`: a user went online or offline (spec §4), for the team's views and their own tabs. */
export interface UserStatusEvent {
  id: number;
  status: "online" | "offline";
}

// --- tickets ---------------------------------------------------------------------------------

export type TicketStatus = "open" | "pending" | "closed" | "group" | "chatbot";

export interface TicketContact {
  id: number;
  name: string;
  /** Null in list events (their rooms hold agents, who may not see numbers) and under hideContactInfo. */
  number: string | null;
  profilePicUrl: string | null;
}

/** A ticket as the API answers it and the list events carry it. */
export interface TicketView<D = string> {
  id: number;
  tenantId: number;
  protocol: string | null;
  status: TicketStatus;
  contactId: number;
  connectionId: number | null;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  pinned: boolean;
  unreadMessages: number;
  lastMessage: string | null;
  lastMessageAt: number;
  closedAt: D | null;
  createdAt: D;
  updatedAt: D;
  contact?: TicketContact;
  /** GET /tickets/{id} only, on a channel with a customer-service window (core/src/tickets/service-window.ts). */
  serviceWindow?: ServiceWindowView;
}

/** A provider's customer-service window (WhatsApp Cloud API, Instagram: 24 h): free text only while open, then a template. */
export interface ServiceWindowView {
  hours: number;
  /** The channel's timestamp of the contact's last message within the window (ms); null: none. */
  lastInboundAt: number | null;
  /** When free text stops being accepted (ms); null: closed already. */
  closesAt: number | null;
  open: boolean;
}

/** What of a ticket a message event says: where the message's ticket stands now. */
export interface TicketRef {
  id: number;
  status: TicketStatus;
  userId: number | null;
  queueId: number | null;
}

export type TicketChange = "ticket:create" | "ticket:update" | "ticket:delete";

export interface TicketChangedEvent<D = string> {
  type: TicketChange;
  payload: TicketView<D>;
}

/** `chat:create`: a new inbound message, with what the list shows and notifies on. */
export interface ChatCreatePayload {
  body: string;
  /** Written on the account's own phone: read already, notifies nobody. */
  read: boolean;
  fromMe: boolean;
  isGroup: boolean;
  /** The member who wrote a group message. */
  participant: MessageParticipant | null;
  /** The business's verified name on the channel (WhatsApp's official API), else null. */
  verifiedBizName: string | null;
  messageId: number;
  mediaType: string | null;
  ticket: {
    id: number;
    userId: number | null;
    queueId: number | null;
    contactId: number;
    isGroup: boolean;
    status: TicketStatus;
    unreadMessages: number;
    contact: { name: string; profilePicUrl: string | null };
  };
}

export interface ChatCreateEvent {
  type: "chat:create";
  payload: ChatCreatePayload;
}

export type TicketListEvent<D = string> = TicketChangedEvent<D> | ChatCreateEvent;

// --- messages --------------------------------------------------------------------------------

/** "played": a voice note or video was played (after "read"). */
export type MessageStatus = "received" | "pending" | "sent" | "delivered" | "read" | "played" | "failed";

/** The member of a group who wrote a group message (the ticket's contact is the group). */
export interface MessageParticipant {
  externalId: string;
  name?: string;
  phone?: string;
}

export interface MessageMedia {
  fileName: string;
  mimeType: string;
  size: number;
  url: string;
}

/** One reaction per reactor: an agent ("user:<id>") or a channel identity (the account's own: `fromMe`). */
export interface MessageReaction {
  by: string;
  emoji: string;
  fromMe?: boolean;
}

/** A message as the API answers it and the message events carry it. */
export interface MessageView<D = string> {
  id: number;
  ticketId: number;
  contactId: number;
  connectionId: number | null;
  providerId: string | null;
  fromMe: boolean;
  userId: number | null;
  body: string | null;
  mediaType: string | null;
  media: MessageMedia | null;
  status: MessageStatus;
  failReason: string | null;
  quotedMsgId: number | null;
  reactions: MessageReaction[];
  participant: MessageParticipant | null;
  isEdited: boolean;
  isDeleted: boolean;
  isForwarded: boolean;
  read: boolean;
  timestamp: number;
  createdAt: D;
}

export type MessageAction = "create" | "update" | "delete";

export interface AppMessageEvent<D = string> {
  action: MessageAction;
  message: MessageView<D>;
  ticket: TicketRef;
  /** With a new inbound message: its contact as the list shows it. */
  contact?: { id: number; name: string; profilePicUrl: string | null };
}

// --- notes -----------------------------------------------------------------------------------

export interface TicketNoteView<D = string> {
  id: number;
  tenantId?: number;
  ticketId: number;
  userId: number | null;
  body: string;
  createdAt: D;
  updatedAt?: D;
}

export interface TicketNoteEvent<D = string> {
  ticketId: number;
  note: TicketNoteView<D>;
}

// --- builders --------------------------------------------------------------------------------

type ContactLike = { id: number; name: string; profilePicUrl?: string | null };

const ticketRef = (t: TicketRef): TicketRef => ({ id: t.id, status: t.status, userId: t.userId, queueId: t.queueId });

/**
 * `ticket:*`. List rooms hold agents too, so the contact's number never travels here
 * (hideContactInfo); the shell keeps the number it already knows.
 */
export function ticketChanged<D>(type: TicketChange, ticket: TicketView<D>): TicketChangedEvent<D> {
  const c = ticket.contact;
  return { type, payload: { ...ticket, contact: c ? { id: c.id, name: c.name, number: null, profilePicUrl: c.profilePicUrl ?? null } : undefined } };
}

/** `chat:create` for a new inbound message on its ticket. */
export function chatCreated(o: {
  ticket: TicketRef & { isGroup?: boolean; unreadMessages: number };
  contact: ContactLike;
  message: Pick<MessageView<unknown>, "id" | "participant" | "mediaType">;
  body: string;
  isGroup: boolean;
  fromMe: boolean;
  hasMedia: boolean;
  verifiedBizName?: string | null;
}): ChatCreateEvent {
  const { ticket, contact, message } = o;
  return {
    type: "chat:create",
    payload: {
      body: o.body,
      read: o.fromMe,
      fromMe: o.fromMe,
      isGroup: o.isGroup,
      participant: message.participant,
      verifiedBizName: o.verifiedBizName ?? null,
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
  };
}

/** `appMessage`: a message of a ticket, and where the ticket stands. */
export function appMessage<D>(action: MessageAction, message: MessageView<D>, ticket: TicketRef, contact?: ContactLike): AppMessageEvent<D> {
  const out: AppMessageEvent<D> = { action, message, ticket: ticketRef(ticket) };
  if (contact) out.contact = { id: contact.id, name: contact.name, profilePicUrl: contact.profilePicUrl ?? null };
  return out;
}

/** `ticketNote`: a note added to a ticket. */
export function ticketNoteAdded<D>(note: TicketNoteView<D>): TicketNoteEvent<D> {
  return { ticketId: note.ticketId, note };
}
