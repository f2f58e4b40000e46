import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-notes",
  async up(schema) {
    await schema.createTable("notes", {
      columns: { id: { type: "string", length: 64 }, text: { type: "text" }, writtenBy: { type: "string", length: 191 } },
      primaryKey: ["id"],
    });
  },
};
