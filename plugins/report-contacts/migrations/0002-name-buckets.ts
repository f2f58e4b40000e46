/**
 * The contacts' name bucket (query.ts: the first two letters of the name, as an ordinal), on
 * the contacts and on their tag links (with the name), so that the list, the states and the tags
 * pages read by name a batch of buckets at a time (report-kit's batched read: no OFFSET over the
 * whole tenant). The rows get their bucket from the backfill the projection's new name starts.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0002-name-buckets",
  async up(schema) {
    await schema.addColumn("contacts", "bucket", { type: "integer", default: 0 });
    await schema.addIndex("contacts", { columns: ["deleted", "bucket", "name"] });
    await schema.addIndex("contacts", { columns: ["deleted", "state", "bucket", "name"] });
    await schema.addColumn("contact_tags", "bucket", { type: "integer", default: 0 });
    await schema.addColumn("contact_tags", "name", { type: "string", length: 191, default: "" });
    await schema.addIndex("contact_tags", { columns: ["tagId", "bucket", "name"] });
  },
};
