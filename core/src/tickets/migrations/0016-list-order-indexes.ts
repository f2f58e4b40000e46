import type { Migration } from "../../db/migration";

/**
 * The attendance list read oldest activity first (GET /tickets?orderBy=oldest): pinned and
 * unread still first, then lastMessageAt and id ascending. The list indexes hold the sort
 * keys all ascending, which a scan in either direction cannot give in that mixed order, so
 * each way a ticket is visible — (status), (status, queue), (status, user) — gets the same
 * index with pinned and hasUnread descending, read forward in list order (see
 * core/src/tickets/list-query.ts).
 */
const INDEXES: Array<[string, string[]]> = [
  ["tickets_list_all_oldest", ["tenantId", "status"]],
  ["tickets_list_queue_oldest", ["tenantId", "status", "queueId"]],
  ["tickets_list_user_oldest", ["tenantId", "status", "userId"]],
];

export const m0016: Migration = {
  name: "0016-list-order-indexes",
  async up(qi) {
    for (const [name, prefix] of INDEXES) {
      await qi.addIndex("tickets", { name, fields: [...prefix, { name: "pinned", order: "DESC" }, { name: "hasUnread", order: "DESC" }, "lastMessageAt", "id"] });
    }
  },
  async down(qi) {
    for (const [name] of INDEXES) await qi.removeIndex("tickets", name);
  },
};
