/**
 * The kanban against a real core on MariaDB: the bundled plugin is loaded by the host (its own
 * database migrated), allowed by the platform level for the tenants, and its routes answer
 * through the gateway. Cards are checked to exist through the core API; totals add up; every
 * change reaches the tenant's other sockets as board.changed; tenants never reach each other's
 * columns, cards, tickets or contacts (404); two agents moving cards at once lose none; a FREE
 * tenant is refused with the licence code naming PLUS; a deleted ticket leaves the board.
 */
import { createConnection } from "mysql2/promise";
import { io as ioClient, type Socket } from "socket.io-client";
import { createSuper, createTenant, startCore, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";

jest.setTimeout(180_000);

type Card = { id: number; kind: string; targetId: number; columnId: number; position: number; leadValue: number; name: string; ticket?: { id: number; status: string; queueId: number | null; userId: number | null } };
type Column = { id: number; name: string; color: string; position: number; count: number; leadValue: number; cards: Card[] };
type Board = { version: number; filtered: boolean; columns: Column[]; queues: unknown[]; users: unknown[]; tags: unknown[] };

let t: TestCore;
let sup: Auth;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
const ids = {} as { connA: number; c1: number; c2: number; c3: number; tk1: number; tk2: number; tk3: number; tagVip: number; bContact: number; bTicket: number };

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

async function ok<T = any>(p: Promise<Res<T>>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const board = (who: Auth, q = "") => ok<Board>(t.api.get(`/kanban/board${q}`, who));
const names = (bd: Board) => Object.fromEntries(bd.columns.map((c) => [c.name, c.cards.map((k) => `${k.kind}:${k.targetId}`)]));

async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function socketOf(who: Auth): Promise<{ socket: Socket; events: Array<{ event: string; payload: any }> }> {
  const events: Array<{ event: string; payload: any }> = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false, forceNew: true });
  socket.onAny((event, payload) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.on("ready", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, events };
}

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `kanban-${uid()}` } });
  sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
  // A bundled plugin of a paid tier is allowed only where the platform level says so.
  for (const f of [a, b, free]) expect((await t.api.put(`/plugins/module-kanban/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
  await waitFor("GET /kanban/board", () => t.api.get("/kanban/board", a.admin), (r) => r.status !== 404);

  const conn = async (f: TenantFixture) => {
    const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {} }, f.admin), 201);
    await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
    return c.id as number;
  };
  ids.connA = await conn(a);
  ids.tagVip = (await ok(t.api.post("/tags", { name: `VIP ${uid()}`, color: "#AA0011" }, a.admin), 201)).id;
  const contact = async (f: TenantFixture, name: string, number: string) => (await ok(t.api.post("/contacts", { name, number }, f.admin), 201)).id as number;
  ids.c1 = await contact(a, "Carla Souza", "5511987650001");
  ids.c2 = await contact(a, "Diego Lima", "5511987650002");
  ids.c3 = await contact(a, "Elisa Prado", "5511987650003");
  await ok(t.api.put(`/contacts/${ids.c1}/tags`, { tagIds: [ids.tagVip] }, a.admin));
  const ticket = async (who: Auth, contactId: number, connectionId: number, queueId?: number) => (await ok(t.api.post("/tickets", { contactId, connectionId, queueId }, who), 201)).id as number;
  ids.tk1 = await ticket(a.agent, ids.c1, ids.connA, a.queueIds[0]);
  ids.tk2 = await ticket(a.admin, ids.c2, ids.connA, a.queueIds[1]);
  ids.tk3 = await ticket(a.admin, ids.c3, ids.connA, a.queueIds[0]);
  const connB = await conn(b);
  ids.bContact = await contact(b, "Bruno de Outra Empresa", "5511987650009");
  ids.bTicket = await ticket(b.admin, ids.bContact, connB);
});

afterAll(async () => {
  await t?.stop();
});

describe("the kanban plugin in a core (MariaDB)", () => {
  it("has its own database, migrated by the host when it loaded the plugin", async () => {
    const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
    try {
      const own = `${t.config.database.database}__module_kanban`;
      const [tables] = await db.query("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME", [own]);
      expect((tables as Array<{ name: string }>).map((r) => r.name).sort()).toEqual(["_migrations", "_schema", "boards", "cards", "columns"]);
      const [ran] = await db.query(`SELECT name FROM \`${own}\`.\`_migrations\``);
      expect(ran).toEqual([{ name: "0001-board" }]);
      const [core] = await db.query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN ('boards', 'cards', 'columns')", [t.config.database.database]);
      expect(core).toEqual([]);
    } finally {
      await db.end();
    }
  });

  it("refuses a FREE tenant with the licence code naming PLUS", async () => {
    for (const r of [await t.api.get("/kanban/board", free.agent), await t.api.post("/kanban/columns", { name: "Novo" }, free.admin)]) {
      expect(r.body.error).toBe("ERR_LICENSE_TIER_REQUIRED");
      expect(r.body.data).toMatchObject({ requiredTier: "PLUS", currentTier: "FREE" });
    }
  });

  it("builds a board: columns, ticket and contact cards checked through the core, lead values and totals, pushed live to the other agents", async () => {
    const watcher = await socketOf(a.supervisor);
    const other = await socketOf(b.admin);
    try {
      expect((await board(a.agent)).columns).toEqual([]);
      const novo = await ok(t.api.post("/kanban/columns", { name: "  Novo  ", color: "#1677ff" }, a.agent));
      expect(novo).toMatchObject({ name: "Novo", color: "#1677ff", position: 0 });
      const neg = await ok(t.api.post("/kanban/columns", { name: "Negociação" }, a.agent));
      const ganho = await ok(t.api.post("/kanban/columns", { name: "Ganho", color: "#52c41a" }, a.admin));
      await ok(t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.tk1, columnId: novo.id, leadValue: 1500.5 }, a.agent));
      await ok(t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.tk2, columnId: novo.id, leadValue: 99.99 }, a.agent));
      await ok(t.api.post("/kanban/cards", { kind: "contact", targetId: ids.c3, columnId: neg.id, leadValue: 10 }, a.supervisor));
      const added = await ok(t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.tk3, columnId: novo.id, index: 0 }, a.agent));

      const bd = await board(a.supervisor);
      expect(names(bd)).toEqual({ Novo: [`ticket:${ids.tk3}`, `ticket:${ids.tk1}`, `ticket:${ids.tk2}`], Negociação: [`contact:${ids.c3}`], Ganho: [] });
      // An agent sees the tickets of their queues and their own (spec §6): not Diego's, in a queue they are not in.
      expect(names(await board(a.agent))).toEqual({ Novo: [`ticket:${ids.tk3}`, `ticket:${ids.tk1}`], Negociação: [`contact:${ids.c3}`], Ganho: [] });
      expect((await ok(t.api.get("/kanban/search?kind=ticket&q=Diego", a.agent))).map((h: { id: number }) => h.id)).toEqual([]);
      expect((await ok(t.api.get("/kanban/search?kind=ticket&q=Diego", a.supervisor))).map((h: { id: number }) => h.id)).toEqual([ids.tk2]);
      expect(bd.columns.map((c) => [c.count, c.leadValue])).toEqual([
        [3, 1600.49],
        [1, 10],
        [0, 0],
      ]);
      const card1 = bd.columns[0].cards[1];
      expect(card1).toMatchObject({ name: "Carla Souza", leadValue: 1500.5, ticket: { id: ids.tk1, queueId: a.queueIds[0] } });
      expect(bd.columns[1].cards[0]).toMatchObject({ name: "Elisa Prado", kind: "contact" });

      // The same ticket twice, a ticket or contact of another tenant, or none at all: refused.
      expectError(await t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.tk1, columnId: ganho.id }, a.agent), 409, "ERR_KANBAN_CARD_EXISTS");
      expectError(await t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.bTicket, columnId: ganho.id }, a.agent), 404, "ERR_TICKET_NOT_FOUND");
      expectError(await t.api.post("/kanban/cards", { kind: "contact", targetId: ids.bContact, columnId: ganho.id }, a.agent), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.post("/kanban/cards", { kind: "ticket", targetId: 987654, columnId: ganho.id }, a.agent), 404, "ERR_TICKET_NOT_FOUND");

      // Lead value, move, rename, recolour, reorder.
      await ok(t.api.call("PATCH", "/kanban/cards", { id: added.id, leadValue: 250 }, a.agent));
      const moved = await ok(t.api.post("/kanban/cards/move", { id: card1.id, columnId: ganho.id, index: 0 }, a.agent));
      expect(moved).toMatchObject({ id: card1.id, columnId: ganho.id, position: 0 });
      await ok(t.api.call("PATCH", "/kanban/columns", { id: neg.id, name: "Proposta", color: "#faad14" }, a.admin));
      await ok(t.api.post("/kanban/columns/move", { id: ganho.id, index: 0 }, a.agent));
      const after = await board(a.supervisor);
      expect(names(after)).toEqual({ Ganho: [`ticket:${ids.tk1}`], Novo: [`ticket:${ids.tk3}`, `ticket:${ids.tk2}`], Proposta: [`contact:${ids.c3}`] });
      expect(after.columns.map((c) => c.leadValue)).toEqual([1500.5, 349.99, 10]);
      expect(after.columns[2].color).toBe("#faad14");

      // Every change reached the supervisor's socket with the board's version; tenant B heard none.
      const pushes = await waitFor(
        "the pushes",
        async () => watcher.events.filter((e) => e.event === "plugin:module-kanban:board.changed"),
        (xs) => xs.some((x) => x.payload.version === after.version),
      );
      expect(pushes.map((p) => p.payload.change)).toEqual(expect.arrayContaining(["column.created", "card.added", "card.updated", "card.moved", "column.updated", "column.moved"]));
      expect(pushes.find((p) => p.payload.change === "card.moved")!.payload).toMatchObject({ cardId: card1.id, columnId: ganho.id, index: 0, by: a.agent.userId });
      expect(other.events.filter((e) => e.event.startsWith("plugin:module-kanban"))).toEqual([]);
    } finally {
      watcher.socket.close();
      other.socket.close();
    }
  });

  it("filters by queue, user and tag through the core API; totals follow what is shown", async () => {
    const [ganho, novo, proposta] = (await board(a.admin)).columns;
    const byQueue = await board(a.admin, `?queueIds=${a.queueIds[1]}`);
    expect(byQueue.filtered).toBe(true);
    expect(names(byQueue)).toEqual({ Ganho: [], Novo: [`ticket:${ids.tk2}`], Proposta: [] });
    expect(byQueue.columns.map((c) => [c.count, c.leadValue])).toEqual([
      [0, 0],
      [1, 99.99],
      [0, 0],
    ]);
    expect(names(await board(a.admin, `?tagIds=${ids.tagVip}`))).toEqual({ Ganho: [`ticket:${ids.tk1}`], Novo: [], Proposta: [] });
    const byUser = names(await board(a.admin, `?userIds=${a.agent.userId}`));
    expect(byUser.Proposta).toEqual([]);
    expect(byUser.Ganho).toEqual([`ticket:${ids.tk1}`]);
    expectError(await t.api.get("/kanban/board?queueIds=1;DROP", a.admin), 400, "ERR_VALIDATION");
    expect([ganho.count, novo.count, proposta.count]).toEqual([1, 2, 1]);
  });

  it("checks what it is sent: a column needs a name, a colour is #rrggbb, a lead value is not negative", async () => {
    const bd = await board(a.admin);
    const r = await t.api.post("/kanban/columns", { name: "   " }, a.admin);
    expectError(r, 400, "ERR_VALIDATION");
    expect(r.body.data.field).toBe("name");
    expectError(await t.api.post("/kanban/columns", { name: "x".repeat(101) }, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.post("/kanban/columns", { name: "Ok", color: "red" }, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.call("PATCH", "/kanban/cards", { id: bd.columns[0].cards[0].id, leadValue: -1 }, a.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.post("/kanban/cards/move", { id: bd.columns[0].cards[0].id, columnId: bd.columns[1].id }, a.admin), 400, "ERR_VALIDATION");
    expect(names(await board(a.admin))).toEqual(names(bd));
  });

  it("never reaches another tenant's columns or cards: 404 with the kanban's codes, and nothing changes", async () => {
    const bd = await board(a.admin);
    const col = bd.columns[1];
    const card = col.cards[0];
    expect((await board(b.admin)).columns).toEqual([]);
    const theirs = await ok(t.api.post("/kanban/columns", { name: "De B" }, b.admin));
    expectError(await t.api.call("PATCH", "/kanban/columns", { id: col.id, name: "Roubada" }, b.admin), 404, "ERR_KANBAN_COLUMN_NOT_FOUND");
    expectError(await t.api.post("/kanban/columns/move", { id: col.id, index: 0 }, b.admin), 404, "ERR_KANBAN_COLUMN_NOT_FOUND");
    expectError(await t.api.del(`/kanban/columns?id=${col.id}`, b.admin), 404, "ERR_KANBAN_COLUMN_NOT_FOUND");
    expectError(await t.api.post("/kanban/cards", { kind: "ticket", targetId: ids.bTicket, columnId: col.id }, b.admin), 404, "ERR_KANBAN_COLUMN_NOT_FOUND");
    expectError(await t.api.call("PATCH", "/kanban/cards", { id: card.id, leadValue: 1 }, b.admin), 404, "ERR_KANBAN_CARD_NOT_FOUND");
    expectError(await t.api.post("/kanban/cards/move", { id: card.id, columnId: theirs.id, index: 0 }, b.admin), 404, "ERR_KANBAN_CARD_NOT_FOUND");
    expectError(await t.api.del(`/kanban/cards?id=${card.id}`, b.admin), 404, "ERR_KANBAN_CARD_NOT_FOUND");
    expectError(await t.api.post("/kanban/cards/move", { id: card.id, columnId: theirs.id, index: 0 }, a.admin), 404, "ERR_KANBAN_COLUMN_NOT_FOUND");
    // B's search finds none of A's tickets or contacts.
    expect(await ok(t.api.get("/kanban/search?kind=contact&q=Carla", b.admin))).toEqual([]);
    expect((await ok(t.api.get("/kanban/search?kind=contact&q=Carla", a.admin))).map((h: { id: number; onBoard: boolean }) => [h.id, h.onBoard])).toEqual([[ids.c1, false]]);
    expect(names(await board(a.admin))).toEqual(names(bd));
  });

  it("two agents moving cards at the same time lose none, and every column stays in order", async () => {
    const bd = await board(a.admin);
    const cards = bd.columns.flatMap((c) => c.cards);
    const cols = bd.columns.map((c) => c.id);
    const moves = Array.from({ length: 24 }, (_, i) => ({ who: i % 2 ? a.agent : a.supervisor, id: cards[i % cards.length].id, columnId: cols[(i * 7) % cols.length], index: i % 3 }));
    const answers = await Promise.all(moves.map((m) => t.api.post("/kanban/cards/move", { id: m.id, columnId: m.columnId, index: m.index }, m.who)));
    expect(answers.map((r) => r.status)).toEqual(moves.map(() => 200));
    const after = await board(a.admin);
    expect(after.version).toBe(bd.version + moves.length);
    expect(new Set(answers.map((r) => r.body.version)).size).toBe(moves.length);
    expect(
      after.columns
        .flatMap((c) => c.cards.map((k) => `${k.kind}:${k.targetId}`))
        .sort(),
    ).toEqual(cards.map((k) => `${k.kind}:${k.targetId}`).sort());
    for (const c of after.columns) expect(c.cards.map((k) => k.position)).toEqual(c.cards.map((_, i) => i));
  });

  it("deletes a column only once its cards have somewhere to go", async () => {
    const bd = await board(a.admin);
    const full = bd.columns.find((c) => c.cards.length)!;
    const other = bd.columns.find((c) => c.id !== full.id)!;
    const r = await t.api.del(`/kanban/columns?id=${full.id}`, a.agent);
    expectError(r, 409, "ERR_KANBAN_COLUMN_NOT_EMPTY");
    expect(r.body.data).toMatchObject({ cards: full.cards.length });
    // The manifest's texts, through the core's catalogue, in the caller's language (pt-BR by default).
    expect(r.body.title).toBe("Coluna com cartões");
    expect(r.body.message).toContain(`${full.cards.length} cartão(ões)`);
    expect(await ok(t.api.del(`/kanban/columns?id=${full.id}&moveTo=${other.id}`, a.agent))).toMatchObject({ id: full.id, moved: full.cards.length });
    const after = await board(a.admin);
    expect(after.columns.map((c) => c.id)).not.toContain(full.id);
    expect(after.columns.find((c) => c.id === other.id)!.cards.slice(-full.cards.length).map((k) => k.id)).toEqual(full.cards.map((k) => k.id));
    const empty = await ok(t.api.post("/kanban/columns", { name: "Vazia" }, a.agent));
    await ok(t.api.del(`/kanban/columns?id=${empty.id}`, a.agent));
  });

  it("drops the card of a deleted ticket (the core's ticket.deleted event)", async () => {
    const before = await board(a.admin);
    expect(before.columns.flatMap((c) => c.cards).some((k) => k.kind === "ticket" && k.targetId === ids.tk2)).toBe(true);
    await ok(t.api.del(`/tickets/${ids.tk2}`, a.admin));
    const after = await waitFor(
      "the card to leave",
      () => board(a.admin),
      // The store dropped the card and closed the gap (positions 0, 1, 2 … again), not merely the
      // view hiding a ticket the core no longer lists; another change may bump the version first.
      (bd) =>
        bd.version > before.version &&
        !bd.columns.flatMap((c) => c.cards).some((k) => k.kind === "ticket" && k.targetId === ids.tk2) &&
        bd.columns.every((c) => c.cards.every((k, i) => k.position === i)),
    );
    expect(after.columns.flatMap((c) => c.cards).length).toBe(before.columns.flatMap((c) => c.cards).length - 1);
  });
});
