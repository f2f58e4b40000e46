/** The per-user figures by hand, without a database. */
import { StatsBuilder } from "./stats";

const MIN = 60_000;
const T = Date.UTC(2026, 2, 10, 12);

describe("StatsBuilder", () => {
  const b = new StatsBuilder();
  const rows = [
    { userId: 1, status: "closed", createdAt: T, closedAt: T + 20 * MIN },
    { userId: 1, status: "closed", createdAt: T, closedAt: T + 45 * MIN },
    { userId: 1, status: "open", createdAt: T, closedAt: null },
    { userId: 2, status: "pending", createdAt: T, closedAt: null },
    { userId: 2, status: "closed", createdAt: T, closedAt: T + 150 * MIN },
    { userId: null, status: "pending", createdAt: T, closedAt: null },
    { userId: 9, status: "chatbot", createdAt: T, closedAt: null },
  ] as const;
  rows.forEach((r) => b.add(r));

  it("counts each user's pending, in service, resolved and total, and times the resolved ones in minutes (pt-BR)", () => {
    const lines = b.rows([{ id: 2, name: "Bia" }, { id: 1, name: "Ana" }, { id: 3, name: "Caio" }], "Sem atendente");
    expect(lines.map((l) => [l.userId, l.name, l.pending, l.open, l.closed, l.total, l.text.shortest, l.text.longest, l.text.average])).toEqual([
      [1, "Ana", 0, 1, 2, 3, "20,00", "45,00", "32,50"],
      [2, "Bia", 1, 0, 1, 2, "150,00", "150,00", "150,00"],
      [3, "Caio", 0, 0, 0, 0, "", "", ""],
      [9, "#9", 0, 0, 0, 1, "", "", ""],
      [null, "Sem atendente", 1, 0, 0, 1, "", "", ""],
    ]);
    expect(lines[0]).toMatchObject({ shortestMs: 20 * MIN, longestMs: 45 * MIN, averageMs: 32.5 * MIN });
  });

  it("totals every ticket", () => {
    expect(b.totals()).toMatchObject({ pending: 2, open: 1, closed: 3, total: 7, shortestMs: 20 * MIN, longestMs: 150 * MIN, text: { average: "71,667" } });
  });
});
