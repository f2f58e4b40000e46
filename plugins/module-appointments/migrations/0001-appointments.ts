/**
 * The module's own tables (every row also carries tenantId, added and filled by the host's
 * tenant scope):
 *
 * - appointments: one appointment (spec §3): who, where, when (`startAt`, `endAt` = start +
 *   duration, epoch ms), the service, the message and what goes with it (template, complementary
 *   message, attachment, close-ticket flag), its reminders, and what happened (status, error,
 *   the ticket its message went through).
 * - services: the catalogue (spec §3 Service): name, description, duration in minutes, price in
 *   cents, the users who provide it.
 * - sends: one row per send done (the appointment's message, or a reminder, at a due time): a
 *   job delivered again finds it and sends nothing (see src/firing.ts).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-appointments",
  async up(schema) {
    await schema.createTable("appointments", {
      columns: {
        id: { type: "integer" },
        contactId: { type: "integer" },
        connectionId: { type: "integer" },
        userId: { type: "integer" },
        serviceId: { type: "integer" },
        startAt: { type: "bigint" },
        endAt: { type: "bigint" },
        duration: { type: "integer" },
        message: { type: "text" },
        closeTicket: { type: "boolean", default: false },
        template: { type: "json", nullable: true },
        complementaryMessage: { type: "text", nullable: true },
        attachment: { type: "json", nullable: true },
        reminders: { type: "json" },
        status: { type: "string", length: 12 },
        errorMessage: { type: "text", nullable: true },
        ticketId: { type: "integer", nullable: true },
        createdBy: { type: "integer" },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["userId"] }, { columns: ["startAt"] }, { columns: ["serviceId"] }],
    });
    await schema.createTable("services", {
      columns: {
        id: { type: "integer" },
        name: { type: "string", length: 120 },
        description: { type: "text" },
        duration: { type: "integer" },
        priceCents: { type: "bigint" },
        users: { type: "json" },
        createdAt: { type: "bigint" },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["id"],
    });
    await schema.createTable("sends", {
      columns: {
        appointmentId: { type: "integer" },
        kind: { type: "string", length: 40 },
        dueAt: { type: "bigint" },
        state: { type: "string", length: 12 },
        ticketId: { type: "integer", nullable: true },
        error: { type: "text", nullable: true },
        at: { type: "bigint" },
      },
      primaryKey: ["appointmentId", "kind", "dueAt"],
    });
  },
};
