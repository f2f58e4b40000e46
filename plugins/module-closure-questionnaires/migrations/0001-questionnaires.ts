/**
 * The closure questionnaires' own tables (every row also carries tenantId, added and filled by
 * the host's tenant scope):
 *
 * - questionnaires: name, description, active, and its ordered questions as one JSON list
 *   (a questionnaire is read and written whole; answers refer to a question by its id).
 * - answers: what was answered for a ticket, one row per ticket and questionnaire (answering
 *   again replaces it), with the ticket's queue, who answered and when.
 * - skips: a close that did not ask (mass resolve, automatic close, a plugin's close) of a
 *   ticket the questionnaire applied to, one row per ticket.closed event and questionnaire
 *   (the event's id: a repeated delivery writes the same row).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-questionnaires",
  async up(schema) {
    await schema.createTable("questionnaires", {
      columns: {
        id: { type: "integer" },
        name: { type: "string", length: 120 },
        description: { type: "text" },
        active: { type: "boolean" },
        questions: { type: "json" },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("answers", {
      columns: {
        ticketId: { type: "integer" },
        questionnaireId: { type: "integer" },
        queueId: { type: "integer", nullable: true },
        userId: { type: "integer", nullable: true },
        answers: { type: "json" },
        answeredAt: { type: "bigint" },
      },
      primaryKey: ["ticketId", "questionnaireId"],
      indexes: [{ columns: ["questionnaireId", "answeredAt"] }],
    });
    await schema.createTable("skips", {
      columns: {
        eventId: { type: "string", length: 100 },
        questionnaireId: { type: "integer" },
        ticketId: { type: "integer" },
        queueId: { type: "integer", nullable: true },
        via: { type: "string", length: 12 },
        at: { type: "bigint" },
      },
      primaryKey: ["eventId", "questionnaireId"],
      indexes: [{ columns: ["questionnaireId", "at"] }, { columns: ["ticketId"] }],
    });
  },
};
