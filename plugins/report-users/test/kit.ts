/**
 * What the per-user statistics' tests add to the report tests' kit (plugins/report-tickets/
 * test/kit.ts, imported, not copied): a ticket's attendant, queue, status and instants set in the
 * core's database, the way a long-lived tenant's history looks.
 */
import { createConnection } from "mysql2/promise";
import type { TestCore } from "@openatende/core/testkit";

export * from "../../report-tickets/test/kit";

export interface TicketFacts {
  id: number;
  status: "open" | "pending" | "closed";
  userId: number | null;
  queueId: number | null;
  createdAt: number;
  closedAt?: number;
}

export async function setTickets(t: TestCore, facts: TicketFacts[]): Promise<void> {
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: t.config.database.database, timezone: "Z" });
  try {
    for (const f of facts) {
      const closed = f.closedAt ? new Date(f.closedAt) : null;
      await db.query("UPDATE tickets SET status = ?, userId = ?, queueId = ?, createdAt = ?, closedAt = ?, updatedAt = ? WHERE id = ?", [f.status, f.userId, f.queueId, new Date(f.createdAt), closed, closed ?? new Date(f.createdAt), f.id]);
    }
  } finally {
    await db.end();
  }
}
