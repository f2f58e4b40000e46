/**
 * The summary cards are counted by the database over a range of createdAt (summary-sql.ts).
 * This index holds every column they read or filter on after the range, so the grouped query
 * reads the period's index entries only, never the rows themselves.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0002-summary-index",
  async up(schema) {
    await schema.addIndex("tickets", { columns: ["deleted", "createdAt", "status", "queueId", "userId", "closedAt"], name: "tickets_summary" });
  },
};
