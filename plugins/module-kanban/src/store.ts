/**
 * The kanban's rows in the plugin's own database, always through the SDK's tenant-scoped
 * repository. Every change runs in one transaction that first writes the tenant's `boards`
 * row: on MariaDB that row lock makes one tenant's changes run one after the other, on
 * SQLite the single writer does; so positions are read, recomputed (board.ts) and written
 * with nobody else's change in between, and concurrent moves neither lose a card nor leave
 * two at one position. Another tenant's column or card is simply not found (404).
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, PluginError, type PluginData, type TenantData } from "@openatende/plugin-sdk";
import { byPosition, clampIndex, placeAt, positionChanges, type CardKind } from "./board";

export interface ColumnRow extends Record<string, unknown> {
  id: number;
  name: string;
  color: string;
  position: number;
  createdAt: number;
}

export interface CardRow extends Record<string, unknown> {
  id: number;
  columnId: number;
  kind: CardKind;
  targetId: number;
  leadValueCents: number;
  position: number;
  createdAt: number;
}

interface BoardRow extends Record<string, unknown> {
  id: number;
  version: number;
  touchedAt: number;
}

export interface BoardRows {
  version: number;
  columns: Array<ColumnRow & { cards: CardRow[] }>;
}

/** What a change leaves: the board's new version and the row it made or changed. */
export interface Changed<T> {
  version: number;
  value: T;
}

const BOARD_ID = 1;
/** Ids are random (no auto-increment in the SDK's schema), positive 31-bit, retried on the rare clash. */
const newId = () => randomInt(1, 2 ** 31 - 1);

export const columnNotFound = () => new PluginError("ERR_KANBAN_COLUMN_NOT_FOUND", 404);
export const cardNotFound = () => new PluginError("ERR_KANBAN_CARD_NOT_FOUND", 404);

export class KanbanStore {
  /** Tenants whose boards row is known to exist (it is made once, outside the changes' transactions). */
  private readonly ready = new Set<number>();

  constructor(
    private readonly data: PluginData,
    private readonly now: () => number = Date.now,
  ) {}

  private async ensureBoard(tenantId: number): Promise<void> {
    if (this.ready.has(tenantId)) return;
    const boards = this.data.forTenant(tenantId).table<BoardRow>("boards");
    if (!(await boards.get({ id: BOARD_ID }))) {
      try {
        await boards.insert({ id: BOARD_ID, version: 0, touchedAt: this.now() });
      } catch (err) {
        if (!(err instanceof DuplicateRowError)) throw err; // another node made it first
      }
    }
    this.ready.add(tenantId);
  }

  /** Runs one change of the tenant's board, alone: locks the board, runs fn, counts the version. */
  private async change<T>(tenantId: number, fn: (tx: TenantData) => Promise<T>): Promise<Changed<T>> {
    await this.ensureBoard(tenantId);
    return this.data.forTenant(tenantId).transaction(async (tx) => {
      const boards = tx.table<BoardRow>("boards");
      await boards.update({ id: BOARD_ID }, { touchedAt: this.now() }); // the lock: first write of the transaction
      const board = await boards.get({ id: BOARD_ID });
      const value = await fn(tx);
      const version = Number(board?.version ?? 0) + 1;
      await boards.update({ id: BOARD_ID }, { version });
      return { version, value };
    });
  }

  async board(tenantId: number): Promise<BoardRows> {
    const scope = this.data.forTenant(tenantId);
    const [board, columns, cards] = await Promise.all([
      scope.table<BoardRow>("boards").get({ id: BOARD_ID }),
      scope.table<ColumnRow>("columns").find({}, { orderBy: [["position", "asc"], ["id", "asc"]] }),
      scope.table<CardRow>("cards").find({}, { orderBy: [["columnId", "asc"], ["position", "asc"], ["id", "asc"]] }),
    ]);
    const byColumn = new Map<number, CardRow[]>();
    for (const c of cards) byColumn.set(c.columnId, [...(byColumn.get(c.columnId) ?? []), c]);
    return { version: Number(board?.version ?? 0), columns: columns.map((col) => ({ ...col, cards: byColumn.get(col.id) ?? [] })) };
  }

