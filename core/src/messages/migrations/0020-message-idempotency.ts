import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * A plugin's send may carry an idempotency key (a scheduled message's occurrence, a campaign's
 * contact): the key is stored on the message it made, unique per tenant, so a retry or a
 * restart that sends again with the same key gets the first message back instead of a second
 * one. NULL on every other message (a unique index allows any number of NULLs). The key is
 * `<plugin id>:<the plugin's key>` (at most 191 characters, the index's limit in utf8mb4).
 */
export const m0020: Migration = {
  name: "0020-message-idempotency",
  async up(qi) {
    await qi.addColumn("messages", "idempotencyKey", { type: DataTypes.STRING(191), allowNull: true });
    await qi.addIndex("messages", ["tenantId", "idempotencyKey"], { name: "messages_tenant_idempotency", unique: true });
  },
  async down(qi) {
    await qi.removeIndex("messages", "messages_tenant_idempotency");
    await qi.removeColumn("messages", "idempotencyKey");
  },
};
