import { DataTypes } from "sequelize";
import { createConnection } from "mysql2/promise";
import { loadConfig } from "@openatende/config";
import { createSequelize } from "../src/db/sequelize";
import { uid, dropDatabase } from "./helpers";

/**
 * A deadlock on MariaDB rolls back the whole transaction. The statement that hit it must not be
 * retried on its own (it would fail with "rollback has been called on this transaction" and hide
 * the deadlock from the code that owns the transaction and retries all of it, as the import of
 * a new contact's history does).
 */
describe("a deadlock inside a MariaDB transaction", () => {
  const db = `oa_deadlock_${uid()}`;
  afterAll(() => dropDatabase(db));

  it("reaches the transaction's owner as the deadlock itself (errno 1213), once", async () => {
    const admin = await createConnection({ host: "127.0.0.1", user: "root", password: "" });
    await admin.query(`CREATE DATABASE \`${db}\``);
    await admin.end();
    const sequelize = createSequelize(loadConfig({ DATABASE_URL: `mysql://root@127.0.0.1:3306/${db}` }));
    try {
      const Probe = sequelize.define("probe", { k: DataTypes.INTEGER, v: DataTypes.INTEGER }, { tableName: "probe", timestamps: false, indexes: [{ fields: ["k"] }] });
      await Probe.sync();
      // Both lock the same empty range, then both insert into it: InnoDB kills one.
      const both = (v: number) =>
        sequelize.transaction(async (transaction) => {
          await Probe.findAll({ where: { k: 7 }, transaction, lock: transaction.LOCK.UPDATE });
          await new Promise((r) => setTimeout(r, 50));
          await Probe.create({ k: 7, v }, { transaction });
        });
      const results = await Promise.allSettled([both(1), both(2)]);
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(failed).toHaveLength(1);
      expect((failed[0].reason as { parent?: { errno?: number } }).parent?.errno).toBe(1213);
      expect(await Probe.count()).toBe(1);
    } finally {
      await sequelize.close();
    }
  });
});
