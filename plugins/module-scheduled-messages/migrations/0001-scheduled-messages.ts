/**
 * The module's own tables (every row also carries tenantId, added and filled by the host's
 * tenant scope):
 *
 * - messages: one scheduled message (spec §3): its text, who and where it goes to, when
 *   (`scheduleDate`, the first send and the anchor of its recurrence), the recurrence, and what
 *   happened so far (status, sent count, last sent, next date, the last error). `ticketId` is
 *   the ticket it was scheduled from in the chat (null from /mensagem-agendadas).
 * - sends: the ledger of occurrences, one row per (message, due time), written before the
 *   core is asked to send and completed after: a retried or restarted job finds it and never
 *   sends that occurrence again (see src/firing.ts).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-scheduled-messages",
  async up(schema) {
    await schema.createTable("messages", {
      columns: {
        id: { type: "integer" },
        body: { type: "text" },
        status: { type: "string", length: 12 },
        type: { type: "string", length: 12 },
        recurrence: { type: "string", length: 12, nullable: true },
        customDays: { type: "json", nullable: true },
        recurrentUntil: { type: "bigint", nullable: true },
        timeZone: { type: "string", length: 64 },
        contactId: { type: "integer" },
        connectionId: { type: "integer" },
        userId: { type: "integer" },
        ticketId: { type: "integer", nullable: true },
        scheduleDate: { type: "bigint" },
        nextAt: { type: "bigint", nullable: true },
        sentCount: { type: "integer", default: 0 },
        lastSentAt: { type: "bigint", nullable: true },
        errorMessage: { type: "text", nullable: true },
        createdBy: { type: "integer" },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["status"] }, { columns: ["ticketId"] }, { columns: ["contactId"] }],
    });
    await schema.createTable("sends", {
      columns: {
        messageId: { type: "integer" },
        dueAt: { type: "bigint" },
        state: { type: "string", length: 12 },
        ticketId: { type: "integer", nullable: true },
        sentMessageId: { type: "integer", nullable: true },
        error: { type: "text", nullable: true },
        startedAt: { type: "bigint" },
        finishedAt: { type: "bigint", nullable: true },
      },
      primaryKey: ["messageId", "dueAt"],
    });
  },
};
