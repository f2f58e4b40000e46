/**
 * The board's pure rules: where things go when one moves (positions dense from 0, the moved
 * one at the index asked for, the others in their order), what a column adds up to, and lead
 * values as exact cents. No database here: the store applies what these compute inside the
 * board's transaction, and the UI uses the same functions to draw a move before the server
 * answers.
 */

/** A column's name: required (spec §5 "Kanban: column name required"); the spec names no maximum, this is the stored one. */
export const COLUMN_NAME_MAX = 100;
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const DEFAULT_COLUMN_COLOR = "#7c4dff";
/** The largest lead value accepted: 1 trillion (in the tenant's currency), exact in cents as a JavaScript number. */
export const LEAD_VALUE_MAX = 1_000_000_000_000;

export type CardKind = "ticket" | "contact";
export const CARD_KINDS: CardKind[] = ["ticket", "contact"];

/** A lead value (≥ 0, up to LEAD_VALUE_MAX) as whole cents; more than two decimals are rounded. */
export function toCents(value: number): number {
  if (!Number.isFinite(value) || value < 0 || value > LEAD_VALUE_MAX) throw new RangeError(`lead value must be between 0 and ${LEAD_VALUE_MAX}`);
  return Math.round(value * 100);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

/** An index into a list of `length` items where a new one may go: clamped to 0…length (past the end: last). */
export function clampIndex(index: number | undefined, length: number): number {
  if (index === undefined || !Number.isFinite(index) || index > length) return length;
  return Math.max(0, Math.trunc(index));
}

/**
 * The ids in their new order once `id` is taken out and put at `index` (of the list without
 * it). An id not in the list is inserted (a card arriving from another column).
 */
export function placeAt<Id>(ids: readonly Id[], id: Id, index: number | undefined): Id[] {
  const rest = ids.filter((x) => x !== id);
  const at = clampIndex(index, rest.length);
  return [...rest.slice(0, at), id, ...rest.slice(at)];
}

export interface Positioned<Id = number> {
  id: Id;
  position: number;
}

/** The rows (of one list) whose position is not their index in `order`: what must be written, nothing more. */
export function positionChanges<Id>(rows: readonly Positioned<Id>[], order: readonly Id[]): Array<{ id: Id; position: number }> {
  const current = new Map(rows.map((r) => [r.id, r.position]));
  const out: Array<{ id: Id; position: number }> = [];
  order.forEach((id, position) => {
    if (current.get(id) !== position) out.push({ id, position });
  });
  return out;
}

/** Rows sorted by position, ties (which the store never leaves, but a reader may meet) by id. */
export function byPosition<T extends { position: number; id: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => a.position - b.position || a.id - b.id);
}

export interface ColumnTotals {
  count: number;
  leadValueCents: number;
}

/** A column's count of cards and the sum of their lead values (in cents, exact). */
export function totals(cards: ReadonlyArray<{ leadValueCents: number }>): ColumnTotals {
  let leadValueCents = 0;
  for (const c of cards) leadValueCents += c.leadValueCents;
  return { count: cards.length, leadValueCents };
}

/**
 * Moves a card in a board held in memory (the UI's optimistic drawing of a drag): out of its
 * column, into `toColumn` at `index`. Columns are lists of cards in order; returns a new board.
 */
export function moveInBoard<C extends { id: number }, Col extends { id: number; cards: C[] }>(columns: readonly Col[], cardId: number, toColumn: number, index: number): Col[] {
  const card = columns.flatMap((c) => c.cards).find((c) => c.id === cardId);
  if (!card || !columns.some((c) => c.id === toColumn)) return [...columns];
  return columns.map((col) => {
    const without = col.cards.filter((c) => c.id !== cardId);
    if (col.id !== toColumn) return without.length === col.cards.length ? col : { ...col, cards: without };
    const at = clampIndex(index, without.length);
    return { ...col, cards: [...without.slice(0, at), card, ...without.slice(at)] };
  });
}
