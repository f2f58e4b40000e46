/**
 * The WhatsApp plugin's own tables (every row also carries tenantId, added and filled by the
 * host's tenant scope):
 *
 * - auth_sessions: one row per connection: the Baileys creds (BufferJSON text, null once wiped)
 *   and the fencing token of the node that owns the session (a node whose token is older may
 *   no longer write the session's state);
 * - auth_keys: every Signal key of the session by (type, id): pre-keys, sessions, sender keys,
 *   app-state keys and versions, LID mappings, device lists, tctokens, identity keys;
 * - lid_map: LID → phone-number JID pairs learnt from message keys, events and history;
 * - message_keys: messages seen or sent, by WhatsApp id: the key for replies, reactions,
 *   edits and deletes, and the content Baileys asks for when a recipient requests a retry;
 * - sent_log: what was sent per core message id (a send the core repeats is answered, not sent again).
 */
import type { PluginMigration } from "@openatende/plugin-sdk";

export const migration: PluginMigration = {
  name: "0001-sessions",
  async up(schema) {
    await schema.createTable("auth_sessions", {
      columns: {
        connectionId: { type: "integer" },
        creds: { type: "text", nullable: true },
        fence: { type: "bigint", default: 0 },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["connectionId"],
    });
    await schema.createTable("auth_keys", {
      columns: {
        connectionId: { type: "integer" },
        type: { type: "string", length: 32 },
        keyId: { type: "string", length: 191 },
        value: { type: "text" },
      },
      primaryKey: ["connectionId", "type", "keyId"],
    });
    await schema.createTable("lid_map", {
      columns: {
        connectionId: { type: "integer" },
        lid: { type: "string", length: 128 },
        pn: { type: "string", length: 128 },
        updatedAt: { type: "bigint" },
      },
      primaryKey: ["connectionId", "lid"],
    });
    await schema.createTable("message_keys", {
      columns: {
        connectionId: { type: "integer" },
        messageId: { type: "string", length: 128 },
        keyJson: { type: "text" },
        content: { type: "text", nullable: true },
        /** Days since the epoch of the message: old rows are pruned by whole days. */
        day: { type: "integer" },
      },
      primaryKey: ["connectionId", "messageId"],
      indexes: [{ columns: ["connectionId", "day"] }],
    });
    await schema.createTable("sent_log", {
      columns: {
        connectionId: { type: "integer" },
        messageId: { type: "bigint" },
        digest: { type: "string", length: 32 },
        providerMessageId: { type: "string", length: 128 },
        timestamp: { type: "bigint" },
      },
      primaryKey: ["connectionId", "messageId", "digest"],
    });
  },
};
