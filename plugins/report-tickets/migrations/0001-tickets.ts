/**
 * The projection of the tenant's tickets the report reads (every row also carries tenantId,
 * added and filled by the host's tenant scope): one row per ticket, denormalised (the contact's
 * name and number), written by the backfill and by ticket and contact events.
 *
 * - createdHour: hours since the epoch of createdAt; a period's rows are `createdHour IN (…)`
 *   (the SDK's repository compares by equality only), then ordered by createdAt.
 * - version: the ticket's updatedAt (ms); a write carrying an older one is dropped, so a
 *   backfill page read before an event never undoes it.
 * - deleted: a deleted ticket stays as a tombstone, so a backfill page read before the deletion
 *   does not bring it back; the report skips it.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-tickets",
  async up(schema) {
    await schema.createTable("tickets", {
      columns: {
        id: { type: "integer" },
        protocol: { type: "string", length: 64, nullable: true },
        status: { type: "string", length: 16 },
        contactId: { type: "integer" },
        contactName: { type: "string", length: 191, default: "" },
        contactNumber: { type: "string", length: 64, nullable: true },
        queueId: { type: "integer", nullable: true },
        userId: { type: "integer", nullable: true },
        createdAt: { type: "bigint" },
        closedAt: { type: "bigint", nullable: true },
        createdHour: { type: "integer" },
        version: { type: "bigint" },
        deleted: { type: "boolean", default: false },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["deleted", "createdHour", "createdAt"] }, { columns: ["contactId"] }],
    });
  },
};
