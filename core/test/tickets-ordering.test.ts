/**
 * The ticket ordering of the attendance list (spec §2): latest activity first (default) or
 * oldest first, pinned and unread first either way (spec §4). Checked on both engines over
 * a generated set of tickets walked page by page, through the API (validation, another
 * tenant's tickets never listed), and on MariaDB with EXPLAIN: each order is read along an
 * index, never sorted whole.
 */
import { QueryTypes } from "sequelize";
import { listPage, buildListQuery, type ListFilter, type ListedRow, type ListOrder } from "../src/tickets/list-query";
import { defineTicketModels, type TicketStatus } from "../src/tickets/model";
import { startCore, createTenant, TestCore, TenantFixture, DIALECTS, uid } from "./helpers";

const TENANT = 991_001;
const OTHER_TENANT = 991_002;

interface Row {
  id: number;
  status: TicketStatus;
  queueId: number | null;
  userId: number | null;
  pinned: boolean;
  hasUnread: boolean;
  lastMessageAt: number;
}

/** The order the list promises, written out plainly. */
function compare(order: ListOrder) {
  return (a: Row, b: Row) => {
    if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
    if (a.hasUnread !== b.hasUnread) return a.hasUnread ? -1 : 1;
    const sign = order === "oldest" ? 1 : -1;
    if (a.lastMessageAt !== b.lastMessageAt) return sign * (a.lastMessageAt - b.lastMessageAt);
    return sign * (a.id - b.id);
  };
}

describe.each(DIALECTS)("the list's order on %s", (dialect) => {
  let t: TestCore;
  const rows: Row[] = [];

  beforeAll(async () => {
    t = await startCore({ dialect });
    const { Ticket } = defineTicketModels(t.core.sequelize);
    const make: Array<Record<string, unknown>> = [];
    let contactId = 1;
    let s = 5;
    const random = () => ((s = (s * 1_103_515_245 + 12_345) % 2_147_483_648), s / 2_147_483_648);
    for (const status of ["open", "pending", "closed"] as TicketStatus[])
      for (const queueId of [null, 1, 2])
        for (const userId of [null, 7, 9])
          for (let i = 0; i < 3; i++) {
            const unread = random() < 0.3 ? 2 : 0;
            // Few distinct times: ties are broken by id, in the order's direction.
            make.push({ tenantId: TENANT, contactId: contactId++, connectionId: 1, status, queueId, userId, unreadMessages: unread, hasUnread: unread > 0, pinned: random() < 0.15, lastMessageAt: Math.floor(random() * 20) * 1000 });
          }
    for (const m of make.slice(0, 30)) make.push({ ...m, tenantId: OTHER_TENANT });
    await Ticket.bulkCreate(make as never[]);
    for (const r of await Ticket.findAll({ where: { tenantId: TENANT } })) {
      const p = r.get({ plain: true }) as Row;
      rows.push({ id: p.id, status: p.status, queueId: p.queueId, userId: p.userId, pinned: !!p.pinned, hasUnread: !!p.hasUnread, lastMessageAt: Number(p.lastMessageAt) });
    }
  });
  afterAll(async () => {
    await t?.stop();
  });

  const run = (sql: string, replacements: unknown[]) => t.core.sequelize.query(sql, { replacements, type: QueryTypes.SELECT }) as Promise<ListedRow[]>;
  const base = (order: ListOrder): Omit<ListFilter, "offset" | "limit"> => ({
    tenantId: TENANT,
    viewer: { id: 7, profile: "user", queues: [1] },
    settings: {},
    statuses: ["open", "pending"],
    showAll: false,
    queueIds: [],
    includeNotQueueDefined: true,
    withUnreadMessages: false,
    isNotAssignedUser: false,
    order,
  });

  async function walk(f: Omit<ListFilter, "offset" | "limit">, pageSize: number): Promise<number[]> {
    const out: number[] = [];
    for (let page = 0; page < 200; page++) {
      const r = await listPage({ ...f, offset: page * pageSize, limit: pageSize, datesAsText: dialect === "mariadb" }, run);
      out.push(...r.rows.map((x) => Number(x.id)));
      if (!r.hasMore) return out;
    }
    throw new Error("the list never ended");
  }

  it.each(["recent", "oldest"] as ListOrder[])("%s: every viewer's pages, walked to the end, are the visible tickets in that order", async (order) => {
    const viewers = [
      { id: 7, profile: "user", queues: [1] },
      { id: 9, profile: "user", queues: [1, 2] },
      { id: 3, profile: "supervisor", queues: [2] },
      { id: 4, profile: "admin", queues: [1] },
    ];
    for (const viewer of viewers)
      for (const showAll of [false, true])
        for (const withUnreadMessages of [false, true])
          for (const statuses of [["open", "pending"], ["closed"]] as TicketStatus[][]) {
            const f = { ...base(order), viewer, showAll, withUnreadMessages, statuses };
            const whole = await walk(f, 1000);
            const expected = rows.filter((r) => whole.includes(r.id)).sort(compare(order)).map((r) => r.id);
            // The same tickets whatever the order, in the order asked, and small pages agree.
            expect({ f, ids: whole }).toEqual({ f, ids: expected });
            expect({ f, ids: await walk(f, 4) }).toEqual({ f, ids: expected });
            const other = await walk({ ...f, order: order === "recent" ? "oldest" : "recent" }, 1000);
            expect([...other].sort((a, b) => a - b)).toEqual([...whole].sort((a, b) => a - b));
          }
  });

  if (dialect === "mariadb") {
    it("each order reads a branch along an index, without sorting the tickets (EXPLAIN)", async () => {
      for (const order of ["recent", "oldest"] as ListOrder[]) {
        // One branch: an admin's tickets of one status (showAll), and one queue's.
        for (const f of [
          { ...base(order), viewer: { id: 4, profile: "admin", queues: [1] }, showAll: true, statuses: ["pending"] as TicketStatus[] },
          { ...base(order), viewer: { id: 9, profile: "user", queues: [2] }, statuses: ["pending"] as TicketStatus[], includeNotQueueDefined: false, isNotAssignedUser: true },
        ]) {
          const q = buildListQuery({ ...f, offset: 0, limit: 10 })!;
          const plan = (await t.core.sequelize.query(`EXPLAIN ${q.sql}`, { replacements: q.params, type: QueryTypes.SELECT })) as Array<{ key: string | null; Extra: string | null }>;
          const used = plan.map((p) => p.key ?? "").join(" ");
          expect({ order, used }).toEqual({ order, used: expect.stringMatching(order === "oldest" ? /_oldest/ : /tickets_list_/) });
          expect({ order, extra: plan.map((p) => p.Extra ?? "").join(" ") }).toEqual({ order, extra: expect.not.stringMatching(/filesort/) });
        }
      }
    });
  }
});

