import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * The outbox keeps more than new messages: an edit, a reaction or a deletion of a message
 * already sent, made while its channel plugin was away, waits there too and goes out when the
 * plugin is back. `op` says which ("send" for the rows of before); one row per message and
 * operation (a second edit while away replaces the first).
 */
export const m0013: Migration = {
  name: "0013-outbox-operations",
  async up(qi) {
    await qi.addColumn("message_outbox", "op", { type: DataTypes.STRING(16), allowNull: false, defaultValue: "send" });
    await qi.removeIndex("message_outbox", "message_outbox_message");
    await qi.addIndex("message_outbox", ["messageId", "op"], { unique: true, name: "message_outbox_message_op" });
  },
  async down(qi) {
    await qi.sequelize.query("DELETE FROM message_outbox WHERE op <> 'send'");
    await qi.removeIndex("message_outbox", "message_outbox_message_op");
    await qi.addIndex("message_outbox", ["messageId"], { unique: true, name: "message_outbox_message" });
    await qi.removeColumn("message_outbox", "op");
  },
};
