import { randomBytes } from "node:crypto";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { resolveStored, storeFiles, StoredFile } from "../files/store";
import { TtlCache } from "../lib/ttl-cache";
import { call, defineService, type ResultOf } from "../bus/call";
import type { ActiveTicket } from "../bus/actions";
import type { InboundContact } from "../contacts/contract";
import { ackParams, changeParams, checkChange, contactParams, inboundParams, ref } from "./params";
import { pushInbound } from "./inbound-push";
import {
  CONNECTION_STATUSES,
  type AckEvent,
  type ContactUpdateEvent,
  type ContactUpdateResult,
  type InboundMessage,
  type InboundResult,
  type MessageChangeEvent,
  type MessageChangeResult,
  type ResolvedToken,
  type StatusEvent,
} from "@openatende/plugin-sdk";
import { AVAILABILITY_ERRORS } from "../plugins/contract";

/** What the bridge keeps of a connection. */
interface ConnectionRow {
  id: number;
  tenantId: number;
  type: string;
  queueId: number | null;
  /** The plugin major the connection is pinned to (null: the newest). */
  pluginMajor: number | null;
}

/** What an inbound message needs of its ticket (tickets.findActive; openForInbound answers more). */
type InboundTicket = ActiveTicket;

/** A connection stays this long at most in a process's cache (a safety net: its changes drop it at once). */
const CONNECTION_TTL_MS = 30_000;

/**
 * Where channel plugins hand their traffic to the core (the contract's CORE_CHANNEL_ACTIONS):
 * an inbound message becomes contact → ticket → message → realtime event; acks move a
 * message's status forward; changes made on the channel (reactions, edits, deletions) and
 * what it learns of contacts (names, pictures, a LID's phone number) update what is stored;
 * status reports update the connection. Nothing here knows any particular channel.
 */
