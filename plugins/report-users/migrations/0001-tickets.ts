/**
 * The projection the per-user statistics read: one row per ticket with only what the figures
 * need — its attendant, queue, status, and opening and closing instants (README: why per ticket
 * and not per service interval). Every row also carries tenantId (the host's tenant scope).
 *
 * - createdHour: hours since the epoch of createdAt; a period is `createdHour IN (…)` (the SDK's
 *   repository compares by equality only), then checked against the exact range.
 * - version: the ticket's updatedAt (ms); an older write never overwrites a newer one.
 * - deleted: a deleted ticket's tombstone (a backfill page read before it does not revive it).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-tickets",
  async up(schema) {
    await schema.createTable("tickets", {
      columns: {
        id: { type: "integer" },
        status: { type: "string", length: 16 },
        userId: { type: "integer", nullable: true },
        queueId: { type: "integer", nullable: true },
        createdAt: { type: "bigint" },
        closedAt: { type: "bigint", nullable: true },
        createdHour: { type: "integer" },
        version: { type: "bigint" },
        deleted: { type: "boolean", default: false },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["deleted", "createdHour"] }],
    });
  },
};
