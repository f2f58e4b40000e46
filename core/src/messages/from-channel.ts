import { Op, UniqueConstraintError } from "sequelize";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import type { TicketRow } from "../tickets/model";
import { hotQuery, sqlDateTime } from "../db/sql";
import { mediaTypeOf, StoredFile } from "../files/store";
import type { AckStatus, InboundMessage, MessageChange } from "@openatende/plugin-sdk/src/channel-contract";
import { ACK_STATUSES } from "@openatende/plugin-sdk/src/channel-contract";
import { emitMessage, FAILABLE, Message, MessageRow, MessageStatus, Participant, Reaction, STATUS_RANK, view } from "./model";
import { call } from "../bus/call";

/**
 * The messages service's side of what channels report (channels.inbound, .ack, .change): a
 * message stored once per provider id, statuses that only move forward, and changes made on
 * the channel (reactions, edits, deletions) applied idempotently. Each is keyed by
 * (tenant, connection, provider id), so no tenant reaches another's messages.
 */
export function channelMessageActions(deps: CoreDeps, model: typeof Message) {
  const cols = ["tenantId", "ticketId", "contactId", "connectionId", "providerId", "fromMe", "body", "mediaType", "media", "status", "quotedMsgId", "reactions", "participant", "isEdited", "isDeleted", "isForwarded", "read", "providerTs", "createdAt", "updatedAt"];
  const q = (c: string) => (deps.sequelize.getDialect() === "mysql" ? `\`${c}\`` : `"${c}"`);
  const insertSql = `INSERT INTO messages (${cols.map(q).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`;

  type InboundRow = Pick<MessageRow, "tenantId" | "ticketId" | "contactId" | "providerId" | "fromMe" | "body" | "mediaType" | "media" | "status" | "quotedMsgId" | "participant" | "read" | "providerTs"> & { connectionId: number };

  /** One INSERT of an inbound message, the columns as the model writes them; answers its id. */
  async function insertInbound(r: InboundRow, at: Date): Promise<number> {
    const stamp = sqlDateTime(deps.sequelize, at);
    const { insertId } = await hotQuery(deps.sequelize, "write", insertSql, [
      r.tenantId,
      r.ticketId,
      r.contactId,
      r.connectionId,
      r.providerId,
      r.fromMe ? 1 : 0,
      r.body,
      r.mediaType,
      r.media ? JSON.stringify(r.media) : null,
      r.status,
      r.quotedMsgId,
      null,
      r.participant ? JSON.stringify(r.participant) : null,
      0,
      0,
      0,
      r.read ? 1 : 0,
      r.providerTs,
      stamp,
      stamp,
    ]);
    return insertId;
  }

  const byProvider = (tenantId: number, connectionId: number, providerId: string) => model.findOne({ where: { tenantId, connectionId, providerId } });

  async function ticketOf(ctx: Ctx, m: Message): Promise<TicketRow | null> {
    return await call(ctx, "tickets.getInternal", { tenantId: m.get("tenantId") as number, id: m.get("ticketId") as number });
  }

  /** The row a change leaves, or null when the change is already there (or cannot apply). */
  function changed(row: MessageRow, change: MessageChange): Partial<MessageRow> | null {
    switch (change.type) {
      case "reaction": {
        if (row.isDeleted) return null;
        const others = (row.reactions ?? []).filter((r) => r.by !== change.by);
        const reactions: Reaction[] = change.emoji ? [...others, { by: change.by, emoji: change.emoji, ...(change.fromMe ? { fromMe: true } : {}) }] : others;
        return JSON.stringify(reactions) === JSON.stringify(row.reactions ?? []) ? null : { reactions };
      }
      case "edit":
        if (row.isDeleted || (row.isEdited && row.body === change.body)) return null;
        return { body: change.body, isEdited: true };
      case "delete":
        // The text stays in the row, for the record; nobody is shown it (view()).
        return row.isDeleted ? null : { isDeleted: true };
    }
  }

  return {
    /**
     * Stores an inbound message once per provider id; answers whether it was a duplicate.
     * One INSERT (the unique provider key tells a replay); the answer is built from what
     * was written, as the model would have answered it. A message written from the account's
     * own phone (`fromMe`) is an agent's message without a user, already sent; an imported
     * one is already read.
     */
    storeInbound: {
      visibility: "public" as const,
      async handler(ctx: Ctx<{ msg: InboundMessage; ticket: Pick<TicketRow, "id">; contactId: number; media?: StoredFile & { url?: string } }>) {
        const { msg, ticket, contactId, media } = ctx.params;
        const now = new Date();
        const quoted = msg.replyToProviderId ? await model.findOne({ where: { tenantId: msg.tenantId, connectionId: msg.connectionId, providerId: msg.replyToProviderId }, attributes: ["id"] }) : null;
        const participant: Participant | null = msg.participant && !msg.fromMe ? { ...msg.participant } : null;
        const row: InboundRow = {
          tenantId: msg.tenantId,
          ticketId: ticket.id,
          contactId,
          connectionId: msg.connectionId,
          providerId: msg.providerMessageId,
          fromMe: !!msg.fromMe,
          body: msg.body ?? null,
          mediaType: media ? mediaTypeOf(media.mimeType) : msg.location ? "location" : msg.contactCard ? "contact" : null,
          media: media ?? null,
          status: (msg.fromMe ? "sent" : "received") as MessageStatus,
          providerTs: msg.timestamp,
          quotedMsgId: quoted ? Number(quoted.get("id")) : null,
          participant,
          read: !!msg.fromMe || !!msg.imported,
        };
        try {
          const id = await insertInbound(row, now);
          return {
            duplicate: false,
            message: view({ ...row, id, userId: null, failReason: null, reactions: [], isEdited: false, isDeleted: false, isForwarded: false, createdAt: now, updatedAt: now }),
          };
        } catch (err) {
          if (err instanceof UniqueConstraintError) {
            const existing = await byProvider(msg.tenantId, msg.connectionId, msg.providerMessageId);
            return { duplicate: true, message: existing ? view(existing) : null };
          }
          throw err;
        }
      },
    },

    findByProvider: {
      visibility: "public" as const,
      // `slim`: the id and ticket only (the replay check of an inbound message).
      params: { tenantId: "number", connectionId: "number", providerId: "string", slim: { type: "boolean", optional: true } },
      async handler(ctx: Ctx<{ tenantId: number; connectionId: number; providerId: string; slim?: boolean }>) {
        if (ctx.params.slim) {
          const { rows } = await hotQuery<{ id: number | string; ticketId: number }>(deps.sequelize, "select", "SELECT id, ticketId FROM messages WHERE tenantId = ? AND connectionId = ? AND providerId = ? LIMIT 1", [
            ctx.params.tenantId,
            ctx.params.connectionId,
            ctx.params.providerId,
          ]);
          return rows[0] ? { id: Number(rows[0].id), ticketId: Number(rows[0].ticketId) } : null;
        }
        const m = await byProvider(ctx.params.tenantId, ctx.params.connectionId, ctx.params.providerId);
        return m ? (m.get({ plain: true }) as MessageRow) : null;
      },
    },

    /**
     * A delivery report of a message the platform sent (or the account's phone did). The
     * status moves forward only (sent < delivered < read < played) and "failed" is believed
     * only while no device acknowledged it; the UPDATE itself carries that rule, so acks
     * racing each other (a group's receipts: the furthest any member reached) never move it
     * back. Null when the message is unknown, or not one of ours.
     */
    applyAck: {
      visibility: "public" as const,
      params: { tenantId: "number", connectionId: "number", providerId: "string", status: { type: "enum", values: [...ACK_STATUSES] }, reason: { type: "string", optional: true } },
      async handler(ctx: Ctx<{ tenantId: number; connectionId: number; providerId: string; status: AckStatus; reason?: string }>) {
        const m = await byProvider(ctx.params.tenantId, ctx.params.connectionId, ctx.params.providerId);
        if (!m || !m.get("fromMe")) return null;
        const next = ctx.params.status;
        const from = next === "failed" ? [...FAILABLE] : [...Object.keys(STATUS_RANK).filter((s) => STATUS_RANK[s] < STATUS_RANK[next]), "failed"];
        // A status the message is already at or past (a replayed or late report) changes nothing: not written.
        if (!from.includes(m.get("status") as string)) return view(m);
        const patch: Partial<MessageRow> = { status: next, failReason: next === "failed" ? (ctx.params.reason ?? "failed").slice(0, 255) : null };
        // Whole seconds: what a DATETIME column keeps, so the answer below is what a read would give.
        const updatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
        const [n] = await model.update({ ...patch, updatedAt }, { where: { id: m.get("id") as number, tenantId: ctx.params.tenantId, status: { [Op.in]: from } }, silent: true });
        if (!n) return view(m);
        // The row as the update left it: only these columns changed (the status guard held), so it is not read again.
        const after = view({ ...(m.get({ plain: true }) as MessageRow), ...patch, updatedAt });
        const ticket = await ticketOf(ctx, m);
        if (ticket) await emitMessage(ctx, ticket, "update", after);
        return after;
      },
    },

    /**
     * A change made on the channel to a stored message: a reaction (one per reactor; "" takes
     * it away), an edit, a deletion by its sender. The same change twice leaves the same
     * message and tells nobody twice. Null when the message is unknown; `changed: false` when
     * there was nothing to do (already so, or a deleted message's reaction or edit).
     */
    applyChange: {
      visibility: "public" as const,
      params: { tenantId: "number", connectionId: "number", providerId: "string", change: "object" },
      async handler(ctx: Ctx<{ tenantId: number; connectionId: number; providerId: string; change: MessageChange }>) {
        const { tenantId, connectionId, providerId, change } = ctx.params;
        // The row is locked while read and written: two reactors at once both stay.
        const out = await deps.sequelize.transaction(async (transaction) => {
          const lock = deps.sequelize.getDialect() === "mysql" ? transaction.LOCK.UPDATE : undefined;
          const m = await model.findOne({ where: { tenantId, connectionId, providerId }, transaction, lock });
          if (!m) return null;
          const patch = changed(m.get({ plain: true }) as MessageRow, change);
          if (patch) await m.update(patch, { transaction });
          return { m, changed: !!patch };
        });
        if (!out) return null;
        if (out.changed) {
          const ticket = await ticketOf(ctx, out.m);
          if (ticket) await emitMessage(ctx, ticket, "update", view(out.m));
        }
        return { message: view(out.m), changed: out.changed };
      },
    },
  };
}
