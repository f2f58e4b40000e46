import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { Op } from "sequelize";
import type { Service, ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { isAdmin, type Ctx } from "../types";
import { call, defineService } from "../bus/call";
import { messageCountActions } from "./count";
import { isMessageMedia, resolveStored, storeFiles, StoredFile, UploadedFile } from "../files/store";
import { defineMessage, emitMessage, MessageRow, view } from "./model";
import { withHiddenParticipant } from "./participant-mask";
import { channelMessageActions } from "./from-channel";
import { outgoingMessages } from "./outgoing";
import { withSignature } from "./signature";
import { composerExtraActions } from "./composer-extras";
import { platformMessageActions } from "./platform";
import { lastInboundActions } from "./last-inbound";
import { templateSendActions } from "./template-send";

/** Spec §9: deleting a message is possible for 5 minutes; at most 10 messages are forwarded at once. */
export const DELETE_WINDOW_MS = 5 * 60 * 1000;
export const MAX_FORWARD = 10;
/** Read receipts handed to a channel when the holder opens a ticket: the newest unread only. */
export const MAX_RECEIPTS = 100;
export type { MessageRow };

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
  let logger: Service["logger"];
  const outgoing = outgoingMessages(deps, model, () => logger);
  const { loadOwnedMessage, relayChange, reviseWaiting, sendOne, recordSend } = outgoing;
  const emit = emitMessage;

  return defineService({
    name: "messages",
    created() {
      logger = this.logger;
    },
    events: {
      // The sends' connection cache (outgoing.ts): a group of its own per service instance, so
      // every node hears the change (an emitted event reaches one instance per group).
      "connections.changed": {
        group: `messages-connections-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<{ connectionId?: number }>) {
          const id = Number(ctx.params?.connectionId);
          outgoing.forgetConnection(Number.isInteger(id) && id > 0 ? id : undefined);
        },
      },
    },
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /messages/:ticketId",
        access: "user",
        resource: "tickets",
        params: {
          ...ticketIdParam,
          pageNumber: { type: "number", integer: true, min: 1, max: 100000, optional: true, convert: true },
          pageSize: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
          // Spec §4 "watch": looking at a ticket without taking it reads nothing, even for its holder.
          watch: { type: "boolean", optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ ticketId: number; pageNumber?: number; pageSize?: number; watch?: boolean }>) {
          const ticket = await call(ctx, "tickets.visible", { id: ctx.params.ticketId, cached: true });
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
          if (pageNumber === 1 && !ctx.params.watch && (ticket.unreadMessages > 0 || unreadOnPage) && ticket.userId === ctx.meta.user!.id) {
            const unread = await model.findAll({
              attributes: ["connectionId", "providerId"],
              where: { tenantId: ticket.tenantId, ticketId: ticket.id, read: false, fromMe: false, providerId: { [Op.ne]: null }, connectionId: { [Op.ne]: null } },
              order: [["providerTs", "DESC"], ["id", "DESC"]],
              limit: MAX_RECEIPTS,
            });
            if (ticket.unreadMessages > 0) await call(ctx, "tickets.markRead", { tenantId: ticket.tenantId, ticketId: ticket.id });
            await model.update({ read: true }, { where: { tenantId: ticket.tenantId, ticketId: ticket.id, read: false, fromMe: false } });
            // The customer's blue ticks: best effort, never awaited, never failing the list.
            const byConnection = new Map<number, string[]>();
            for (const r of unread) {
              const { connectionId, providerId } = r.get() as MessageRow;
              byConnection.set(connectionId!, [...(byConnection.get(connectionId!) ?? []), providerId!]);
            }
            for (const [connectionId, ids] of byConnection) {
              outgoing.sendReceipts(ctx, ticket, connectionId, ids.reverse()).catch((err: Error & { type?: string }) => {
                logger.warn(`ticket ${ticket.id}: read receipts not handed to connection ${connectionId}: ${err.type ?? err.message}`);
              });
            }
          }
          // Spec §6 hideContactInfo: a non-admin gets group members without their address and phone.
          const hide = !isAdmin(ctx.meta.user) && (await call(ctx, "settings.forTenant", { tenantId: ticket.tenantId })).hideContactInfo === true;
          return { messages: page.map((m) => (hide ? withHiddenParticipant(view(m)) : view(m))), hasMore, pageNumber, ticket: { id: ticket.id, status: ticket.status } };
        },
      },

      // GET /messages/count-all (count.ts).
      ...messageCountActions(model),
      // The core API of plugins (platform.ts): query, platformSend.
      ...platformMessageActions(model, outgoing, deps.config.dataDir),
      // A provider's customer-service window counts from the contact's last message (last-inbound.ts).
      ...lastInboundActions(model),
      // POST /messages/{ticketId}/template (template-send.ts).
      ...templateSendActions(outgoing, deps.config.dataDir),

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
        async handler(ctx: Ctx<{ ticketId: number; body?: string; quotedMsgId?: number; medias?: UploadedFile[] }>) {
          const ticket = await call(ctx, "tickets.visible", { id: ctx.params.ticketId });
          let body = ctx.params.body?.trim() ?? "";
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
          // Its answer goes with the send, which then does not ask again (outgoing.ts SendVia).
          const channel = ticket.connectionId
            ? await outgoing.channelService(ctx, ticket.connectionId).catch((err: { type?: string }) => {
                if (err.type === "ERR_CONNECTION_INACTIVE") throw err;
                return null;
              })
            : null;
          const stored = medias.length ? storeFiles(deps.config.dataDir, ticket.tenantId, medias) : [];
          // Signed once, here, for every channel: stored and sent alike (signature.ts).
          body = await withSignature(ctx, ticket.tenantId, body);
          const out: Array<ReturnType<typeof view>> = [];
          if (stored.length) {
            for (let i = 0; i < stored.length; i++) {
              out.push(await sendOne(ctx, ticket, { body: i === 0 ? body : "", media: stored[i], quoted }, { channel }));
            }
          } else out.push(await sendOne(ctx, ticket, { body, quoted }, { channel }));
          ctx.meta.$statusCode = 201;
          return out.length === 1 ? out[0] : { messages: out };
        },
      },

      edit: {
        rest: "POST /messagesEdit/:id",
        access: "user",
        resource: "messages",
        params: { ...idParam, body: { type: "string", min: 1, max: 65536 } },
        async handler(ctx: Ctx<{ id: number; body: string }>) {
          const { msg, ticket } = await loadOwnedMessage(ctx, ctx.params.id);
          // Only one's own text messages: not the customer's, not another user's, not media.
          if (!msg.fromMe || msg.userId !== ctx.meta.user!.id || msg.mediaType || msg.isDeleted || msg.status === "failed") {
            throw new AppError("ERR_MESSAGE_EDIT_NOT_ALLOWED");
          }
          // Still waiting for its channel: the new text goes out instead (or, sent meanwhile, is edited there).
          const providerId = msg.providerId ?? (await reviseWaiting(ctx, msg, { body: ctx.params.body })).providerId;
          if (providerId) await relayChange(ctx, ticket, msg, "edit", { kind: "edit", targetProviderId: providerId, body: ctx.params.body });
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
        async handler(ctx: Ctx<{ id: number }>) {
          const { msg, ticket } = await loadOwnedMessage(ctx, ctx.params.id);
          if (!msg.fromMe) throw new AppError("ERR_NO_PERMISSION");
          if (Date.now() - new Date(msg.createdAt).getTime() > DELETE_WINDOW_MS) throw new AppError("ERR_MESSAGE_TOO_OLD_TO_DELETE");
          if (msg.isDeleted) return view(msg);
          // Still waiting for its channel: it never goes out (or, sent meanwhile, is deleted there).
          const waiting = msg.providerId ? null : await reviseWaiting(ctx, msg, { drop: true });
          const providerId = msg.providerId ?? waiting?.providerId ?? null;
          if (providerId) await relayChange(ctx, ticket, msg, "delete", { kind: "delete", targetProviderId: providerId });
          const patch: Partial<MessageRow> = waiting?.dropped ? { isDeleted: true, status: "failed", failReason: "deleted before it was sent" } : { isDeleted: true };
          await model.update(patch, { where: { id: msg.id, tenantId: msg.tenantId } });
          const updated = view({ ...msg, ...patch });
          await emit(ctx, ticket, "update", updated);
          // The ticket's log keeps who deleted which message, and when (spec §4 "deleted").
          await call(ctx, "tickets.logEvent", { tenantId: msg.tenantId, ticketId: msg.ticketId, userId: ctx.meta.user!.id, type: "deleted", data: { messageId: msg.id } });
          return updated;
        },
      },

      react: {
        rest: "POST /messagesReaction/:id",
        access: "user",
        resource: "messages",
        params: { ...idParam, emoji: { type: "string", min: 1, max: 16 } },
        async handler(ctx: Ctx<{ id: number; emoji: string }>) {
          const { msg, ticket } = await loadOwnedMessage(ctx, ctx.params.id);
          if (msg.isDeleted) throw new AppError("ERR_MESSAGE_NOT_FOUND");
          if (msg.providerId) await relayChange(ctx, ticket, msg, "reaction", { kind: "reaction", targetProviderId: msg.providerId, emoji: ctx.params.emoji });
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
        async handler(ctx: Ctx<{ messageIds: number[]; contactId: number; connectionId?: number }>) {
          if (ctx.params.messageIds.length > MAX_FORWARD) throw new AppError("ERR_FORWARD_LIMIT", { field: "messageIds", max: MAX_FORWARD });
          const tenantId = ctx.meta.user!.tenantId;
          const sources: MessageRow[] = [];
          for (const id of ctx.params.messageIds) {
            const { msg } = await loadOwnedMessage(ctx, id);
            // A deleted message's text is gone for everyone: it is not sent on.
            if (msg.isDeleted) throw new AppError("ERR_MESSAGE_NOT_FOUND", { id, reason: "deleted" });
            sources.push(msg);
          }
          sources.sort((a, b) => a.providerTs - b.providerTs || a.id - b.id);
          const connectionId = ctx.params.connectionId ?? sources[0].connectionId;
          const opened = await call(ctx, "tickets.create", { contactId: ctx.params.contactId, connectionId, status: "open" }, { meta: { ...ctx.meta, $api: false } }).catch(async (err: { type?: string; data?: { ticketId?: number } }) => {
            if (err.type === "ERR_CONTACT_OTHER_OPEN_TICKET" && err.data?.ticketId) return { id: err.data.ticketId };
            throw err;
          });
          // The nested create answers 201 through the shared meta; a forward answers 200 whether or not it opened a ticket.
          ctx.meta.$statusCode = 200;
          const target = (await call(ctx, "tickets.getInternal", { tenantId, id: opened.id }))!;
          const out = [];
          for (const m of sources) {
            out.push(await sendOne(ctx, target, { body: m.body ?? "", media: m.media ?? undefined, forwarded: true }));
          }
          return { ticketId: target.id, messages: out };
        },
      },

      // GIFs, stickers and the signature (composer-extras.ts).
      ...composerExtraActions(deps, outgoing, () => logger),

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
        async handler(ctx: Ctx<{ tenantId: number; id: number; status: "sent" | "failed"; providerId?: string; failReason?: string }>) {
          const m = await model.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
          if (!m) return null;
          const patch: Partial<MessageRow> =
            ctx.params.status === "sent" ? { providerId: ctx.params.providerId ?? null } : { failReason: (ctx.params.failReason ?? "send failed").slice(0, 255) };
          // An ack may have moved it on already (delivered, read): the status only moves forward.
          if (m.get("status") === "pending") patch.status = ctx.params.status;
          await recordSend(ctx, m, patch);
          const ticket = await call(ctx, "tickets.getInternal", { tenantId: ctx.params.tenantId, id: m.get("ticketId") as number });
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
        async handler(ctx: Ctx<{ tenantId: number; ticketId: number }>) {
          const { tenantId, ticketId } = ctx.params;
          const withMedia = await model.findAll({ where: { tenantId, ticketId, media: { [Op.ne]: null } }, attributes: ["media"] });
          const files = [...new Set(withMedia.map((m) => (m.get("media") as StoredFile | null)?.path).filter((p): p is string => !!p))];
          const removed = await model.destroy({ where: { tenantId, ticketId } });
          // Their files go too, unless a message elsewhere (a forwarded copy) still shows them.
          for (const file of files) {
            try {
              // LIKE's _ matches any one character: at worst a file is kept, never one removed in use.
              const still = await model.count({ where: { tenantId, media: { [Op.like]: `%"path":${JSON.stringify(file)}%` } } as never });
              // Only message files: a plugin's file (a flow's media) is sent by many tickets and stays.
              if (!still && isMessageMedia(tenantId, file)) fs.rmSync(resolveStored(deps.config.dataDir, tenantId, file), { force: true });
            } catch (err) {
              logger.warn(`ticket ${ticketId}: media file ${file} not removed: ${(err as Error).message}`);
            }
          }
          return removed;
        },
      },
    },
  });
}
