import type { Migration } from "./types";

/** tickets, ticket_logs, ticket_notes, messages (tickets and messages services). */
export const m0007: Migration = {
  name: "0007-tickets-messages",
  async up() {
    /* tables arrive with their services */
  },
  async down() {
    /* nothing yet */
  },
};
