/**
 * outbox.waits, asked before every send: a connection found with nothing waiting is not asked
 * about again for a moment (no SQL per send), and a message put in the outbox — on this node
 * (outbox.enqueue) or on another (its outbox.enqueued broadcast) — makes the next send wait
 * at once. Real MariaDB.
 */
import { QueryTypes } from "sequelize";
import { startCore, uid, type TestCore } from "./helpers";

describe("outbox.waits (MariaDB)", () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startCore();
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const waits = (connectionId: number, messageId?: number) => t.core.broker.call("outbox.waits", { connectionId, ...(messageId ? { messageId } : {}) }) as Promise<boolean>;
  const payload = { to: { externalId: "5511999990000" }, message: { kind: "text", body: "espera" } };

  /** Runs `fn` and answers the SQL statements the core made meanwhile. */
  async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
    const seq = t.core.sequelize as unknown as { options: { logging: unknown } };
    const seen: string[] = [];
    seq.options.logging = (q: string) => void seen.push(q);
    try {
      await fn();
    } finally {
      seq.options.logging = false;
    }
    return seen;
  }

  it("an empty connection is asked once; a message enqueued here makes the next send wait at once", async () => {
    const connectionId = 900_000 + Math.floor(Math.random() * 90_000);
    const messageId = Number(`9${Date.now() % 1e9}`);
    expect(await waits(connectionId)).toBe(false);
    const again = await statementsOf(async () => {
      expect(await waits(connectionId)).toBe(false);
      expect(await waits(connectionId, messageId)).toBe(false);
    });
    expect(again.filter((q) => /message_outbox/.test(q))).toEqual([]);

    await t.core.broker.call("outbox.enqueue", { tenantId: 1, connectionId, ticketId: 1, messageId, payload });
    try {
      expect(await waits(connectionId)).toBe(true);
      expect(await waits(connectionId, messageId)).toBe(true);
      expect(await waits(connectionId, messageId + 1)).toBe(false);
    } finally {
      await t.core.sequelize.query("DELETE FROM message_outbox WHERE connectionId = ?", { replacements: [connectionId], type: QueryTypes.DELETE });
    }
  });

  it("a message another node enqueued makes the next send wait once its broadcast is heard", async () => {
    const connectionId = 900_000 + Math.floor(Math.random() * 90_000);
    expect(await waits(connectionId)).toBe(false);
    // Another node's outbox service: the row, then its broadcast.
    const now = new Date();
    await t.core.sequelize.query("INSERT INTO message_outbox (tenantId, connectionId, ticketId, messageId, op, payload, attempts, createdAt, updatedAt) VALUES (1, ?, 1, ?, 'send', ?, 0, ?, ?)", {
      replacements: [connectionId, Number(`8${uid().replace(/\D/g, "").slice(0, 8) || "1"}`), JSON.stringify(payload), now, now],
      type: QueryTypes.INSERT,
    });
    try {
      // Believed empty for a moment, as a send on this node would have been at that instant…
      expect(await waits(connectionId)).toBe(false);
      await t.core.broker.broadcast("outbox.enqueued", { connectionId });
      // …until the broadcast is heard.
      let seen = false;
      for (let i = 0; i < 50 && !seen; i++) seen = await waits(connectionId);
      expect(seen).toBe(true);
    } finally {
      await t.core.sequelize.query("DELETE FROM message_outbox WHERE connectionId = ?", { replacements: [connectionId], type: QueryTypes.DELETE });
    }
  });
});