  private async column(tx: TenantData, id: number): Promise<ColumnRow> {
    const col = await tx.table<ColumnRow>("columns").get({ id });
    if (!col) throw columnNotFound();
    return col;
  }

  private async insertWithId<R extends { id: number }>(tx: TenantData, table: string, row: Omit<R, "id">): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const full = { ...row, id: newId() } as unknown as R & Record<string, unknown>;
      const clash = await tx.table(table).get({ id: full.id });
      if (!clash) {
        await tx.table(table).insert(full);
        return full;
      }
      if (attempt > 5) throw new Error(`no free id in ${table}`);
    }
  }

  createColumn(tenantId: number, input: { name: string; color: string }): Promise<Changed<ColumnRow>> {
    return this.change(tenantId, async (tx) => {
      const position = await tx.table("columns").count();
      return this.insertWithId<ColumnRow>(tx, "columns", { name: input.name, color: input.color, position, createdAt: this.now() });
    });
  }

  updateColumn(tenantId: number, id: number, input: { name?: string; color?: string }): Promise<Changed<ColumnRow>> {
    return this.change(tenantId, async (tx) => {
      const col = await this.column(tx, id);
      const values: Partial<ColumnRow> = {};
      if (input.name !== undefined) values.name = input.name;
      if (input.color !== undefined) values.color = input.color;
      if (Object.keys(values).length) await tx.table<ColumnRow>("columns").update({ id }, values);
      return { ...col, ...values };
    });
  }

  /** Puts column `id` at `index` (0: leftmost), the others keeping their order. */
  moveColumn(tenantId: number, id: number, index: number): Promise<Changed<ColumnRow>> {
    return this.change(tenantId, async (tx) => {
      await this.column(tx, id);
      const table = tx.table<ColumnRow>("columns");
      const all = byPosition(await table.find({}));
      const order = placeAt(
        all.map((c) => c.id),
        id,
        index,
      );
      for (const ch of positionChanges(all, order)) await table.update({ id: ch.id }, { position: ch.position });
      return { ...all.find((c) => c.id === id)!, position: order.indexOf(id) };
    });
  }

  /**
   * Deletes a column. One with cards is refused (ERR_KANBAN_COLUMN_NOT_EMPTY, naming how many)
   * unless `moveTo` names another column: its cards then go to the end of that one, in order.
   */
  deleteColumn(tenantId: number, id: number, moveTo?: number): Promise<Changed<{ id: number; moved: number }>> {
    return this.change(tenantId, async (tx) => {
      await this.column(tx, id);
      const cards = tx.table<CardRow>("cards");
      const inside = byPosition(await cards.find({ columnId: id }));
      if (inside.length) {
        if (moveTo === undefined || moveTo === id) throw new PluginError("ERR_KANBAN_COLUMN_NOT_EMPTY", 409, { cards: inside.length });
        await this.column(tx, moveTo);
        let position = await cards.count({ columnId: moveTo });
        for (const c of inside) await cards.update({ id: c.id }, { columnId: moveTo, position: position++ });
      }
      const columns = tx.table<ColumnRow>("columns");
      await columns.delete({ id });
      const rest = byPosition(await columns.find({}));
      for (const ch of positionChanges(
        rest,
        rest.map((c) => c.id),
      ))
        await columns.update({ id: ch.id }, { position: ch.position });
      return { id, moved: inside.length };
    });
  }

  /** A card for a ticket or contact (checked to exist by the caller), at `index` of the column (default: last). */
  addCard(tenantId: number, input: { columnId: number; kind: CardKind; targetId: number; index?: number; leadValueCents?: number }): Promise<Changed<CardRow>> {
    return this.change(tenantId, async (tx) => {
      await this.column(tx, input.columnId);
      const cards = tx.table<CardRow>("cards");
      if (await cards.get({ kind: input.kind, targetId: input.targetId })) throw new PluginError("ERR_KANBAN_CARD_EXISTS", 409, { kind: input.kind, targetId: input.targetId });
      const inside = byPosition(await cards.find({ columnId: input.columnId }));
      const at = clampIndex(input.index, inside.length);
      // Make room first: the cards from `at` on go one down.
      for (let i = inside.length - 1; i >= at; i--) await cards.update({ id: inside[i].id }, { position: i + 1 });
      try {
        return await this.insertWithId<CardRow>(tx, "cards", {
          columnId: input.columnId,
          kind: input.kind,
          targetId: input.targetId,
          leadValueCents: input.leadValueCents ?? 0,
          position: at,
          createdAt: this.now(),
        });
      } catch (err) {
        if (err instanceof DuplicateRowError) throw new PluginError("ERR_KANBAN_CARD_EXISTS", 409, { kind: input.kind, targetId: input.targetId });
        throw err;
      }
    });
  }

  setLeadValue(tenantId: number, id: number, leadValueCents: number): Promise<Changed<CardRow>> {
    return this.change(tenantId, async (tx) => {
      const cards = tx.table<CardRow>("cards");
      const card = await cards.get({ id });
      if (!card) throw cardNotFound();
      await cards.update({ id }, { leadValueCents });
      return { ...card, leadValueCents };
    });
  }

  /**
   * Moves card `id` to column `columnId` at `index` (of that column without the card; past
   * the end: last). Both columns stay dense from 0; only rows whose place changed are written.
   */
  moveCard(tenantId: number, id: number, columnId: number, index: number): Promise<Changed<CardRow & { from: number }>> {
    return this.change(tenantId, async (tx) => {
      const cards = tx.table<CardRow>("cards");
      const card = await cards.get({ id });
      if (!card) throw cardNotFound();
      await this.column(tx, columnId);
      const target = byPosition(await cards.find({ columnId }));
      const order = placeAt(
        target.map((c) => c.id),
        id,
        index,
      );
      if (card.columnId !== columnId) {
        const source = byPosition(await cards.find({ columnId: card.columnId })).filter((c) => c.id !== id);
        // The moving card leaves first, to a position no other card has, so no two meet midway.
        await cards.update({ id }, { columnId, position: -1 });
        for (const ch of positionChanges(
          source,
          source.map((c) => c.id),
        ))
          await cards.update({ id: ch.id }, { position: ch.position });
        const rows = [...target, { ...card, columnId, position: -1 }];
        for (const ch of positionChanges(rows, order)) await cards.update({ id: ch.id }, { position: ch.position });
      } else {
        for (const ch of positionChanges(target, order)) await cards.update({ id: ch.id }, { position: ch.position });
      }
      return { ...card, columnId, position: order.indexOf(id), from: card.columnId };
    });
  }

  removeCard(tenantId: number, id: number): Promise<Changed<CardRow>> {
    return this.change(tenantId, async (tx) => {
      const cards = tx.table<CardRow>("cards");
      const card = await cards.get({ id });
      if (!card) throw cardNotFound();
      await cards.delete({ id });
      await this.closeGap(tx, card.columnId);
      return card;
    });
  }

  /** Drops the cards of tickets or contacts that are gone (core events); null when there were none. */
  async removeTargets(tenantId: number, kind: CardKind, targetIds: number[]): Promise<Changed<CardRow[]> | null> {
    if (!targetIds.length) return null;
    const found = await this.data.forTenant(tenantId).table<CardRow>("cards").find({ kind, targetId: targetIds });
    if (!found.length) return null;
    return this.change(tenantId, async (tx) => {
      const cards = tx.table<CardRow>("cards");
      const gone = await cards.find({ kind, targetId: targetIds });
      await cards.delete({ kind, targetId: targetIds });
      for (const columnId of new Set(gone.map((c) => c.columnId))) await this.closeGap(tx, columnId);
      return gone;
    });
  }

  /** Positions of a column back to 0, 1, 2 … after a card left it. */
  private async closeGap(tx: TenantData, columnId: number): Promise<void> {
    const cards = tx.table<CardRow>("cards");
    const rest = byPosition(await cards.find({ columnId }));
    for (const ch of positionChanges(
      rest,
      rest.map((c) => c.id),
    ))
      await cards.update({ id: ch.id }, { position: ch.position });
  }
}