export function createChannelsService(deps: CoreDeps): ServiceSchema {
  /**
   * Connections by id, per process: every inbound message, ack and status report names its
   * connection, whose tenant, type and queue change rarely. `connections.changed` (create,
   * update, delete) drops the entry; the handler's own event group makes every node hear it.
   * Only found connections are kept.
   */
  const connections = new TtlCache<number, ConnectionRow | null>(CONNECTION_TTL_MS, 10_000, (row) => row !== null);

  /**
   * The connection the call is about; a plugin may only speak for its own connections, in the
   * major they are pinned to, and only while the tenant may use the plugin (allowed, switched
   * on, within its tier): ERR_CONNECTION_INACTIVE otherwise, with the reason's code.
   */
  async function connectionOf(ctx: Ctx<unknown>, tenantId: number, connectionId: number): Promise<ConnectionRow> {
    const c = await connections.get(connectionId, async () => {
      const row = await call(ctx, "connections.getInternal", { id: connectionId });
      return row ? { id: row.id, tenantId: row.tenantId, type: row.type, queueId: row.queueId ?? null, pluginMajor: row.pluginMajor ?? null } : null;
    });
    if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { connectionId });
    const caller = ctx.caller ?? "";
    if (caller && caller.replace(/^v\d+\./, "") !== c.type) throw new AppError("ERR_NO_PERMISSION", { reason: "connection of another channel" });
    const callerMajor = /^v(\d+)\./.exec(caller)?.[1];
    if (callerMajor !== undefined && c.pluginMajor !== null && Number(callerMajor) !== c.pluginMajor) {
      throw new AppError("ERR_NO_PERMISSION", { reason: "connection of another major of the channel", major: c.pluginMajor });
    }
    const open = await call(ctx, "plugins.availability", { tenantId, id: c.type, major: c.pluginMajor ?? undefined });
    if (!open.enabled) throw new AppError("ERR_CONNECTION_INACTIVE", { connectionId, reason: AVAILABILITY_ERRORS[open.reason!] });
    return c;
  }

  /**
   * A message that would open a ticket, from a contact a plugin claimed (a survey waiting for
   * its answer, core/src/hooks): the plugin's when it takes it, kept on the claim's ticket (or
   * the contact's last closed one there) without reopening it, pushing or counting anything.
   */
  async function claimed(ctx: Ctx<InboundMessage>, msg: InboundMessage, contact: InboundContact, connectionId: number): Promise<InboundResult | null> {
    // A message with a file skipped the active-ticket lookup: an active ticket takes it as usual.
    if (msg.media?.data && (await call(ctx, "tickets.findActive", { tenantId: msg.tenantId, contactId: contact.id, connectionId }))) return null;
    const body = msg.body ?? "";
    const taken = await call(ctx, "hooks.takeClaimed", {
      id: `${connectionId}:${msg.providerMessageId}`,
      tenantId: msg.tenantId,
      connectionId,
      contact: { id: contact.id, name: msg.from.name ?? "", number: msg.from.phone ?? null },
      message: { body, mediaType: msg.media?.mimeType ?? null, timestamp: msg.timestamp },
    });
    if (!taken) return null;
    const ticketId = taken.ticketId ?? (await call(ctx, "tickets.openForInbound", { tenantId: msg.tenantId, contactId: contact.id, connectionId, closed: true })).ticket.id;
    const stored = await call(ctx, "messages.storeInbound", { msg, ticket: { id: ticketId, tenantId: msg.tenantId }, contactId: contact.id });
    if (!stored.duplicate) await call(ctx, "tickets.touch", { tenantId: msg.tenantId, ticketId, body, timestamp: msg.timestamp, incoming: true, keepUnread: true, quiet: true });
    return { messageId: stored.message!.id, ticketId, duplicate: !!stored.duplicate };
  }

  return defineService({
    name: "channels",
    events: {
      "connections.changed": {
        // A group of its own per service instance: an emitted event reaches one instance per
        // group, so every node's cache hears of the change.
        group: `channels-connections-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<{ connectionId?: number }>) {
          const id = Number(ctx.params?.connectionId);
          if (Number.isInteger(id) && id > 0) connections.dropKey(id);
          else connections.drop();
        },
      },
    },
    actions: {
      /**
       * A message of the channel. Written on the account's own phone (`fromMe`): an agent's
       * message without a user, no unread count, nobody notified; its ticket is opened as
       * usual when there is none (pending, or group), read. From a group: the member who
       * wrote is kept on the message. Imported (the history a channel receives when linked):
       * stored in place without any realtime event or unread count; with `closeTicket` it
       * goes to the contact's closed ticket (made closed when there is none) unless the
       * contact has an active one — thousands of imported messages push nothing.
       */
      inbound: {
        visibility: "public",
        params: inboundParams,
        async handler(ctx: Ctx<InboundMessage>): Promise<InboundResult> {
          const msg = ctx.params;
          const connection = await connectionOf(ctx, msg.tenantId, msg.connectionId);
          const identity = {
            tenantId: msg.tenantId,
            channelType: connection.type,
            externalId: msg.from.externalId,
            name: msg.from.name,
            phone: msg.from.phone,
            email: msg.from.email,
            avatarUrl: msg.from.avatarUrl,
          };

          // The usual case: a known sender with an active ticket, and nothing to write before
          // the message itself (no new contact, picture or ticket, no file). The contact's card
          // (usually cached) and the ticket are read; a replay is then told by the message's
          // unique key when it is inserted, so it still stores and emits nothing.
          let contact: InboundContact | null = null;
          let ticket: InboundTicket | null = null;
          let opened = false;
          if (!msg.media?.data) {
            contact = await call(ctx, "contacts.findInbound", identity);
            if (contact) ticket = await call(ctx, "tickets.findActive", { tenantId: msg.tenantId, contactId: contact.id, connectionId: connection.id });
          }
          if (!contact || !ticket) {
            // Something is written before the message: a replayed delivery must be told first.
            // It is answered from what is stored, nothing written, nothing emitted.
            const known = await call(ctx, "messages.findByProvider", { tenantId: msg.tenantId, connectionId: msg.connectionId, providerId: msg.providerMessageId, slim: true });
            if (known) return { messageId: Number(known.id), ticketId: known.ticketId, duplicate: true };
            contact = await call(ctx, "contacts.resolveInbound", { ...identity, slim: true });
            if (!ticket && !msg.fromMe && !msg.isGroup && !msg.imported) {
              const kept = await claimed(ctx, msg, contact, connection.id);
              if (kept) return kept;
            }
            ({ ticket, created: opened } = await call(ctx, "tickets.openForInbound", {
              tenantId: msg.tenantId,
              contactId: contact.id,
              connectionId: connection.id,
              queueId: connection.queueId,
              isGroup: !!msg.isGroup,
              closed: !!msg.imported?.closeTicket,
              fromMe: !!msg.fromMe,
              imported: !!msg.imported,
            }));
          }
          const open = ticket!;

          let media: (StoredFile & { url?: string }) | undefined;
          if (msg.media?.data) {
            [media] = storeFiles(deps.config.dataDir, msg.tenantId, [{ fileName: msg.media.fileName ?? "file", mimeType: msg.media.mimeType, data: msg.media.data }]);
          } else if (msg.media?.url || msg.media?.path) {
            // A stored file (the SDK's uploadMedia) must be the tenant's own.
            if (msg.media.path) resolveStored(deps.config.dataDir, msg.tenantId, msg.media.path);
            media = { path: msg.media.path ?? "", url: msg.media.url, fileName: msg.media.fileName ?? "file", mimeType: msg.media.mimeType, size: msg.media.size ?? 0 };
          }
          const body = msg.body ?? (msg.location ? `${msg.location.latitude},${msg.location.longitude}` : msg.contactCard ? `${msg.contactCard.name} ${msg.contactCard.phone ?? ""}`.trim() : undefined);
          const stored = await call(ctx, "messages.storeInbound", { msg: { ...msg, body }, ticket: { id: open.id, tenantId: open.tenantId }, contactId: contact.id, media });
          // A duplicate's row is there: its unique key is what refused the insert.
          if (stored.duplicate) return { messageId: stored.message!.id, ticketId: stored.message!.ticketId ?? open.id, duplicate: true };

          // The ticket as the update left it: known from the row just read when nothing else
          // changed it meanwhile (the update checks that), read again otherwise. A message from
          // the account's phone reads the ticket, as an agent's reply does.
          const after: Partial<InboundTicket> | null = await call(ctx, "tickets.touch", {
            tenantId: msg.tenantId,
            ticketId: open.id,
            body: body ?? media?.fileName ?? "",
            timestamp: msg.timestamp,
            incoming: !msg.fromMe,
            keepUnread: !!msg.imported,
            expected: { unreadMessages: open.unreadMessages, status: open.status, userId: open.userId, queueId: open.queueId },
          });
          if (!msg.imported) {
            await pushInbound(ctx, {
              ticket: { ...open, ...(after ?? {}) },
              contact,
              message: stored.message,
              body: body ?? "",
              isGroup: !!msg.isGroup,
              fromMe: !!msg.fromMe,
              hasMedia: !!media,
              opened,
              verifiedBizName: msg.verifiedBizName ?? null,
            });
          }
          return { messageId: stored.message.id, ticketId: open.id, duplicate: false };
        },
      },

      resolveToken: {
        visibility: "public",
        params: { token: { type: "string", min: 10, max: 64 } },
        async handler(ctx: Ctx<{ token: string }>): Promise<ResolvedToken | null> {
          const c = await call(ctx, "connections.byToken", { token: ctx.params.token });
          // A plugin resolves only its own connections' tokens.
          const caller = (ctx.caller ?? "").replace(/^v\d+\./, "");
          if (!c || (caller && caller !== c.type)) return null;
          // The row keeps its status as text; only the contract's statuses are ever written to it.
          return { tenantId: c.tenantId, connectionId: c.id, name: c.name, status: c.status as ResolvedToken["status"], settings: c.settings };
        },
      },
      /**
       * A delivery report: sent < delivered < read < played, forward only ("failed" only before
       * any device acknowledged). A group's receipts (`participant`) follow the same rule, so
       * the message shows the furthest any member reached.
       */
      ack: {
        visibility: "public",
        params: ackParams,
        async handler(ctx: Ctx<AckEvent>) {
          await connectionOf(ctx, ctx.params.tenantId, ctx.params.connectionId);
          const m = await call(ctx, "messages.applyAck", {
            tenantId: ctx.params.tenantId,
            connectionId: ctx.params.connectionId,
            providerId: ctx.params.providerMessageId,
            status: ctx.params.status,
            reason: ctx.params.reason,
          });
          return { applied: !!m };
        },
      },

      /** A reaction, edit or deletion made on the channel to a stored message; idempotent. */
      change: {
        visibility: "public",
        params: changeParams,
        async handler(ctx: Ctx<MessageChangeEvent>): Promise<MessageChangeResult> {
          await connectionOf(ctx, ctx.params.tenantId, ctx.params.connectionId);
          const r = await call(ctx, "messages.applyChange", {
            tenantId: ctx.params.tenantId,
            connectionId: ctx.params.connectionId,
            providerId: ctx.params.providerMessageId,
            change: checkChange(ctx.params.change),
          });
          // A reaction or edit of a deleted message changes nothing: not applied.
          return { applied: !!r && (r.changed || ctx.params.change.type === "delete" || !r.message.isDeleted) };
        },
      },

      /**
       * What the channel learnt of a contact of this connection's type, in this tenant: name
       * (only over a name that is still the raw number or id), picture (null clears it),
       * validated on the network, a phone number for a contact without one; with
       * `previousExternalId`, the contact known by that id merged into this one. Idempotent.
       */
      contact: {
        visibility: "public",
        params: contactParams,
        async handler(ctx: Ctx<ContactUpdateEvent>): Promise<ContactUpdateResult> {
          const connection = await connectionOf(ctx, ctx.params.tenantId, ctx.params.connectionId);
          const { connectionId: _c, ...update } = ctx.params;
          return call(ctx, "contacts.applyChannelUpdate", { ...update, channelType: connection.type });
        },
      },

      status: {
        visibility: "public",
        params: { ...ref, status: { type: "enum", values: [...CONNECTION_STATUSES] }, qrcode: { type: "string", optional: true, max: 20000 }, detail: { type: "string", optional: true, max: 1000 } },
        async handler(ctx: Ctx<StatusEvent>): Promise<ResultOf<"connections.setStatus">> {
          try {
            await connectionOf(ctx, ctx.params.tenantId, ctx.params.connectionId);
          } catch (err) {
            // A plugin stopping a connection the platform made inactive reports it: not an error, and nothing changes.
            if ((err as AppError).type === "ERR_CONNECTION_INACTIVE") return { id: ctx.params.connectionId, status: "inactive", ignored: true };
            throw err;
          }
          return call(ctx, "connections.setStatus", ctx.params);
        },
      },
    },
  });
}
