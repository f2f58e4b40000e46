/**
 * The panel's projection: the tenant's tickets that are waiting (pending) or in service (open),
 * one row each with its queue and since when it waits. A ticket that leaves both states keeps its
 * row with its new status and version (and a deleted one a tombstone), so a backfill page read
 * before the change does not bring it back; the board reads only `status IN (pending, open)`.
 * Every row also carries tenantId (the host's tenant scope).
 *
 * - waitingSince: when it became pending (its creation, or the change that made it pending).
 * - version: the ticket's updatedAt (ms); an older write never overwrites a newer one.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-live-tickets",
  async up(schema) {
    await schema.createTable("live_tickets", {
      columns: {
        id: { type: "integer" },
        status: { type: "string", length: 16 },
        queueId: { type: "integer", nullable: true },
        waitingSince: { type: "bigint", nullable: true },
        version: { type: "bigint" },
        deleted: { type: "boolean", default: false },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["deleted", "status"] }],
    });
  },
};
