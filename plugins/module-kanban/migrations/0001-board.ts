/**
 * The kanban's own tables (every row also carries tenantId, added and filled by the host's
 * tenant scope):
 *
 * - boards: one row per tenant (id 1). Every change of the board first writes this row in its
 *   transaction, so changes of one tenant's board run one after the other (a row lock on
 *   MariaDB, the single writer on SQLite) and two agents moving cards at once lose neither
 *   move; `version` counts the changes (the realtime push carries it).
 * - columns: name, colour and position (0, 1, 2 … left to right, kept dense).
 * - cards: a ticket or a contact (kind + targetId, once per tenant) in a column at a position
 *   (dense from 0 within the column), with its lead value in cents (no decimal type in the
 *   SDK's schema: an integer of cents is exact).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-board",
  async up(schema) {
    await schema.createTable("boards", {
      columns: {
        id: { type: "integer" },
        version: { type: "bigint", default: 0 },
        touchedAt: { type: "bigint", default: 0 },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("columns", {
      columns: {
        id: { type: "integer" },
        name: { type: "string", length: 100 },
        color: { type: "string", length: 7 },
        position: { type: "integer" },
        createdAt: { type: "bigint" },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("cards", {
      columns: {
        id: { type: "integer" },
        columnId: { type: "integer" },
        kind: { type: "string", length: 8 },
        targetId: { type: "integer" },
        leadValueCents: { type: "bigint", default: 0 },
        position: { type: "integer" },
        createdAt: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["kind", "targetId"], unique: true }, { columns: ["columnId", "position"] }],
    });
  },
};
