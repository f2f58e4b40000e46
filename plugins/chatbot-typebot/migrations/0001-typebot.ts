/**
 * The Typebot plugin's own tables (every row also carries tenantId, added and filled by the
 * host's tenant scope):
 *
 * - settings: one row per tenant (id 1): where its Typebot lives (viewer URL: the chat API;
 *   builder URL: opened as a link), the API token (kept here, never shown back in full), the
 *   API generation ("latest": startChat / continueChat; "legacy": sendMessage), our own session
 *   timeout in minutes (0: never) and the queue a finished conversation goes to.
 * - connections: a connection's Typebot section (spec §3): enabled, flow name (the bot's
 *   public id), restart keyword, invalid-answer message.
 * - sessions: one row per ticket the bot talks on: the Typebot session id, when the customer
 *   last wrote (the timeout counts from it), the choices of the menu now shown (a customer's
 *   number maps back to one), and the last inbound ids handled (a repeat delivery is skipped).
 * - failures: what went wrong talking to Typebot (status, message), recorded before the
 *   ticket is handed off, shown on the settings page.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-typebot",
  async up(schema) {
    await schema.createTable("settings", {
      columns: {
        id: { type: "integer" },
        viewerUrl: { type: "string", length: 500, nullable: true },
        builderUrl: { type: "string", length: 500, nullable: true },
        apiToken: { type: "text", nullable: true },
        apiGeneration: { type: "string", length: 8, default: "latest" },
        sessionTimeoutMinutes: { type: "integer", default: 0 },
        queueId: { type: "integer", nullable: true },
        updatedAt: { type: "bigint", default: 0 },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("connections", {
      columns: {
        connectionId: { type: "integer" },
        enabled: { type: "boolean", default: false },
        publicId: { type: "string", length: 191, default: "" },
        restartKeyword: { type: "string", length: 100, default: "" },
        invalidMessage: { type: "text", nullable: true },
        updatedAt: { type: "bigint", default: 0 },
      },
      primaryKey: ["connectionId"],
    });
    await schema.createTable("sessions", {
      columns: {
        ticketId: { type: "integer" },
        connectionId: { type: "integer", nullable: true },
        publicId: { type: "string", length: 191, default: "" },
        generation: { type: "string", length: 8, default: "latest" },
        sessionId: { type: "string", length: 191, nullable: true },
        status: { type: "string", length: 8, default: "active" },
        lastAt: { type: "bigint", default: 0 },
        choices: { type: "json", nullable: true },
        handled: { type: "json", nullable: true },
        updatedAt: { type: "bigint", default: 0 },
      },
      primaryKey: ["ticketId"],
    });
    await schema.createTable("failures", {
      columns: {
        id: { type: "string", length: 64 },
        ticketId: { type: "integer" },
        connectionId: { type: "integer", nullable: true },
        kind: { type: "string", length: 16 },
        status: { type: "integer", nullable: true },
        message: { type: "text" },
        at: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["at"] }, { columns: ["ticketId"] }],
    });
  },
};
