/**
 * The attendance list's SQL (core/src/tickets/visibility.ts + list-query.ts) holds exactly the
 * tickets the one rule of @openatende/contracts/visibility lets into the list: a generated
 * set of tickets (every status, queue and holder, read or not) and of viewers, settings and
 * filters, on both engines, whole pages and small pages walked to their end.
 */
import { QueryTypes } from "sequelize";
import { inList, type Viewer, type VisibilitySettings } from "@openatende/contracts/visibility";
import { listPage, type ListFilter, type ListedRow } from "../src/tickets/list-query";
import { defineTicketModels, type TicketStatus } from "../src/tickets/model";
import { startCore, TestCore, DIALECTS } from "./helpers";

const TENANT = 990_001;
const OTHER_TENANT = 990_002;
const STATUSES: TicketStatus[] = ["open", "pending", "closed", "group", "chatbot"];

interface Row {
  id: number;
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  unreadMessages: number;
}

const VIEWERS: Viewer[] = [
  { id: 7, profile: "user", queues: [1] },
  { id: 9, profile: "user", queues: [1, 2] },
  { id: 8, profile: "user", queues: [] },
  { id: 3, profile: "supervisor", queues: [2] },
  { id: 4, profile: "admin", queues: [1] },
  { id: 5, profile: "super", queues: [] },
  { id: 6, profile: "user", isSupport: true, queues: [3] },
];
const SETTINGS: VisibilitySettings[] = [{}, { ticketsOwnerOnly: true }, { botAndUnassignedAdminOnly: true }, { ticketsOwnerOnly: true, botAndUnassignedAdminOnly: true }];
const STATUS_SETS: TicketStatus[][] = [["open", "pending"], ["closed"], ["group"], ["chatbot"], STATUSES];
const QUEUE_FILTERS = [[], [1], [2, 3]];

/** A small deterministic generator: the same cases on every run. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe.each(DIALECTS)("the list's SQL and the visibility rule agree on %s", (dialect) => {
  let t: TestCore;
  const rows: Row[] = [];

  beforeAll(async () => {
    t = await startCore({ dialect });
    const { Ticket } = defineTicketModels(t.core.sequelize);
    const random = rng(7);
    const make: Array<Record<string, unknown>> = [];
    let contactId = 1;
    for (const status of STATUSES)
      for (const queueId of [null, 1, 2, 3])
        for (const userId of [null, 3, 4, 7, 9])
          for (const unread of [0, 2])
            make.push({ tenantId: TENANT, contactId: contactId++, connectionId: 1, status, queueId, userId, unreadMessages: unread, hasUnread: unread > 0, pinned: random() < 0.2, lastMessageAt: Math.floor(random() * 1000) });
    // Another tenant's tickets, everywhere the first tenant's are: none may show up.
    for (const m of make.slice(0, 40)) make.push({ ...m, tenantId: OTHER_TENANT });
    await Ticket.bulkCreate(make as never[]);
    const stored = (await Ticket.findAll({ where: { tenantId: TENANT } })).map((r) => r.get({ plain: true }) as Row);
    rows.push(...stored.map((r) => ({ id: r.id, status: r.status, queueId: r.queueId, userId: r.userId, unreadMessages: r.unreadMessages })));
  });
  afterAll(async () => {
    await t?.stop();
  });

  const run = (sql: string, replacements: unknown[]) => t.core.sequelize.query(sql, { replacements, type: QueryTypes.SELECT }) as Promise<ListedRow[]>;

  async function idsOf(f: Omit<ListFilter, "offset" | "limit">, pageSize: number): Promise<number[]> {
    const out: number[] = [];
    for (let page = 0; page < 100; page++) {
      const r = await listPage({ ...f, offset: page * pageSize, limit: pageSize, datesAsText: dialect === "mariadb" }, run);
      out.push(...r.rows.map((x) => Number(x.id)));
      if (!r.hasMore) return out;
    }
    throw new Error("the list never ended");
  }

  it("for a generated set of viewers, settings and filters", async () => {
    const random = rng(11);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const cases: Array<Omit<ListFilter, "offset" | "limit">> = [];
    // Every viewer under every setting, every status, no filter: the list is what they may see.
    for (const viewer of VIEWERS)
      for (const settings of SETTINGS)
        for (const showAll of [false, true])
          cases.push({ tenantId: TENANT, viewer, settings, statuses: STATUSES, showAll, queueIds: [], includeNotQueueDefined: true, withUnreadMessages: false, isNotAssignedUser: false });
    // And the filters on top, sampled.
    for (let i = 0; i < 250; i++) {
      cases.push({
        tenantId: TENANT,
        viewer: pick(VIEWERS),
        settings: pick(SETTINGS),
        statuses: pick(STATUS_SETS),
        showAll: random() < 0.5,
        queueIds: pick(QUEUE_FILTERS),
        includeNotQueueDefined: random() < 0.6,
        withUnreadMessages: random() < 0.3,
        isNotAssignedUser: random() < 0.3,
      });
    }
    for (const [i, f] of cases.entries()) {
      const expected = rows
        .filter((r) => inList(f.viewer, r, f.settings, { statuses: f.statuses, showAll: f.showAll, queueIds: f.queueIds, includeNotQueueDefined: f.includeNotQueueDefined, withUnreadMessages: f.withUnreadMessages, isNotAssignedUser: f.isNotAssignedUser }))
        .map((r) => r.id)
        .sort((a, b) => a - b);
      const got = (await idsOf(f, i % 3 === 0 ? 7 : 1000)).sort((a, b) => a - b);
      // The case travels with the answer, so a failure names it.
      expect({ case: f, ids: got }).toEqual({ case: f, ids: expected });
    }
  });
});
