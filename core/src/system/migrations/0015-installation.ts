import { randomUUID } from "node:crypto";
import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * installation: one row, the id this installation was given when its database was created.
 * What the installation keeps in a shared Redis is under that id (lib/redis.ts), so two
 * installations with different databases sharing one Redis never read each other's sessions
 * or counters (user 1 of one is not user 1 of the other). Generated here, once; never changed.
 */
export const m0015: Migration = {
  name: "0015-installation",
  async up(qi) {
    await qi.createTable("installation", {
      id: { type: DataTypes.STRING(36), primaryKey: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.bulkInsert("installation", [{ id: randomUUID(), createdAt: new Date() }]);
  },
  async down(qi) {
    await qi.dropTable("installation");
  },
};
