/**
 * The statistics are counted by the database over a range of createdAt (stats-sql.ts). This
 * index holds every column they read or filter on after the range, so the grouped query reads
 * the period's index entries only, never the rows themselves.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0002-stats-index",
  async up(schema) {
    await schema.addIndex("tickets", { columns: ["deleted", "createdAt", "queueId", "userId", "status", "closedAt"], name: "tickets_stats" });
  },
};
