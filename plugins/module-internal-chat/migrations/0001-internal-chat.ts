/**
 * The internal chat's own tables (every row also carries tenantId, added and filled by the
 * host's tenant scope):
 *
 * - conversations: a one-to-one chat (kind "direct", `pairKey` "<smaller user id>:<larger>",
 *   unique) or a group (kind "group": name, image, active). `lastSeq` counts its messages:
 *   each message takes the next number, written in the transaction that first writes this row
 *   (a row lock on MariaDB, the single writer on SQLite), so seqs are dense from 1 and history
 *   pages are plain seq ranges. The last message's kind, preview (its text or caption), author and time ride along for the
 *   conversation list.
 * - members: who is in a conversation, with the last seq they read (unread = lastSeq − lastReadSeq).
 * - messages: text, image (a stored file or an image URL) or audio (a stored file and its duration).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-internal-chat",
  async up(schema) {
    await schema.createTable("conversations", {
      columns: {
        id: { type: "integer" },
        kind: { type: "string", length: 8 },
        pairKey: { type: "string", length: 24, nullable: true },
        name: { type: "string", length: 100, nullable: true },
        imagePath: { type: "string", length: 400, nullable: true },
        imageUrl: { type: "string", length: 600, nullable: true },
        active: { type: "boolean", default: true },
        lastSeq: { type: "integer", default: 0 },
        lastPreview: { type: "string", length: 191, nullable: true },
        lastKind: { type: "string", length: 8, nullable: true },
        lastUserId: { type: "integer", nullable: true },
        lastMessageAt: { type: "bigint", default: 0 },
        touchedAt: { type: "bigint", default: 0 },
        createdAt: { type: "bigint" },
      },
      primaryKey: ["id"],
      indexes: [{ columns: ["pairKey"], unique: true }, { columns: ["kind"] }],
    });
    await schema.createTable("members", {
      columns: {
        conversationId: { type: "integer" },
        userId: { type: "integer" },
        lastReadSeq: { type: "integer", default: 0 },
      },
      primaryKey: ["conversationId", "userId"],
      indexes: [{ columns: ["userId"] }],
    });
    await schema.createTable("messages", {
      columns: {
        conversationId: { type: "integer" },
        seq: { type: "integer" },
        userId: { type: "integer" },
        kind: { type: "string", length: 8 },
        body: { type: "text", nullable: true },
        mediaUrl: { type: "string", length: 2048, nullable: true },
        mediaPath: { type: "string", length: 400, nullable: true },
        mimeType: { type: "string", length: 120, nullable: true },
        fileName: { type: "string", length: 255, nullable: true },
        size: { type: "integer", nullable: true },
        durationMs: { type: "integer", nullable: true },
        createdAt: { type: "bigint" },
      },
      primaryKey: ["conversationId", "seq"],
    });
  },
};
