import { COLUMN_NAME_MAX, LEAD_VALUE_MAX } from "../board";

/**
 * The UI's pure rules (unit-tested in test/board.test.ts). Dragging a card, as numbers: which slot among the cards shown the pointer is over, and the
 * index the server takes for that slot. The server's index counts every card of the column
 * without the moving one; with filters on some are hidden, so the slot is turned into the
 * position of the card shown there (each card carries its full-column position).
 */
export interface Placed {
  id: number;
  columnId: number;
  position: number;
}

/** The slot (0 … number of other cards shown) for a pointer at `y`, given the middles of the other cards shown, top to bottom. */
export function slotAt(y: number, middles: readonly number[]): number {
  let slot = 0;
  while (slot < middles.length && y > middles[slot]) slot++;
  return slot;
}

/** The server's index for dropping `moving` into `columnId` at `slot` among `shown` (that column's cards as drawn, in order). */
export function serverIndex(shown: readonly Placed[], moving: Placed, columnId: number, slot: number): number {
  const others = shown.filter((c) => c.id !== moving.id);
  const same = moving.columnId === columnId;
  const without = (position: number) => (same && moving.position < position ? position - 1 : position);
  if (!others.length) return same ? moving.position : 0;
  if (slot < others.length) return without(others[Math.max(0, slot)].position);
  return without(others[others.length - 1].position) + 1;
}

/** A lead value as the locale writes numbers, always with two decimals (spec §9: pt-BR number format). */
export function formatLeadValue(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/** What is wrong with a column's name, as a text key (spec §5: required), or null. */
export function columnNameProblem(name: string): "errColumnName" | "errColumnNameMax" | null {
  const v = name.trim();
  if (!v) return "errColumnName";
  if ([...v].length > COLUMN_NAME_MAX) return "errColumnNameMax";
  return null;
}

/** A lead value the server takes: a number from 0 to LEAD_VALUE_MAX. */
export function leadValueOk(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= LEAD_VALUE_MAX;
}
