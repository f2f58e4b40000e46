/**
 * chatbot-flows' own tables (every row also carries tenantId, added and filled by the host's
 * tenant scope):
 *
 * - flows: chat, entry and closure flows. A chat flow's graph and an auto-reply's steps are
 *   JSON (read and written whole: the builder saves the drawing at once); settings too.
 * - flow_locks: one row per tenant (id 1). Activating a flow, binding one and deleting one
 *   first write it in their transaction, so the free plan's "one active flow" count and the
 *   "still bound?" check cannot race (a row lock on MariaDB, the single writer on SQLite).
 * - bindings: what a connection's or queue's form section chose (entry and closure flow); the
 *   entry flow is also bound in the core (platform.chatbots.bind) so new tickets reach the bot.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-flows",
  async up(schema) {
    await schema.createTable("flows", {
      columns: {
        id: { type: "integer" },
        kind: { type: "string", length: 8 },
        name: { type: "string", length: 100 },
        description: { type: "text" },
        active: { type: "boolean", default: false },
        testPhone: { type: "string", length: 20, nullable: true },
        settings: { type: "json" },
        graph: { type: "json", nullable: true },
        steps: { type: "json", nullable: true },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["kind"] }, { columns: ["active"] }],
    });
    await schema.createTable("flow_locks", {
      columns: { id: { type: "integer" }, touchedAt: { type: "bigint", default: 0 } },
      primaryKey: ["id"],
    });
    await schema.createTable("bindings", {
      columns: {
        scope: { type: "string", length: 16 },
        targetId: { type: "integer" },
        entryFlowId: { type: "integer", nullable: true },
        closureFlowId: { type: "integer", nullable: true },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["scope", "targetId"],
      indexes: [{ columns: ["entryFlowId"] }, { columns: ["closureFlowId"] }],
    });
  },
};
