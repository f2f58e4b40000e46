import * as fs from "node:fs";
import { Op, UniqueConstraintError } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import type { TicketRow } from "../tickets/model";
import { mediaTypeOf, resolveStored, storeFiles, StoredFile, UploadedFile } from "../files/store";
import { isPluginAway, reasonOf } from "../channels/outbox";
import { defineMessage, emitMessage, Message, MessageRow, STATUS_RANK, view } from "./model";
import { channelMessageActions } from "./from-channel";
import type { OutboundMessage, SendResult } from "@openatende/plugin-sdk/src/channel-contract";

/** Spec §9: deleting a message is possible for 5 minutes; at most 10 messages are forwarded at once. */
export const DELETE_WINDOW_MS = 5 * 60 * 1000;
export const MAX_FORWARD = 10;
/** Read receipts handed to a channel when the holder opens a ticket: the newest unread only. */
export const MAX_RECEIPTS = 100;
export type { MessageRow };

/** Why a connection's plugin may not be used now (plugins.channelFor with a tenant): its sends are refused as ERR_CONNECTION_INACTIVE. */
const STOPPED_BY = ["ERR_PLUGIN_NOT_ALLOWED", "ERR_PLUGIN_DISABLED", "ERR_LICENSE_TIER_REQUIRED", "ERR_PLUGIN_VERSION_UNAVAILABLE"];

const ticketIdParam = { ticketId: { type: "number", integer: true, positive: true, convert: true } };
const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
const mediaItem = {
  type: "object",
  strict: "remove",
  props: { fileName: { type: "string", min: 1, max: 255 }, mimeType: { type: "string", min: 3, max: 120 }, data: { type: "string", min: 1 } },
};

/**
 * Messages of tickets: stored once per provider id (a replay stores nothing and emits
 * nothing), ordered by provider timestamp then id, sent through the connection's channel
 * plugin. A send that fails is kept with status "failed" and the reason, never lost.
 */
