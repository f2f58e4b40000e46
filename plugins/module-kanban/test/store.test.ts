/**
 * The kanban's own data on a real MariaDB database of its own (and SQLite, the embedded
 * mode): its migration, columns and cards kept in order, one tenant never reaching another's,
 * and many agents moving cards at the same time losing none.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { KanbanStore, type BoardRows, type CardRow, type ColumnRow } from "../src/store";

jest.setTimeout(120_000);

const PLUGIN_DIR = path.join(__dirname, "..");
const TENANT = 11;
const OTHER = 12;

/** The board as column name → [kind:targetId …] in order, with positions checked dense. */
function shape(b: BoardRows): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  b.columns.forEach((col, i) => {
    expect(col.position).toBe(i);
    col.cards.forEach((c, j) => expect({ card: c.id, position: c.position }).toEqual({ card: c.id, position: j }));
    out[col.name] = col.cards.map((c) => `${c.kind}:${c.targetId}`);
  });
  return out;
}

describe.each(["mysql", "sqlite"] as const)("the kanban's data on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: PluginData;
  let store: KanbanStore;

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await openPluginDataAt(db.address);
    const ran = await runPluginMigrations(data, loadPluginMigrations(PLUGIN_DIR));
    expect(ran.applied).toEqual(["0001-board"]);
    store = new KanbanStore(data);
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  it("runs its migration once: a second run (an upgrade with nothing new) applies nothing", async () => {
    expect((await runPluginMigrations(data, loadPluginMigrations(PLUGIN_DIR))).applied).toEqual([]);
  });

  it("keeps columns and cards in order through create, reorder, add at an index, move and remove", async () => {
    const todo = (await store.createColumn(TENANT, { name: "Novo", color: "#111111" })).value;
    const doing = (await store.createColumn(TENANT, { name: "Negociação", color: "#222222" })).value;
    const done = (await store.createColumn(TENANT, { name: "Ganho", color: "#333333" })).value;
    await store.moveColumn(TENANT, done.id, 0);
    expect(Object.keys(shape(await store.board(TENANT)))).toEqual(["Ganho", "Novo", "Negociação"]);
    await store.moveColumn(TENANT, done.id, 99);
    expect(Object.keys(shape(await store.board(TENANT)))).toEqual(["Novo", "Negociação", "Ganho"]);

    const a = (await store.addCard(TENANT, { columnId: todo.id, kind: "ticket", targetId: 1 })).value;
    const b = (await store.addCard(TENANT, { columnId: todo.id, kind: "ticket", targetId: 2 })).value;
    await store.addCard(TENANT, { columnId: todo.id, kind: "contact", targetId: 1, index: 0, leadValueCents: 150_00 });
    expect(shape(await store.board(TENANT))).toEqual({ Novo: ["contact:1", "ticket:1", "ticket:2"], Negociação: [], Ganho: [] });

    await store.moveCard(TENANT, b.id, doing.id, 0);
    await store.moveCard(TENANT, a.id, doing.id, 0);
    expect(shape(await store.board(TENANT))).toEqual({ Novo: ["contact:1"], Negociação: ["ticket:1", "ticket:2"], Ganho: [] });
    // Within a column: to the end, then back to the top.
    await store.moveCard(TENANT, a.id, doing.id, 5);
    expect(shape(await store.board(TENANT)).Negociação).toEqual(["ticket:2", "ticket:1"]);
    await store.moveCard(TENANT, a.id, doing.id, 0);
    expect(shape(await store.board(TENANT)).Negociação).toEqual(["ticket:1", "ticket:2"]);

    await store.removeCard(TENANT, a.id);
    expect(shape(await store.board(TENANT))).toEqual({ Novo: ["contact:1"], Negociação: ["ticket:2"], Ganho: [] });
    await store.setLeadValue(TENANT, b.id, 99_999);
    const board = await store.board(TENANT);
    expect(board.columns[1].cards[0].leadValueCents).toBe(99_999);
    expect(board.columns[0].cards[0].leadValueCents).toBe(150_00);
  });

  it("refuses a second card of one ticket, and a column with cards is deleted only by moving them", async () => {
    const [novo, neg, ganho] = (await store.board(TENANT)).columns;
    await expect(store.addCard(TENANT, { columnId: ganho.id, kind: "contact", targetId: 1 })).rejects.toMatchObject({ type: "ERR_KANBAN_CARD_EXISTS", code: 409 });
    // The same id of the other kind is another card.
    await store.addCard(TENANT, { columnId: ganho.id, kind: "contact", targetId: 2 });
    await expect(store.deleteColumn(TENANT, novo.id)).rejects.toMatchObject({ type: "ERR_KANBAN_COLUMN_NOT_EMPTY", code: 409, data: { cards: 1 } });
    expect((await store.deleteColumn(TENANT, novo.id, neg.id)).value).toEqual({ id: novo.id, moved: 1 });
    expect(shape(await store.board(TENANT))).toEqual({ Negociação: ["ticket:2", "contact:1"], Ganho: ["contact:2"] });
    await store.addCard(TENANT, { columnId: ganho.id, kind: "ticket", targetId: 7 });
    await store.removeTargets(TENANT, "contact", [2, 3]);
    expect(shape(await store.board(TENANT))).toEqual({ Negociação: ["ticket:2", "contact:1"], Ganho: ["ticket:7"] });
  });

  it("never shows or changes another tenant's columns and cards: their ids are not found", async () => {
    const mine = await store.board(TENANT);
    const col = mine.columns[0];
    const card = col.cards[0];
    expect((await store.board(OTHER)).columns).toEqual([]);
    await expect(store.updateColumn(OTHER, col.id, { name: "x" })).rejects.toMatchObject({ type: "ERR_KANBAN_COLUMN_NOT_FOUND", code: 404 });
    await expect(store.moveColumn(OTHER, col.id, 0)).rejects.toMatchObject({ type: "ERR_KANBAN_COLUMN_NOT_FOUND" });
    await expect(store.deleteColumn(OTHER, col.id)).rejects.toMatchObject({ type: "ERR_KANBAN_COLUMN_NOT_FOUND" });
    await expect(store.addCard(OTHER, { columnId: col.id, kind: "ticket", targetId: 50 })).rejects.toMatchObject({ type: "ERR_KANBAN_COLUMN_NOT_FOUND" });
    await expect(store.moveCard(OTHER, card.id, col.id, 0)).rejects.toMatchObject({ type: "ERR_KANBAN_CARD_NOT_FOUND", code: 404 });
    await expect(store.setLeadValue(OTHER, card.id, 1)).rejects.toMatchObject({ type: "ERR_KANBAN_CARD_NOT_FOUND" });
    await expect(store.removeCard(OTHER, card.id)).rejects.toMatchObject({ type: "ERR_KANBAN_CARD_NOT_FOUND" });
    // The other tenant's own column cannot take my card either.
    const theirs = (await store.createColumn(OTHER, { name: "Deles", color: "#444444" })).value;
    await expect(store.moveCard(OTHER, card.id, theirs.id, 0)).rejects.toMatchObject({ type: "ERR_KANBAN_CARD_NOT_FOUND" });
    await expect(store.moveCard(TENANT, card.id, theirs.id, 0)).rejects.toMatchObject({ type: "ERR_KANBAN_COLUMN_NOT_FOUND" });
    expect(shape(await store.board(TENANT))).toEqual(shape(mine));
  });

  it("loses no card when many agents move cards at the same time, and leaves every column dense", async () => {
    const t = 21;
    const cols: ColumnRow[] = [];
    for (const name of ["A", "B", "C"]) cols.push((await store.createColumn(t, { name, color: "#123456" })).value);
    const cards: CardRow[] = [];
    for (let i = 1; i <= 12; i++) cards.push((await store.addCard(t, { columnId: cols[i % 3].id, kind: "ticket", targetId: i })).value);
    const before = (await store.board(t)).version;
    // 40 moves at once (two agents' worth and more), each to a column and index chosen at random.
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    const moves = Array.from({ length: 40 }, () => ({ card: cards[rnd(cards.length)].id, col: cols[rnd(3)].id, index: rnd(6) }));
    const results = await Promise.all(moves.map((m) => store.moveCard(t, m.card, m.col, m.index)));
    const board = await store.board(t);
    // Every move counted once: the versions the moves saw are all different and follow the board's.
    expect(new Set(results.map((r) => r.version)).size).toBe(moves.length);
    expect(board.version).toBe(before + moves.length);
    shape(board);
    const all = board.columns.flatMap((c) => c.cards.map((card) => card.targetId)).sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it("two agents moving the same two cards into one column at once: both arrive, in one of the two orders", async () => {
    const t = 22;
    const left = (await store.createColumn(t, { name: "L", color: "#123456" })).value;
    const right = (await store.createColumn(t, { name: "R", color: "#654321" })).value;
    const x = (await store.addCard(t, { columnId: left.id, kind: "ticket", targetId: 1 })).value;
    const y = (await store.addCard(t, { columnId: left.id, kind: "ticket", targetId: 2 })).value;
    await store.addCard(t, { columnId: right.id, kind: "ticket", targetId: 3 });
    await Promise.all([store.moveCard(t, x.id, right.id, 0), store.moveCard(t, y.id, right.id, 0)]);
    const s = shape(await store.board(t));
    expect(s.L).toEqual([]);
    expect([["ticket:1", "ticket:2", "ticket:3"].join(), ["ticket:2", "ticket:1", "ticket:3"].join()]).toContain(s.R.join());
  });
});
