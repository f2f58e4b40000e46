import type { Migration } from "../../db/migration";

/**
 * The unread-only ticket list over several statuses (the default tab is open + pending) as
 * one index range in list order: (tenantId, hasUnread, pinned, lastMessageAt, id) with the
 * status inside the index, so the statuses are checked without reading rows and without
 * merging a branch per status (see core/src/tickets/list-query.ts).
 */
export const m0009: Migration = {
  name: "0009-list-indexes",
  async up(qi) {
    await qi.addIndex("tickets", ["tenantId", "hasUnread", "pinned", "lastMessageAt", "id", "status"], { name: "tickets_list_unread" });
  },
  async down(qi) {
    await qi.removeIndex("tickets", "tickets_list_unread");
  },
};
