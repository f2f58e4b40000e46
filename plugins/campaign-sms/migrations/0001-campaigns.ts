/** The campaign engine's tables (libs/campaign-engine/src/schema.ts) in this plugin's own database. */
import type { PluginMigration } from "@openatende/plugin-sdk";
import { createCampaignTables } from "@openatende/campaign-engine";

export const migration: PluginMigration = {
  name: "0001-campaigns",
  up: createCampaignTables,
};
