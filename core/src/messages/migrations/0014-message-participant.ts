import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * Channel contract 1.1: a group message records the member who wrote it (JSON
 * `{ externalId, name?, phone? }`), since the message's contact is the group itself. NULL on
 * every other message. The status column (12 characters) already fits "played".
 */
export const m0014: Migration = {
  name: "0014-message-participant",
  async up(qi) {
    await qi.addColumn("messages", "participant", { type: DataTypes.TEXT, allowNull: true });
  },
  async down(qi) {
    await qi.removeColumn("messages", "participant");
  },
};
