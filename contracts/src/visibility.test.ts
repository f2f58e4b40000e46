import {
  Viewer,
  VisibilitySettings,
  TicketPlace,
  canSee,
  inList,
  matches,
  ticketRooms,
  viewerRooms,
  visibleMatches,
  listMatches,
  seesEveryTicket,
} from "./visibility";

const agent: Viewer = { id: 7, profile: "user", queues: [1] };
const staff: Viewer[] = [
  { id: 3, profile: "supervisor", queues: [] },
  { id: 4, profile: "admin", queues: [2] },
  { id: 5, profile: "super", queues: [] },
  { id: 6, profile: "user", isSupport: true, queues: [] },
];

const SETTINGS: Record<string, VisibilitySettings> = {
  plain: {},
  ownerOnly: { ticketsOwnerOnly: true },
  botOnly: { botAndUnassignedAdminOnly: true },
  both: { ticketsOwnerOnly: true, botAndUnassignedAdminOnly: true },
};
const SETTING_NAMES = ["plain", "ownerOnly", "botOnly", "both"] as const;

// The agent (id 7, queue 1): a ticket's queue is none, mine (1) or another (2); its user none,
// me (7) or another (9). Columns: what the agent sees under each of the four settings.
const Q = { none: null, mine: 1, other: 2 } as const;
const U = { none: null, me: 7, other: 9 } as const;
const T = true;
const F = false;
const AGENT_TABLE: Array<[keyof typeof Q, keyof typeof U, string, [boolean, boolean, boolean, boolean]]> = [
  ["none", "none", "pending", [T, T, F, F]],
  ["none", "me", "pending", [T, T, T, T]],
  ["none", "other", "pending", [F, F, F, F]],
  ["mine", "none", "pending", [T, T, T, T]],
  ["mine", "me", "pending", [T, T, T, T]],
  ["mine", "other", "pending", [T, F, T, F]],
  ["other", "none", "pending", [F, F, F, F]],
  ["other", "me", "pending", [T, T, T, T]],
  ["other", "other", "pending", [F, F, F, F]],
  ["none", "none", "chatbot", [T, T, F, F]],
  ["none", "me", "chatbot", [T, T, T, T]],
  ["none", "other", "chatbot", [F, F, F, F]],
  ["mine", "none", "chatbot", [T, T, F, F]],
  ["mine", "me", "chatbot", [T, T, T, T]],
  ["mine", "other", "chatbot", [T, F, F, F]],
  ["other", "none", "chatbot", [F, F, F, F]],
  ["other", "me", "chatbot", [T, T, T, T]],
  ["other", "other", "chatbot", [F, F, F, F]],
];

/** Every place a ticket can be in for these viewers, in every status. */
function places(): TicketPlace[] {
  const out: TicketPlace[] = [];
  for (const status of ["open", "pending", "closed", "group", "chatbot"])
    for (const queueId of [null, 1, 2, 3]) for (const userId of [null, 3, 4, 7, 9]) out.push({ status, queueId, userId });
  return out;
}

describe("ticket visibility (spec §6)", () => {
  it.each(AGENT_TABLE)("an agent and a ticket of queue %s, user %s, status %s", (q, u, status, expected) => {
    const t = { status, queueId: Q[q], userId: U[u] };
    expect(SETTING_NAMES.map((s) => canSee(agent, t, SETTINGS[s]))).toEqual(expected);
  });

  it("admins, supervisors and support accounts see every ticket under every setting", () => {
    for (const v of staff) {
      expect(seesEveryTicket(v)).toBe(true);
      for (const t of places()) for (const s of SETTING_NAMES) expect(canSee(v, t, SETTINGS[s])).toBe(true);
    }
    expect(seesEveryTicket(agent)).toBe(false);
  });

  const viewers = [agent, { id: 9, profile: "user", queues: [1, 2] }, { id: 8, profile: "user", queues: [] }, ...staff];

  it("the tickets an audience sees (SQL's form) are exactly those the per-ticket check allows", () => {
    for (const v of viewers)
      for (const s of SETTING_NAMES)
        for (const t of places()) {
          const bySql = visibleMatches(v, t.status, SETTINGS[s]).some((m) => matches(m, t));
          expect([v.id, s, t, bySql]).toEqual([v.id, s, t, canSee(v, t, SETTINGS[s])]);
        }
  });

  it("a ticket's events reach a viewer's sockets exactly when the viewer may see it", () => {
    for (const v of viewers)
      for (const s of SETTING_NAMES)
        for (const t of places()) {
          const joined = new Set(viewerRooms(v, 5));
          const hears = ticketRooms({ ...t, tenantId: 5 }, SETTINGS[s]).some((r) => joined.has(r));
          expect([v.id, s, t, hears]).toEqual([v.id, s, t, canSee(v, t, SETTINGS[s])]);
        }
  });

  it("rooms stay inside their tenant: another tenant's sockets hear nothing", () => {
    const joined = new Set(viewerRooms(agent, 6));
    for (const t of places()) expect(ticketRooms({ ...t, tenantId: 5 }).some((r) => joined.has(r))).toBe(false);
  });
});

