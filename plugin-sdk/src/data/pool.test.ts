/**
 * Transactions that fill the pool: each one's first statement on a table must not ask the pool
 * for a second connection (to read the table's definition), or every transaction waits for a
 * connection that only another waiting transaction could give back, until the acquire timeout.
 * Seen with five WhatsApp sessions starting at once on a pool of five.
 */
import type { PluginMigration } from "./contract";
import { openPluginDataAt } from "./open";
import { runPluginMigrations } from "./migrate";
import { testPluginDatabase, type TestPluginDatabase } from "./testing";

const migrations: PluginMigration[] = [
  {
    name: "0001-sessions",
    async up(schema) {
      await schema.createTable("sessions", { columns: { connectionId: { type: "integer" }, fence: { type: "integer" } }, primaryKey: ["connectionId"] });
    },
  },
];

describe.each(["sqlite", "mysql"] as const)("plugin data on %s: transactions filling the pool", (dialect) => {
  let db: TestPluginDatabase;
  beforeAll(async () => {
    db = await testPluginDatabase(dialect, { prefix: "pool" });
    const setup = await openPluginDataAt(db.address);
    await runPluginMigrations(setup, migrations);
    await setup.close();
  });
  afterAll(async () => {
    await db?.drop();
  });

  it("as many transactions as pooled connections, each on a table not read yet, all commit", async () => {
    // A new PluginData: no table definition cached yet, and a pool of two.
    const data = await openPluginDataAt({ ...db.address, poolMax: 2 });
    try {
      const started = Date.now();
      await Promise.all(
        [1, 2].map((connectionId) =>
          data.forTenant(1).transaction(async (tx) => {
            const sessions = tx.table<{ connectionId: number; fence: number }>("sessions");
            await sessions.upsert({ connectionId, fence: connectionId });
            return sessions.get({ connectionId });
          }),
        ),
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await data.forTenant(1).table<{ connectionId: number; fence: number }>("sessions").find({}, { orderBy: [["connectionId", "asc"]] })).map((r) => r.fence)).toEqual([1, 2]);
    } finally {
      await data.close();
    }
  });
});