describe("GET /tickets?orderBy (MariaDB, through the API)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function webchat(x: TenantFixture) {
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: { title: "Oi" }, queueId: x.queueIds[0] }, x.admin);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, x.admin)).status).toBe(200);
    return c.body.id as number;
  }
  const inbound = async (tenantId: number, connectionId: number, ts: number) =>
    ((await t.core.broker.call("channels.inbound", { tenantId, connectionId, providerMessageId: `p-${uid()}`, timestamp: ts, from: { externalId: `e-${uid()}`, name: "Cliente" }, body: "olá" })) as { ticketId: number }).ticketId;

  it("oldest first and newest first, unread first either way; another tenant's tickets never show; a bad order is refused", async () => {
    const c = await webchat(f);
    const oc = await webchat(other);
    const b0 = Date.now() - 60_000;
    const [r1, r2, r3, r4] = [await inbound(f.tenantId, c, b0 + 1000), await inbound(f.tenantId, c, b0 + 2000), await inbound(f.tenantId, c, b0 + 3000), await inbound(f.tenantId, c, b0 + 4000)];
    const foreign = await inbound(other.tenantId, oc, b0 + 500);
    // r2 and r4 accepted (read); r1 and r3 unread.
    await t.api.put(`/tickets/${r2}`, { status: "open" }, f.agent);
    await t.api.put(`/tickets/${r4}`, { status: "open" }, f.agent);
    const ids = async (q: string) => {
      const r = await t.api.get(`/tickets?status=open,pending${q}`, f.agent);
      expect(r.status).toBe(200);
      return r.body.tickets.map((x: { id: number }) => x.id) as number[];
    };
    expect(await ids("")).toEqual([r3, r1, r4, r2]);
    expect(await ids("&orderBy=recent")).toEqual([r3, r1, r4, r2]);
    expect(await ids("&orderBy=oldest")).toEqual([r1, r3, r2, r4]);
    expect(await ids("&orderBy=oldest&pageSize=1&pageNumber=3")).toEqual([r2]);
    expect(await ids("&orderBy=oldest&withUnreadMessages=true")).toEqual([r1, r3]);
    expect(await ids("&orderBy=oldest")).not.toContain(foreign);
    const bad = await t.api.get("/tickets?orderBy=random", f.agent);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
  });
});
