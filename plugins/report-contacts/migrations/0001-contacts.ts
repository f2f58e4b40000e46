/**
 * The projection the contact reports read (every row also carries tenantId, the host's scope):
 *
 * - contacts: one row per contact (groups excluded) with what the reports show — name, number,
 *   e-mail, state, creation instant — `version` (its updatedAt: an older write never overwrites
 *   a newer one) and a `deleted` tombstone. Indexed for the list by name and for the states.
 * - contact_tags: one row per (contact, tag); the tag report selects contact ids by tagId. Tag
 *   names are the core's (tags.list at query time), so a renamed tag needs no rewrite.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-contacts",
  async up(schema) {
    await schema.createTable("contacts", {
      columns: {
        id: { type: "integer" },
        name: { type: "string", length: 191, default: "" },
        number: { type: "string", length: 64, nullable: true },
        email: { type: "string", length: 191, nullable: true },
        state: { type: "string", length: 64, nullable: true },
        createdAt: { type: "bigint" },
        version: { type: "bigint" },
        deleted: { type: "boolean", default: false },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["deleted", "name"] }, { columns: ["deleted", "state", "name"] }],
    });
    await schema.createTable("contact_tags", {
      columns: { contactId: { type: "integer" }, tagId: { type: "integer" } },
      primaryKey: ["contactId", "tagId"],
      indexes: [{ columns: ["tagId"] }],
    });
  },
};