describe("the attendance list", () => {
  const scope = (p: Partial<Parameters<typeof inList>[3]> = {}) => ({ statuses: ["open", "pending"], includeNotQueueDefined: true, ...p });
  const t = (p: Partial<TicketPlace & { unreadMessages: number }> = {}) => ({ status: "pending", queueId: 1, userId: null, unreadMessages: 0, ...p });
  const admin = staff[1]; // queue 2

  it.each([
    ["an agent's queue", agent, t(), scope(), true],
    ["another queue", agent, t({ queueId: 2 }), scope(), false],
    ["the agent's own ticket in another queue", agent, t({ queueId: 2, userId: 7, status: "open" }), scope(), true],
    ["no queue, unassigned", agent, t({ queueId: null }), scope(), true],
    ["no queue, someone else's", agent, t({ queueId: null, userId: 9, status: "open" }), scope(), false],
    ["no queue, but tickets without a queue are filtered out", agent, t({ queueId: null }), scope({ includeNotQueueDefined: false }), false],
    ["a status of another tab", agent, t({ status: "closed" }), scope(), false],
    ["unread only, none unread", agent, t(), scope({ withUnreadMessages: true }), false],
    ["unread only, two unread", agent, t({ unreadMessages: 2 }), scope({ withUnreadMessages: true }), true],
    ["unassigned only, the agent's own", agent, t({ userId: 7, status: "open" }), scope({ isNotAssignedUser: true }), false],
    ["a queue filter leaving the ticket's queue out", admin, t({ queueId: 1 }), scope({ queueIds: [2] }), false],
    ["a queue filter naming it", admin, t({ queueId: 2 }), scope({ queueIds: [2] }), true],
    ["an admin without showAll, a queue of others held by another", admin, t({ queueId: 1, userId: 9, status: "open" }), scope(), false],
    ["an admin with showAll, the same", admin, t({ queueId: 1, userId: 9, status: "open" }), scope({ showAll: true }), true],
    ["an agent asking showAll, the same", agent, t({ queueId: 3, userId: 9, status: "open" }), scope({ showAll: true }), false],
    ["an admin without showAll, no queue and held by another", admin, t({ queueId: null, userId: 9, status: "open" }), scope(), true],
  ] as const)("%s", (_what, v, ticket, f, expected) => {
    expect(inList(v, ticket, {}, f)).toBe(expected);
  });

  it("owner-only keeps others' tickets of the agent's queue out of the agent's list, not out of an admin's", () => {
    const held = t({ userId: 9, status: "open" });
    expect(inList(agent, held, { ticketsOwnerOnly: true }, scope())).toBe(false);
    expect(inList(agent, held, {}, scope())).toBe(true);
    expect(inList({ ...admin, queues: [1] }, held, { ticketsOwnerOnly: true }, scope())).toBe(true);
  });

  it("holds only tickets the viewer may see", () => {
    for (const v of [agent, ...staff])
      for (const s of SETTING_NAMES)
        for (const showAll of [false, true])
          for (const p of places()) {
            const m = listMatches(v, p.status, SETTINGS[s], showAll).some((x) => matches(x, p));
            if (m) expect(canSee(v, p, SETTINGS[s])).toBe(true);
          }
  });
});
