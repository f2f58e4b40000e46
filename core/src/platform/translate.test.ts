import { translateMessage, translateTicket } from "./translate";
import type { TicketRow } from "../tickets/contract";
import type { MessageView } from "../messages/model";

const row = (over: Partial<TicketRow> = {}): TicketRow => ({
  id: 7,
  tenantId: 3,
  contactId: 11,
  connectionId: 2,
  queueId: null,
  userId: null,
  status: "pending",
  protocol: "P7",
  isGroup: false,
  pinned: false,
  unreadMessages: 1,
  hasUnread: true,
  lastMessage: "oi",
  lastMessageAt: 1000,
  activeKey: "11:2",
  translation: null,
  closedAt: null,
  createdAt: new Date("2026-01-01T10:00:00Z"),
  updatedAt: new Date("2026-01-01T10:00:00Z"),
  ...over,
});

const events = (list: Array<{ event: string }>) => list.map((e) => e.event);

describe("core events as plugin events", () => {
  it("a ticket's change: status change (and close), transfer of user or queue; nothing for other updates", () => {
    const at = 5;
    expect(events(translateTicket({ type: "ticket:create", ticket: row(), at }))).toEqual(["ticket.created"]);
    expect(translateTicket({ type: "ticket:delete", ticket: row(), at })).toMatchObject([{ event: "ticket.deleted", tenantId: 3, data: { ticketId: 7 } }]);
    const accepted = translateTicket({ type: "ticket:update", ticket: row({ status: "open", userId: 4 }), before: row(), at });
    expect(events(accepted)).toEqual(["ticket.statusChanged", "ticket.transferred"]);
    expect(accepted[0].data).toMatchObject({ from: "pending", ticket: { status: "open", userId: 4, createdAt: "2026-01-01T10:00:00.000Z" } });
    expect(accepted[1].data).toMatchObject({ from: { userId: null, queueId: null } });
    expect(events(translateTicket({ type: "ticket:update", ticket: row({ status: "closed", userId: 4, closedAt: new Date() }), before: row({ status: "open", userId: 4 }), at }))).toEqual(["ticket.statusChanged", "ticket.closed"]);
    expect(events(translateTicket({ type: "ticket:update", ticket: row({ queueId: 9 }), before: row(), at }))).toEqual(["ticket.transferred"]);
    const reconnected = translateTicket({ type: "ticket:update", ticket: row({ connectionId: 5, activeKey: "11:5" }), before: row(), at });
    expect(reconnected).toMatchObject([{ event: "ticket.transferred", data: { ticket: { connectionId: 5 }, from: { userId: null, queueId: null } } }]);
    // Contacts merged: contact.changed "merged" tells it, no ticket event.
    expect(translateTicket({ type: "ticket:update", ticket: row({ contactId: 12, activeKey: "12:2" }), before: row(), at })).toEqual([]);
    expect(translateTicket({ type: "ticket:update", ticket: row({ pinned: true }), before: row(), at })).toEqual([]);
    expect(translateTicket({ type: "ticket:update", ticket: row(), at })).toEqual([]);
    const ids = new Set([...accepted, ...translateTicket({ type: "ticket:create", ticket: row(), at })].map((e) => e.id));
    expect(ids.size).toBe(3);
  });

  it("messages: received, sent, and an ack once per status (the id says which)", () => {
    const m = (over: Partial<MessageView>) => ({ id: 40, ticketId: 7, fromMe: false, userId: null, body: "x", mediaType: null, status: "received", createdAt: new Date(0), ...over }) as MessageView;
    const msg = (action: "create" | "update" | "delete", over: Partial<MessageView>) => translateMessage({ action, tenantId: 3, ticketId: 7, message: m(over), at: 1 });
    expect(events(msg("create", {}))).toEqual(["message.received"]);
    expect(events(msg("create", { fromMe: true, status: "pending" }))).toEqual(["message.sent"]);
    expect(msg("update", { fromMe: true, status: "pending" })).toEqual([]);
    expect(msg("update", { fromMe: false, status: "received" })).toEqual([]);
    const [a1] = msg("update", { fromMe: true, status: "delivered" });
    const [a2] = msg("update", { fromMe: true, status: "delivered" });
    const [a3] = msg("update", { fromMe: true, status: "read" });
    expect(a1.event).toBe("message.acked");
    expect(a1.id).toBe(a2.id);
    expect(a3.id).not.toBe(a1.id);
  });
});