export function createMessagesService(deps: CoreDeps): ServiceSchema {
  const model = defineMessage(deps.sequelize);
  async function channelService(ctx: Ctx, connectionId: number | null): Promise<{ service: string; connection: { id: number; tenantId: number; type: string }; receipts?: boolean }> {
    if (!connectionId) throw new AppError("ERR_NO_DEFAULT_CONNECTION");
    const connection = (await ctx.call("connections.getInternal", { id: connectionId })) as { id: number; tenantId: number; type: string; status: string; pluginMajor?: number | null } | null;
    if (!connection) throw new AppError("ERR_CONNECTION_NOT_FOUND");
    // The connection's own major, and only while the tenant may use the plugin.
    const plugin = (await ctx.call("plugins.channelFor", { type: connection.type, tenantId: connection.tenantId, major: connection.pluginMajor ?? undefined }).catch((err: { type?: string }) => {
      if (err.type && STOPPED_BY.includes(err.type)) throw new AppError("ERR_CONNECTION_INACTIVE", { connectionId: connection.id, reason: err.type });
      throw err;
    })) as { service: string; receipts?: true };
    return { service: plugin.service, connection, receipts: plugin.receipts === true };
  }

  const emit = emitMessage;

  async function contactExternalId(ctx: Ctx, tenantId: number, contactId: number, connectionType: string): Promise<string> {
    const id = (await ctx.call("contacts.identityFor", { tenantId, contactId, channelType: connectionType })) as string | null;
    if (!id) throw new AppError("ERR_CONTACT_NUMBER_INVALID", { field: "contactId" });
    return id;
  }

  /** Hands the provider ids read to the connection's channel, when its plugin declares receipts. */
  async function sendReceipts(ctx: Ctx, ticket: TicketRow, connectionId: number, providerMessageIds: string[]): Promise<void> {
    const { service, connection, receipts } = await channelService(ctx, connectionId);
    if (!receipts || connection.tenantId !== ticket.tenantId) return;
    const externalId = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
    await ctx.call(`${service}.markRead`, { tenantId: ticket.tenantId, connectionId, to: { externalId }, providerMessageIds });
  }

  return {
    name: "messages",
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /messages/:ticketId",
        access: "user",
        resource: "tickets",
        params: { ...ticketIdParam, pageNumber: { type: "number", integer: true, min: 1, max: 100000, optional: true, convert: true }, pageSize: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true } },
        async handler(this: any, ctx: Ctx<{ ticketId: number; pageNumber?: number; pageSize?: number }>) {
          const ticket = (await ctx.call("tickets.visible", { id: ctx.params.ticketId, cached: true })) as TicketRow;
          const pageSize = ctx.params.pageSize ?? 30;
          const pageNumber = ctx.params.pageNumber ?? 1;
          // Newest page first, read along the (ticket, providerTs, id) index; answered oldest first.
          const rows = await model.findAll({
            where: { tenantId: ticket.tenantId, ticketId: ticket.id },
            order: [["providerTs", "DESC"], ["id", "DESC"]],
            limit: pageSize + 1,
            offset: (pageNumber - 1) * pageSize,
          });
          const hasMore = rows.length > pageSize;
          const page = rows.slice(0, pageSize).reverse();
          // Read by the agent who holds the ticket; an admin or supervisor looking in leaves it unread for them.
          // Accepting a ticket zeroes its count but reads no message: the page tells what is still unread.
          const unreadOnPage = page.some((m) => !m.get("fromMe") && !m.get("read"));
          if (pageNumber === 1 && (ticket.unreadMessages > 0 || unreadOnPage) && ticket.userId === ctx.meta.user!.id) {
            const unread = await model.findAll({
              attributes: ["connectionId", "providerId"],
              where: { tenantId: ticket.tenantId, ticketId: ticket.id, read: false, fromMe: false, providerId: { [Op.ne]: null }, connectionId: { [Op.ne]: null } },
              order: [["providerTs", "DESC"], ["id", "DESC"]],
              limit: MAX_RECEIPTS,
            });
            if (ticket.unreadMessages > 0) await ctx.call("tickets.markRead", { tenantId: ticket.tenantId, ticketId: ticket.id });
            await model.update({ read: true }, { where: { tenantId: ticket.tenantId, ticketId: ticket.id, read: false, fromMe: false } });
            // The customer's blue ticks: best effort, never awaited, never failing the list.
            const byConnection = new Map<number, string[]>();
            for (const r of unread) {
              const { connectionId, providerId } = r.get() as MessageRow;
              byConnection.set(connectionId!, [...(byConnection.get(connectionId!) ?? []), providerId!]);
            }
            for (const [connectionId, ids] of byConnection) {
              sendReceipts(ctx, ticket, connectionId, ids.reverse()).catch((err: Error & { type?: string }) => {
                this.logger.warn(`ticket ${ticket.id}: read receipts not handed to connection ${connectionId}: ${err.type ?? err.message}`);
              });
            }
          }
          return { messages: page.map(view), hasMore, pageNumber, ticket: { id: ticket.id, status: ticket.status } };
        },
      },

      send: {
        rest: "POST /messages/:ticketId",
        access: "user",
        resource: "tickets",
        params: {
          ...ticketIdParam,
          body: { type: "string", max: 65536, optional: true },
          quotedMsgId: { type: "number", integer: true, positive: true, optional: true, convert: true },
          medias: { type: "array", items: mediaItem, max: 10, optional: true },
        },
        async handler(this: any, ctx: Ctx<{ ticketId: number; body?: string; quotedMsgId?: number; medias?: UploadedFile[] }>) {
          const ticket = (await ctx.call("tickets.visible", { id: ctx.params.ticketId })) as TicketRow;
          const body = ctx.params.body?.trim() ?? "";
          const medias = ctx.params.medias ?? [];
          if (!body && !medias.length) throw new AppError("ERR_REQUIRED_BODY", { field: "body" });
          if (ticket.status === "closed") throw new AppError("ERR_TICKET_NOT_FOUND", { reason: "closed" });
          let quoted: MessageRow | null = null;
          if (ctx.params.quotedMsgId) {
            const q = await model.findOne({ where: { id: ctx.params.quotedMsgId, tenantId: ticket.tenantId, ticketId: ticket.id } });
            if (!q) throw new AppError("ERR_MESSAGE_NOT_FOUND", { field: "quotedMsgId" });
            quoted = q.get({ plain: true }) as MessageRow;
          }
          // A connection whose plugin the tenant may not use now takes nothing: refused before anything is stored.
          if (ticket.connectionId) {
            await channelService(ctx, ticket.connectionId).catch((err: { type?: string }) => {
              if (err.type === "ERR_CONNECTION_INACTIVE") throw err;
            });
          }
          const stored = medias.length ? storeFiles(deps.config.dataDir, ticket.tenantId, medias) : [];
          const out: Array<ReturnType<typeof view>> = [];
          if (stored.length) {
            for (let i = 0; i < stored.length; i++) {
              out.push(await this.sendOne(ctx, ticket, { body: i === 0 ? body : "", media: stored[i], quoted }));
            }
          } else out.push(await this.sendOne(ctx, ticket, { body, quoted }));
          ctx.meta.$statusCode = 201;
          return out.length === 1 ? out[0] : { messages: out };
        },
      },

      edit: {
        rest: "POST /messagesEdit/:id",
        access: "user",
        resource: "messages",
        params: { ...idParam, body: { type: "string", min: 1, max: 65536 } },
        async handler(this: any, ctx: Ctx<{ id: number; body: string }>) {
          const { msg, ticket } = await this.loadOwnedMessage(ctx, ctx.params.id);
          // Only one's own text messages: not the customer's, not another user's, not media.
          if (!msg.fromMe || msg.userId !== ctx.meta.user!.id || msg.mediaType || msg.isDeleted || msg.status === "failed") {
            throw new AppError("ERR_MESSAGE_EDIT_NOT_ALLOWED");
          }
          // Still waiting for its channel: the new text goes out instead (or, sent meanwhile, is edited there).
          const providerId = msg.providerId ?? (await this.reviseWaiting(ctx, msg, { body: ctx.params.body })).providerId;
          if (providerId) await this.relayChange(ctx, ticket, msg, "edit", { kind: "edit", targetProviderId: providerId, body: ctx.params.body });
          await model.update({ body: ctx.params.body, isEdited: true }, { where: { id: msg.id, tenantId: msg.tenantId } });
          const updated = view({ ...msg, body: ctx.params.body, isEdited: true });
          await emit(ctx, ticket, "update", updated);
          return updated;
        },
      },

      remove: {
        rest: "DELETE /messages/:id",
        access: "user",
        resource: "messages",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const { msg, ticket } = await this.loadOwnedMessage(ctx, ctx.params.id);
          if (!msg.fromMe) throw new AppError("ERR_NO_PERMISSION");
          if (Date.now() - new Date(msg.createdAt).getTime() > DELETE_WINDOW_MS) throw new AppError("ERR_MESSAGE_TOO_OLD_TO_DELETE");
          if (msg.isDeleted) return view(msg);
          // Still waiting for its channel: it never goes out (or, sent meanwhile, is deleted there).
          const waiting = msg.providerId ? null : await this.reviseWaiting(ctx, msg, { drop: true });
          const providerId = msg.providerId ?? waiting?.providerId ?? null;
          if (providerId) await this.relayChange(ctx, ticket, msg, "delete", { kind: "delete", targetProviderId: providerId });
          const patch: Partial<MessageRow> = waiting?.dropped ? { isDeleted: true, status: "failed", failReason: "deleted before it was sent" } : { isDeleted: true };
          await model.update(patch, { where: { id: msg.id, tenantId: msg.tenantId } });
          const updated = view({ ...msg, ...patch });
          await emit(ctx, ticket, "update", updated);
          return updated;
        },
      },

      react: {
        rest: "POST /messagesReaction/:id",
        access: "user",
        resource: "messages",
        params: { ...idParam, emoji: { type: "string", min: 1, max: 16 } },
        async handler(this: any, ctx: Ctx<{ id: number; emoji: string }>) {
          const { msg, ticket } = await this.loadOwnedMessage(ctx, ctx.params.id);
          if (msg.isDeleted) throw new AppError("ERR_MESSAGE_NOT_FOUND");
          if (msg.providerId) await this.relayChange(ctx, ticket, msg, "reaction", { kind: "reaction", targetProviderId: msg.providerId, emoji: ctx.params.emoji });
          const by = `user:${ctx.meta.user!.id}`;
          const reactions = [...(msg.reactions ?? []).filter((r: { by: string }) => r.by !== by), { by, emoji: ctx.params.emoji }];
          await model.update({ reactions }, { where: { id: msg.id, tenantId: msg.tenantId } });
          const updated = view({ ...msg, reactions });
          await emit(ctx, ticket, "update", updated);
          return updated;
        },
      },

      forward: {
        rest: "POST /forward-messages",
        access: "user",
        params: {
          messageIds: { type: "array", items: { type: "number", integer: true, positive: true }, min: 1 },
          contactId: { type: "number", integer: true, positive: true, convert: true },
          connectionId: { type: "number", integer: true, positive: true, convert: true, optional: true },
        },
        async handler(this: any, ctx: Ctx<{ messageIds: number[]; contactId: number; connectionId?: number }>) {
          if (ctx.params.messageIds.length > MAX_FORWARD) throw new AppError("ERR_FORWARD_LIMIT", { field: "messageIds", max: MAX_FORWARD });
          const tenantId = ctx.meta.user!.tenantId;
          const sources: MessageRow[] = [];
          for (const id of ctx.params.messageIds) {
            const { msg } = await this.loadOwnedMessage(ctx, id);
            // A deleted message's text is gone for everyone: it is not sent on.
            if (msg.isDeleted) throw new AppError("ERR_MESSAGE_NOT_FOUND", { id, reason: "deleted" });
            sources.push(msg);
          }
          sources.sort((a, b) => a.providerTs - b.providerTs || a.id - b.id);
          const connectionId = ctx.params.connectionId ?? sources[0].connectionId;
          const opened = (await ctx.call("tickets.create", { contactId: ctx.params.contactId, connectionId, status: "open" }, { meta: { ...ctx.meta, $api: false } }).catch(async (err: { type?: string; data?: { ticketId?: number } }) => {
            if (err.type === "ERR_CONTACT_OTHER_OPEN_TICKET" && err.data?.ticketId) return { id: err.data.ticketId };
            throw err;
          })) as { id: number };
          // The nested create answers 201 through the shared meta; a forward answers 200 whether or not it opened a ticket.
          ctx.meta.$statusCode = 200;
          const target = (await ctx.call("tickets.getInternal", { tenantId, id: opened.id })) as TicketRow;
          const out = [];
          for (const m of sources) {
            out.push(await this.sendOne(ctx, target, { body: m.body ?? "", media: m.media ?? undefined, forwarded: true }));
          }
          return { ticketId: target.id, messages: out };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      ...channelMessageActions(deps, model),
      /** The outcome of a message that waited in the outbox (outbox service): recorded and shown. */
      settle: {
        visibility: "public",
        params: {
          tenantId: { type: "number", integer: true, positive: true },
          id: { type: "number", integer: true, positive: true },
          status: { type: "enum", values: ["sent", "failed"] },
          providerId: { type: "string", optional: true, max: 191 },
          failReason: { type: "string", optional: true, max: 255 },
        },
        async handler(this: any, ctx: Ctx<{ tenantId: number; id: number; status: "sent" | "failed"; providerId?: string; failReason?: string }>) {
          const m = await model.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
          if (!m) return null;
          const patch: Partial<MessageRow> =
            ctx.params.status === "sent" ? { providerId: ctx.params.providerId ?? null } : { failReason: (ctx.params.failReason ?? "send failed").slice(0, 255) };
          // An ack may have moved it on already (delivered, read): the status only moves forward.
          if (m.get("status") === "pending") patch.status = ctx.params.status;
          await this.recordSend(ctx, m, patch);
          const ticket = (await ctx.call("tickets.getInternal", { tenantId: ctx.params.tenantId, id: m.get("ticketId") })) as TicketRow | null;
          if (ticket) await emit(ctx, ticket, "update", view(m));
          return view(m);
        },
      },
      moveContact: {
        visibility: "public",
        params: { tenantId: "number", fromContactId: "number", toContactId: "number" },
        async handler(ctx: Ctx<{ tenantId: number; fromContactId: number; toContactId: number }>) {
          const [n] = await model.update({ contactId: ctx.params.toContactId }, { where: { tenantId: ctx.params.tenantId, contactId: ctx.params.fromContactId } });
          return n;
        },
      },
      removeForTicket: {
        visibility: "public",
        params: { tenantId: "number", ticketId: "number" },
        async handler(this: any, ctx: Ctx<{ tenantId: number; ticketId: number }>) {
          const { tenantId, ticketId } = ctx.params;
          const withMedia = await model.findAll({ where: { tenantId, ticketId, media: { [Op.ne]: null } }, attributes: ["media"] });
          const files = [...new Set(withMedia.map((m) => (m.get("media") as StoredFile | null)?.path).filter((p): p is string => !!p))];
          const removed = await model.destroy({ where: { tenantId, ticketId } });
          // Their files go too, unless a message elsewhere (a forwarded copy) still shows them.
          for (const file of files) {
            try {
              // LIKE's _ matches any one character: at worst a file is kept, never one removed in use.
              const still = await model.count({ where: { tenantId, media: { [Op.like]: `%"path":${JSON.stringify(file)}%` } } as never });
              if (!still) fs.rmSync(resolveStored(deps.config.dataDir, tenantId, file), { force: true });
            } catch (err) {
              this.logger.warn(`ticket ${ticketId}: media file ${file} not removed: ${(err as Error).message}`);
            }
          }
          return removed;
        },
      },
    },
    methods: {
      /**
       * Records what a send answered (its provider id, its status). A channel may report the
       * platform's own send back as written on the account's phone (fromMe, no user) before
       * this answer is recorded, and that echo then holds the provider id: it is this very
       * message, so it goes (its furthest status kept) and this message takes the id. Another
       * message holding the id keeps it; only the status is recorded here.
       */
      async recordSend(ctx: Ctx, row: Message, patch: Partial<MessageRow>): Promise<void> {
        try {
          await row.update(patch);
          return;
        } catch (err) {
          if (!(err instanceof UniqueConstraintError)) throw err;
        }
        const mine = row.get({ plain: true }) as MessageRow;
        const echo = patch.providerId ? await model.findOne({ where: { tenantId: mine.tenantId, connectionId: mine.connectionId, providerId: patch.providerId } }) : null;
        const e = echo?.get({ plain: true }) as MessageRow | undefined;
        if (!echo || !e || !e.fromMe || e.userId !== null || e.ticketId !== mine.ticketId || e.id === mine.id) {
          if (patch.status) await row.update({ status: patch.status });
          return;
        }
        const status = patch.status ?? mine.status;
        const furthest = (STATUS_RANK[e.status] ?? -1) > (STATUS_RANK[status] ?? -1) ? e.status : status;
        await deps.sequelize.transaction(async (transaction) => {
          await echo.destroy({ transaction });
          await row.update({ ...patch, status: furthest }, { transaction });
        });
        const ticket = (await ctx.call("tickets.getInternal", { tenantId: mine.tenantId, id: mine.ticketId })) as TicketRow | null;
        if (ticket) await emit(ctx, ticket, "delete", view(e));
      },
      async loadOwnedMessage(ctx: Ctx, id: number): Promise<{ msg: MessageRow; ticket: TicketRow }> {
        const tenantId = ctx.meta.user!.tenantId;
        const m = await model.findOne({ where: { id, tenantId } });
        if (!m) throw new AppError("ERR_MESSAGE_NOT_FOUND", { id });
        const msg = m.get({ plain: true }) as MessageRow;
        let ticket: TicketRow;
        try {
          ticket = (await ctx.call("tickets.visible", { id: msg.ticketId })) as TicketRow;
        } catch {
          throw new AppError("ERR_MESSAGE_NOT_FOUND", { id });
        }
        return { msg, ticket };
      },
      /**
       * Hands a change of a message already sent (edit, reaction, deletion) to its channel. No
       * messageId: that keys the message's own send, which this is not. When the plugin is away
       * (or an earlier change of the message still waits), the change waits in the outbox and
       * goes out when the plugin is back; the platform shows it at once either way.
       */
      async relayChange(this: any, ctx: Ctx, ticket: TicketRow, msg: MessageRow, op: "edit" | "reaction" | "delete", message: OutboundMessage): Promise<void> {
        let away: unknown = null;
        try {
          if (await ctx.call("outbox.waits", { connectionId: msg.connectionId, messageId: msg.id })) away = "ERR_OUTBOX_WAITING";
          else {
            const { service, connection } = await channelService(ctx, msg.connectionId);
            const to = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
            await ctx.call(`${service}.send`, { tenantId: ticket.tenantId, connectionId: connection.id, to: { externalId: to }, message });
            return;
          }
        } catch (err) {
          if (!isPluginAway(err)) throw err;
          away = err;
        }
        await this.waitForChannel(ctx, ticket, msg.connectionId, msg.id, op, message, away);
      },
      /** Puts a send, or a change of a sent message, in the outbox until its channel plugin is back. */
      async waitForChannel(this: any, ctx: Ctx, ticket: TicketRow, connectionId: number, messageId: number, op: "send" | "edit" | "reaction" | "delete", message: OutboundMessage, away: unknown): Promise<void> {
        const connection = (await ctx.call("connections.getInternal", { id: connectionId })) as { id: number; type: string } | null;
        if (!connection) throw new AppError("ERR_CONNECTION_NOT_FOUND");
        const to = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
        const reason = reasonOf(away);
        await ctx.call("outbox.enqueue", { tenantId: ticket.tenantId, connectionId: connection.id, ticketId: ticket.id, messageId, op, payload: { to: { externalId: to }, message }, reason });
        this.logger.info(`message ${messageId}${op === "send" ? "" : ` (${op})`} waits for its channel (${reason})`);
      },
      /**
       * An edit or deletion of a message that has no provider id yet: while it waits in the
       * outbox, the waiting send is changed (new text) or dropped; when it is not waiting (the
       * outbox handed it over meanwhile) the provider id it got is answered, for the edit or
       * deletion to go to the channel.
       */
      async reviseWaiting(this: any, ctx: Ctx, msg: MessageRow, change: { body?: string; drop?: boolean }): Promise<{ dropped: boolean; providerId: string | null }> {
        if (!msg.connectionId || msg.status !== "pending") return { dropped: false, providerId: null };
        const r = (await ctx.call("outbox.revise", { connectionId: msg.connectionId, messageId: msg.id, ...change })) as { waiting: boolean | null; dropped?: boolean };
        if (r.waiting === null) throw new AppError("ERR_PLUGIN_UNAVAILABLE", { id: msg.id });
        if (r.waiting || r.dropped) return { dropped: !!r.dropped, providerId: null };
        const now = await model.findOne({ where: { id: msg.id, tenantId: msg.tenantId }, attributes: ["providerId"] });
        return { dropped: false, providerId: (now?.get("providerId") as string | null) ?? null };
      },
      /**
       * Hands an outgoing message to its channel plugin; answers what to record, or null when
       * it waits in the outbox (pending): its plugin is away (not running, its node lost
       * mid-call), or earlier messages of the connection wait there still, which it must not
       * overtake. The outbox service sends it when the plugin is back (see settle).
       */
      async handOver(this: any, ctx: Ctx, ticket: TicketRow, messageId: number, o: { body: string; media?: StoredFile & { url?: string }; quoted?: MessageRow | null }): Promise<Partial<MessageRow> | null> {
        const message: OutboundMessage = o.media
          ? { kind: "media", body: o.body || undefined, media: { path: o.media.path, url: o.media.url, mimeType: o.media.mimeType, fileName: o.media.fileName, size: o.media.size }, replyToProviderId: o.quoted?.providerId ?? undefined }
          : { kind: "text", body: o.body, replyToProviderId: o.quoted?.providerId ?? undefined };
        let away: unknown = null;
        try {
          if (ticket.connectionId && (await ctx.call("outbox.waits", { connectionId: ticket.connectionId }))) away = "ERR_OUTBOX_WAITING";
          else {
            const { service, connection } = await channelService(ctx, ticket.connectionId);
            const to = await contactExternalId(ctx, ticket.tenantId, ticket.contactId, connection.type);
            const res = (await ctx.call(`${service}.send`, { tenantId: ticket.tenantId, connectionId: connection.id, to: { externalId: to }, message, messageId })) as SendResult;
            return { status: "sent", providerId: res.providerMessageId };
          }
        } catch (err) {
          if (!isPluginAway(err)) throw err;
          away = err;
        }
        await this.waitForChannel(ctx, ticket, ticket.connectionId, messageId, "send", message, away);
        return null;
      },
      /** Records an outgoing message, hands it to the channel, and records the outcome either way. */
      async sendOne(
        this: any,
        ctx: Ctx,
        ticket: TicketRow,
        o: { body: string; media?: StoredFile & { url?: string }; quoted?: MessageRow | null; forwarded?: boolean },
      ): Promise<ReturnType<typeof view>> {
        const now = Date.now();
        const row = await model.create({
          tenantId: ticket.tenantId,
          ticketId: ticket.id,
          contactId: ticket.contactId,
          connectionId: ticket.connectionId,
          fromMe: true,
          userId: ctx.meta.user?.id ?? null,
          body: o.body || null,
          mediaType: o.media ? mediaTypeOf(o.media.mimeType) : null,
          media: o.media ?? null,
          status: "pending",
          quotedMsgId: o.quoted?.id ?? null,
          isForwarded: !!o.forwarded,
          read: true,
          providerTs: now,
        });
        await emit(ctx, ticket, "create", view(row));
        let patch: Partial<MessageRow> | null;
        try {
          patch = await this.handOver(ctx, ticket, Number(row.get("id")), o);
        } catch (err) {
          const reason = (err as { type?: string; message?: string }).type ?? (err as Error).message ?? "send failed";
          this.logger.warn(`message ${row.get("id")} not sent: ${reason}`);
          patch = { status: "failed", failReason: String(reason).slice(0, 255) };
        }
        if (patch) await this.recordSend(ctx, row, patch);
        await ctx.call("tickets.touch", { tenantId: ticket.tenantId, ticketId: ticket.id, body: o.body || o.media?.fileName || "", timestamp: now, incoming: false });
        const v = view(row);
        await emit(ctx, ticket, "update", v);
        return v;
      },
    },
  };
}

