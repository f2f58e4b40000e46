import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-secrets",
  async up(schema) {
    await schema.createTable("secrets", {
      columns: { id: { type: "string", length: 64 }, text: { type: "text" } },
      primaryKey: ["id"],
    });
  },
};
