/**
 * The board's pure rules: positions after a move (server and UI alike), a dropped card's index
 * when filters hide some cards, totals, lead values in cents, and the form rules.
 */
import { byPosition, clampIndex, fromCents, moveInBoard, placeAt, positionChanges, toCents, totals, LEAD_VALUE_MAX, COLUMN_NAME_MAX } from "../src/board";
import { columnNameProblem, formatLeadValue, leadValueOk, serverIndex, slotAt } from "../src/ui/rules";
import { seesTicket } from "../src/view";

describe("positions", () => {
  it("puts an id at the index of the list without it; past the end means last, below 0 means first", () => {
    expect(placeAt([1, 2, 3], 1, 2)).toEqual([2, 3, 1]);
    expect(placeAt([1, 2, 3], 3, 0)).toEqual([3, 1, 2]);
    expect(placeAt([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
    expect(placeAt([1, 2, 3], 9, 1)).toEqual([1, 9, 2, 3]);
    expect(placeAt([1, 2, 3], 9, 99)).toEqual([1, 2, 3, 9]);
    expect(placeAt([1, 2, 3], 9, -4)).toEqual([9, 1, 2, 3]);
    expect(placeAt([], 9, 3)).toEqual([9]);
    expect(clampIndex(undefined, 4)).toBe(4);
    expect(clampIndex(2.7, 4)).toBe(2);
    expect(clampIndex(Number.NaN, 4)).toBe(4);
  });

  it("writes only the rows whose place changed", () => {
    const rows = [
      { id: 1, position: 0 },
      { id: 2, position: 1 },
      { id: 3, position: 2 },
    ];
    expect(positionChanges(rows, [1, 2, 3])).toEqual([]);
    expect(positionChanges(rows, [1, 3, 2])).toEqual([
      { id: 3, position: 1 },
      { id: 2, position: 2 },
    ]);
    // A gap left by a removed card closes.
    expect(positionChanges([{ id: 1, position: 0 }, { id: 3, position: 2 }], [1, 3])).toEqual([{ id: 3, position: 1 }]);
    expect(byPosition([{ id: 5, position: 1 }, { id: 4, position: 1 }, { id: 9, position: 0 }]).map((r) => r.id)).toEqual([9, 4, 5]);
  });

  it("moves a card in the board drawn in memory, between and within columns, losing none", () => {
    const board = [
      { id: 10, cards: [{ id: 1 }, { id: 2 }] },
      { id: 20, cards: [{ id: 3 }] },
    ];
    const ids = (b: typeof board) => b.map((c) => c.cards.map((x) => x.id));
    expect(ids(moveInBoard(board, 1, 20, 0))).toEqual([[2], [1, 3]]);
    expect(ids(moveInBoard(board, 1, 20, 5))).toEqual([[2], [3, 1]]);
    expect(ids(moveInBoard(board, 1, 10, 1))).toEqual([[2, 1], [3]]);
    expect(ids(moveInBoard(board, 99, 10, 0))).toEqual([[1, 2], [3]]);
    expect(ids(moveInBoard(board, 1, 99, 0))).toEqual([[1, 2], [3]]);
    expect(ids(board)).toEqual([[1, 2], [3]]);
  });
});

describe("dropping a card", () => {
  const card = (id: number, columnId: number, position: number) => ({ id, columnId, position });

  it("finds the slot under the pointer from the other cards' middles", () => {
    expect(slotAt(5, [10, 30, 50])).toBe(0);
    expect(slotAt(20, [10, 30, 50])).toBe(1);
    expect(slotAt(60, [10, 30, 50])).toBe(3);
    expect(slotAt(60, [])).toBe(0);
  });

  it("gives the server the index among all the column's cards, with every card shown", () => {
    const col = [card(1, 7, 0), card(2, 7, 1), card(3, 7, 2)];
    // Within the column: first to last, last to first, first between the other two.
    expect(serverIndex(col, col[0], 7, 2)).toBe(2);
    expect(serverIndex(col, col[2], 7, 0)).toBe(0);
    expect(serverIndex(col, col[0], 7, 1)).toBe(1);
    // From another column: at the top, between, at the end; into an empty column.
    const other = card(9, 8, 4);
    expect(serverIndex(col, other, 7, 0)).toBe(0);
    expect(serverIndex(col, other, 7, 2)).toBe(2);
    expect(serverIndex(col, other, 7, 3)).toBe(3);
    expect(serverIndex([], other, 7, 0)).toBe(0);
    expect(serverIndex([other], other, 8, 0)).toBe(4);
  });

  it("with filters hiding cards, lands next to the card it was dropped by", () => {
    // Shown: positions 1, 4 and 6 of a column of 8 cards.
    const shown = [card(11, 7, 1), card(14, 7, 4), card(16, 7, 6)];
    const from = card(50, 3, 0);
    expect(serverIndex(shown, from, 7, 0)).toBe(1); // before the card at 1
    expect(serverIndex(shown, from, 7, 1)).toBe(4); // before the card at 4
    expect(serverIndex(shown, from, 7, 3)).toBe(7); // after the card at 6
    // Within the column: the card at 1 dropped after the card at 6 → index 6 of the column without it.
    expect(serverIndex(shown, shown[0], 7, 2)).toBe(6);
    expect(serverIndex(shown, shown[2], 7, 0)).toBe(1);
  });
});

describe("totals and lead values", () => {
  it("counts the cards and adds their values exactly, in cents", () => {
    expect(totals([])).toEqual({ count: 0, leadValueCents: 0 });
    const cards = [0.1, 0.2, 1234.56].map((v) => ({ leadValueCents: toCents(v) }));
    expect(totals(cards)).toEqual({ count: 3, leadValueCents: 123486 });
    expect(fromCents(totals(cards).leadValueCents)).toBe(1234.86);
  });

  it("takes values from 0 to the maximum, rounding past two decimals", () => {
    expect(toCents(0)).toBe(0);
    expect(toCents(19.999)).toBe(2000);
    expect(toCents(LEAD_VALUE_MAX)).toBe(LEAD_VALUE_MAX * 100);
    expect(Number.isSafeInteger(toCents(LEAD_VALUE_MAX))).toBe(true);
    expect(() => toCents(-1)).toThrow(RangeError);
    expect(() => toCents(LEAD_VALUE_MAX + 1)).toThrow(RangeError);
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect([0, 10.5, LEAD_VALUE_MAX].every(leadValueOk)).toBe(true);
    expect([-0.01, LEAD_VALUE_MAX + 1, Number.NaN, "5", null].some(leadValueOk)).toBe(false);
  });

  it("writes values the way the locale writes numbers, with two decimals", () => {
    expect(formatLeadValue(1234.5, "pt-BR")).toBe("1.234,50");
    expect(formatLeadValue(1234.5, "en")).toBe("1,234.50");
    expect(formatLeadValue(0, "es")).toBe("0,00");
  });
});

describe("a column's name (spec §5: required)", () => {
  it("is required, spaces alone are not a name, and it has a maximum", () => {
    expect(columnNameProblem("")).toBe("errColumnName");
    expect(columnNameProblem("   ")).toBe("errColumnName");
    expect(columnNameProblem("Novo")).toBeNull();
    expect(columnNameProblem("x".repeat(COLUMN_NAME_MAX))).toBeNull();
    expect(columnNameProblem("x".repeat(COLUMN_NAME_MAX + 1))).toBe("errColumnNameMax");
  });
});

describe("who sees a ticket card (spec §6)", () => {
  it("admins and supervisors see every ticket; an agent, those of their queues and their own", () => {
    const t = (queueId: number | null, userId: number | null) => ({ queueId, userId });
    for (const profile of ["admin", "supervisor"]) expect(seesTicket({ id: 1, profile }, [], t(9, 2))).toBe(true);
    const agent = { id: 1, profile: "user" };
    expect(seesTicket(agent, [5], t(5, 2))).toBe(true);
    expect(seesTicket(agent, [5], t(9, 1))).toBe(true);
    expect(seesTicket(agent, [5], t(9, 2))).toBe(false);
    expect(seesTicket(agent, [5], t(null, null))).toBe(false);
  });
});
