/**
 * The plugin's own tables (tenantId is added and filled by the host's tenant scope):
 *
 * - batches: one "send now" to selected contacts: the text, the connection, the delay between
 *   messages, its progress (sent, failed, total) and when its next message goes.
 * - batch_items: one row per contact of a batch, in order (`seq`), with the name and age its
 *   text was filled with and what its send became (the core's message id, or why it failed).
 * - scheduled: one birthday message at 9:00 on a contact's birthday (`occursOn`), pending until
 *   its job fires (sent or failed) or it is cancelled.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-birthdays",
  async up(schema) {
    await schema.createTable("batches", {
      columns: {
        id: { type: "integer" },
        connectionId: { type: "integer" },
        body: { type: "text" },
        delaySeconds: { type: "integer" },
        status: { type: "string", length: 12 },
        total: { type: "integer" },
        sent: { type: "integer", default: 0 },
        failed: { type: "integer", default: 0 },
        nextAt: { type: "bigint", nullable: true },
        createdBy: { type: "integer" },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("batch_items", {
      columns: {
        batchId: { type: "integer" },
        seq: { type: "integer" },
        contactId: { type: "integer" },
        name: { type: "string", length: 200 },
        age: { type: "integer", nullable: true },
        status: { type: "string", length: 12 },
        messageId: { type: "integer", nullable: true },
        failReason: { type: "string", length: 255, nullable: true },
        sentAt: { type: "bigint", nullable: true },
      },
      primaryKey: ["batchId", "seq"],
      indexes: [{ columns: ["batchId", "status"] }],
    });
    await schema.createTable("scheduled", {
      columns: {
        id: { type: "integer" },
        contactId: { type: "integer" },
        connectionId: { type: "integer" },
        name: { type: "string", length: 200 },
        body: { type: "text" },
        occursOn: { type: "string", length: 10 },
        age: { type: "integer" },
        runAt: { type: "bigint" },
        status: { type: "string", length: 12 },
        messageId: { type: "integer", nullable: true },
        failReason: { type: "string", length: 255, nullable: true },
        createdBy: { type: "integer" },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["status"] }, { columns: ["contactId", "occursOn"] }],
    });
  },
};
