/**
 * The module's own tables (every row also carries tenantId, added and filled by the host):
 *
 * - settings: one row per tenant (spec §3 NPS settings); no row: the defaults (src/settings.ts).
 * - surveys: one per ticket close that asks (key: ticket + close time, so a close told twice
 *   asks once): who and where (contact, connection, the ticket's queue and user at the close,
 *   for the statistics), the scale it asked on, its state (src/flow.ts), the score and its
 *   group once answered, and when it was asked, answered or ended.
 * - replies: the contact's messages a survey took (the core's claimed-inbound id is the key:
 *   a message handed over twice is answered as the first time), with what they were.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-nps",
  async up(schema) {
    await schema.createTable("settings", {
      columns: {
        id: { type: "integer" },
        enabled: { type: "boolean" },
        scale: { type: "integer" },
        timeoutMinutes: { type: "integer" },
        requestMessage: { type: "text" },
        thanksMessage: { type: "text" },
        invalidMessage: { type: "text" },
        timeoutMessage: { type: "text" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("surveys", {
      columns: {
        id: { type: "integer" },
        ticketId: { type: "integer" },
        closedAt: { type: "bigint" },
        closedVia: { type: "string", length: 12 },
        contactId: { type: "integer" },
        connectionId: { type: "integer" },
        queueId: { type: "integer", nullable: true },
        userId: { type: "integer", nullable: true },
        scale: { type: "integer" },
        state: { type: "string", length: 12 },
        score: { type: "integer", nullable: true },
        npsGroup: { type: "string", length: 12, nullable: true },
        askedAt: { type: "bigint", nullable: true },
        expiresAt: { type: "bigint", nullable: true },
        answeredAt: { type: "bigint", nullable: true },
        endedAt: { type: "bigint", nullable: true },
        error: { type: "text", nullable: true },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["ticketId", "closedAt"], unique: true }, { columns: ["state"] }, { columns: ["contactId", "connectionId"] }],
    });
    await schema.createTable("replies", {
      columns: {
        inboundId: { type: "string", length: 191 },
        surveyId: { type: "integer" },
        body: { type: "text", nullable: true },
        outcome: { type: "string", length: 12 },
        at: { type: "bigint" },
      },
      primaryKey: ["inboundId"],
      indexes: [{ columns: ["surveyId"] }],
    });
  },
};
