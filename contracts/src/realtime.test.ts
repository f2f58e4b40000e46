import { REALTIME_EVENTS, appMessage, chatCreated, ticketChanged, ticketNoteAdded, type MessageView, type TicketView } from "./realtime";

const ticket: TicketView = {
  id: 10,
  tenantId: 3,
  protocol: "2026-10",
  status: "pending",
  contactId: 5,
  connectionId: 2,
  queueId: 1,
  userId: null,
  isGroup: false,
  pinned: false,
  unreadMessages: 2,
  lastMessage: "oi",
  lastMessageAt: 1000,
  closedAt: null,
  createdAt: "2026-11-24T00:00:00.000Z",
  updatedAt: "2026-11-24T00:00:00.000Z",
  contact: { id: 5, name: "Ana", number: "5511999990000", profilePicUrl: null },
};

const message: MessageView = {
  id: 77,
  ticketId: 10,
  contactId: 5,
  connectionId: 2,
  providerId: "p-1",
  fromMe: false,
  userId: null,
  body: "oi",
  mediaType: "image",
  media: { fileName: "a.png", mimeType: "image/png", size: 3, url: "/api/files/a.png" },
  status: "received",
  failReason: null,
  quotedMsgId: null,
  reactions: [],
  participant: { externalId: "m1", name: "Bia" },
  isEdited: false,
  isDeleted: false,
  isForwarded: false,
  read: false,
  timestamp: 1000,
  createdAt: "2026-11-24T00:00:00.000Z",
};

describe("realtime payloads", () => {
  it("event names carry the tenant", () => {
    expect([REALTIME_EVENTS.ticketList(3), REALTIME_EVENTS.appMessage(3), REALTIME_EVENTS.ticketNote(3)]).toEqual(["3:ticketList", "3:appMessage", "3:ticketNote"]);
  });

  it("ticket:* carries the ticket without the contact's number (list rooms hold agents)", () => {
    const e = ticketChanged("ticket:update", ticket);
    expect(e).toEqual({ type: "ticket:update", payload: { ...ticket, contact: { id: 5, name: "Ana", number: null, profilePicUrl: null } } });
    expect(ticket.contact!.number).toBe("5511999990000");
    expect(ticketChanged("ticket:delete", { ...ticket, contact: undefined }).payload.contact).toBeUndefined();
  });

  it("chat:create says what the list shows and notifies on; from the account's phone it comes read; media only with a file", () => {
    const base = { ticket: { id: 10, status: "pending" as const, userId: null, queueId: 1, isGroup: true, unreadMessages: 3 }, contact: { id: 5, name: "Ana" }, message, body: "oi", isGroup: true };
    expect(chatCreated({ ...base, fromMe: false, hasMedia: true })).toEqual({
      type: "chat:create",
      payload: {
        body: "oi",
        read: false,
        fromMe: false,
        isGroup: true,
        participant: { externalId: "m1", name: "Bia" },
        verifiedBizName: null,
        messageId: 77,
        mediaType: "image",
        ticket: { id: 10, userId: null, queueId: 1, contactId: 5, isGroup: true, status: "pending", unreadMessages: 3, contact: { name: "Ana", profilePicUrl: null } },
      },
    });
    const own = chatCreated({ ...base, fromMe: true, hasMedia: false }).payload;
    expect([own.read, own.fromMe, own.mediaType]).toEqual([true, true, null]);
    // A channel that knows the business's verified name (WhatsApp's official API) says it.
    expect(chatCreated({ ...base, fromMe: false, hasMedia: false, verifiedBizName: "Loja Aurora" }).payload.verifiedBizName).toBe("Loja Aurora");
  });

  it("appMessage names the message's ticket by where it stands, nothing more of it", () => {
    const row = { ...ticket, activeKey: "5:2" };
    expect(appMessage("create", message, row)).toEqual({ action: "create", message, ticket: { id: 10, status: "pending", userId: null, queueId: 1 } });
    expect(appMessage("create", message, row, { id: 5, name: "Ana" }).contact).toEqual({ id: 5, name: "Ana", profilePicUrl: null });
  });

  it("ticketNote carries the note and its ticket", () => {
    const note = { id: 1, ticketId: 10, userId: 7, body: "ligar amanhã", createdAt: "2026-11-24T00:00:00.000Z" };
    expect(ticketNoteAdded(note)).toEqual({ ticketId: 10, note });
  });
});
