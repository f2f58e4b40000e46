/**
 * The ticket order the user picks (spec §2) as the live list keeps it: the same order the API
 * answers (core/test/tickets-ordering.test.ts), pinned and unread first either way.
 */
import { TicketList } from "./ticket-list";
import { compareTickets, type Ticket } from "./tickets-filter";

const ticket = (id: number, lastMessageAt: number, o: Partial<Ticket> = {}): Ticket =>
  ({ id, status: "pending", contactId: id, connectionId: 1, queueId: 1, userId: null, isGroup: false, pinned: false, unreadMessages: 0, lastMessage: null, lastMessageAt, protocol: null, ...o }) as Ticket;

const me = { id: 7, profile: "user", queues: [1] };
const filter = { searchParam: "", showAll: false, queuesIds: [], withUnreadMessages: false, isNotAssignedUser: false, includeNotQueueDefined: true };

describe("ticket order", () => {
  const all = [ticket(1, 100), ticket(2, 300), ticket(3, 200, { unreadMessages: 2 }), ticket(4, 50, { pinned: true }), ticket(5, 300)];

  it("recent: pinned, unread, then the latest activity (ties: the newest id)", () => {
    expect([...all].sort((a, b) => compareTickets(a, b, "recent")).map((t) => t.id)).toEqual([4, 3, 5, 2, 1]);
    expect([...all].sort((a, b) => compareTickets(a, b)).map((t) => t.id)).toEqual([4, 3, 5, 2, 1]);
  });

  it("oldest: pinned, unread, then the oldest activity (ties: the oldest id)", () => {
    expect([...all].sort((a, b) => compareTickets(a, b, "oldest")).map((t) => t.id)).toEqual([4, 3, 1, 2, 5]);
  });

  it("a live list loaded oldest first puts a ticket that moves at its place in that order", () => {
    const list = new TicketList();
    const page = [...all].sort((a, b) => compareTickets(a, b, "oldest"));
    list.receivePage(page, false, true, "oldest");
    // Ticket 1 gets an answer from the agent: the newest activity, so it goes last.
    list.upsert({ id: 1, lastMessageAt: 400 }, { tab: "open", filter, me });
    expect(list.items.map((t) => t.id)).toEqual([4, 3, 2, 5, 1]);
    // A new waiting ticket with old activity comes before the read ones.
    list.upsert(ticket(6, 10), { tab: "open", filter, me });
    expect(list.items.map((t) => t.id)).toEqual([4, 3, 6, 2, 5, 1]);
  });
});
