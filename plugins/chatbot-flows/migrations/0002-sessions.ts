/**
 * The flow engine's tables (every row also carries tenantId, added and filled by the host):
 *
 * - sessions: one conversation of a flow with a ticket (a "run" on the flow's runs page). While
 *   it may still act on its ticket, `liveTicketId` is the ticket's id, unique, so a ticket never
 *   has two live sessions (NULLs do not clash: ended sessions keep theirs NULL). `at` is the
 *   node (chat) or step (auto-reply) it waits at, `wait` what for (an answer, a delay's end, a
 *   closure answer on a new ticket), `waitDue` when its timer for that is due (the scheduler's time:
 *   a timer's job acts only if it is still the session's current one). `version` and `busyUntil` serialise its turns: a turn claims
 *   the row by a compare-and-set on `version` and holds it until `busyUntil` (so a node that died
 *   mid-turn does not keep it). `seen` holds the ids of the last inbound messages handled (a
 *   repeated delivery does nothing).
 * - run_steps: each node visit of a session, in order (`seq`), with its run state (running,
 *   success, warning, error) and a short detail.
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0002-sessions",
  async up(schema) {
    await schema.createTable("sessions", {
      columns: {
        id: { type: "integer" },
        ticketId: { type: "integer" },
        liveTicketId: { type: "integer", nullable: true },
        flowId: { type: "integer" },
        kind: { type: "string", length: 8 },
        contactId: { type: "integer" },
        connectionId: { type: "integer", nullable: true },
        contactName: { type: "string", length: 191, default: "" },
        status: { type: "string", length: 10 },
        at: { type: "string", length: 100, nullable: true },
        wait: { type: "string", length: 8, nullable: true },
        resume: { type: "integer", default: 0 },
        waitDue: { type: "bigint", default: 0 },
        attempts: { type: "integer", default: 0 },
        vars: { type: "json" },
        lastText: { type: "text", nullable: true },
        seen: { type: "json" },
        stepSeq: { type: "integer", default: 0 },
        openStep: { type: "integer", default: -1 },
        version: { type: "integer", default: 0 },
        busyUntil: { type: "bigint", default: 0 },
        startedAt: { type: "bigint" },
        endedAt: { type: "bigint", nullable: true },
      },
      primaryKey: ["id"],
      indexes: [
        { columns: ["liveTicketId"], unique: true },
        { columns: ["ticketId", "startedAt"] },
        { columns: ["flowId", "startedAt"] },
        { columns: ["flowId", "status"] },
        { columns: ["contactId", "status"] },
      ],
    });
    await schema.createTable("run_steps", {
      columns: {
        sessionId: { type: "integer" },
        seq: { type: "integer" },
        nodeId: { type: "string", length: 100 },
        state: { type: "string", length: 8 },
        detail: { type: "string", length: 255, nullable: true },
        at: { type: "bigint" },
      },
      primaryKey: ["sessionId", "seq"],
    });
  },
};
