/**
 * The statistics are counted by the database over a period (src/stats.ts): the answers by their
 * answer time, grouped by queue or user and NPS group, and the surveys asked by their asking
 * time, by state. These indexes hold what each of those queries reads after its range.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0002-stats-indexes",
  async up(schema) {
    await schema.addIndex("surveys", { columns: ["state", "answeredAt", "queueId", "userId", "npsGroup"], name: "surveys_answered" });
    await schema.addIndex("surveys", { columns: ["askedAt", "state"], name: "surveys_asked" });
  },
};
