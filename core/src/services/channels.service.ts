import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import type { TicketRow } from "../tickets/model";
import { storeFiles, StoredFile } from "../files/store";
import { pushRealtime, ticketRooms, visibilityOf } from "../realtime/push";
import { CONNECTION_STATUSES, AckEvent, InboundMessage, InboundResult, ResolvedToken, StatusEvent } from "@openatende/plugin-sdk/src/channel-contract";

interface ConnectionRow {
  id: number;
  tenantId: number;
  type: string;
  queueId: number | null;
}

const ref = { tenantId: { type: "number", integer: true, positive: true }, connectionId: { type: "number", integer: true, positive: true } };

/**
 * Where channel plugins hand their traffic to the core (the contract's CORE_CHANNEL_ACTIONS):
 * an inbound message becomes contact → ticket → message → realtime event; acks move a
 * message's status forward; status reports update the connection. Nothing here knows any
 * particular channel.
 */
export function createChannelsService(deps: CoreDeps): ServiceSchema {
  /** The connection the call is about; a plugin may only speak for its own connections. */
  async function connectionOf(ctx: Ctx<any>, tenantId: number, connectionId: number): Promise<ConnectionRow> {
    const c = (await ctx.call("connections.getInternal", { id: connectionId })) as ConnectionRow | null;
    if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { connectionId });
    const caller = ctx.caller ?? "";
    if (caller && caller.replace(/^v\d+\./, "") !== c.type) throw new AppError("ERR_NO_PERMISSION", { reason: "connection of another channel" });
    return c;
  }

  return {
    name: "channels",
    actions: {
      inbound: {
        visibility: "public",
        params: {
          ...ref,
          providerMessageId: { type: "string", min: 1, max: 191 },
          timestamp: { type: "number", integer: true, min: 0 },
          from: {
            type: "object",
            props: {
              externalId: { type: "string", min: 1, max: 191 },
              name: { type: "string", optional: true, max: 200 },
              phone: { type: "string", optional: true, max: 40 },
              email: { type: "string", optional: true, max: 190 },
              avatarUrl: { type: "string", optional: true, max: 1000 },
            },
          },
          body: { type: "string", optional: true, max: 65536 },
          media: { type: "object", optional: true },
          location: { type: "object", optional: true },
          contactCard: { type: "object", optional: true },
          replyToProviderId: { type: "string", optional: true, max: 191 },
          isGroup: { type: "boolean", optional: true },
        },
        async handler(ctx: Ctx<InboundMessage>): Promise<InboundResult> {
          const msg = ctx.params;
          const connection = await connectionOf(ctx, msg.tenantId, msg.connectionId);
          // A replayed delivery: answered from what is stored, nothing written, nothing emitted.
          const known = (await ctx.call("messages.findByProvider", { tenantId: msg.tenantId, connectionId: msg.connectionId, providerId: msg.providerMessageId })) as {
            id: number;
            ticketId: number;
          } | null;
          if (known) return { messageId: Number(known.id), ticketId: known.ticketId, duplicate: true };

          const contact = (await ctx.call("contacts.resolveInbound", {
            tenantId: msg.tenantId,
            channelType: connection.type,
            externalId: msg.from.externalId,
            name: msg.from.name,
            phone: msg.from.phone,
            email: msg.from.email,
            avatarUrl: msg.from.avatarUrl,
          })) as { id: number; name: string; profilePicUrl?: string | null };
          const { ticket } = (await ctx.call("tickets.openForInbound", {
            tenantId: msg.tenantId,
            contactId: contact.id,
            connectionId: connection.id,
            queueId: connection.queueId,
            isGroup: !!msg.isGroup,
          })) as { ticket: TicketRow; created: boolean };

          let media: (StoredFile & { url?: string }) | undefined;
          if (msg.media?.data) {
            [media] = storeFiles(deps.config.dataDir, msg.tenantId, [{ fileName: msg.media.fileName ?? "file", mimeType: msg.media.mimeType, data: msg.media.data }]);
          } else if (msg.media?.url || msg.media?.path) {
            media = { path: msg.media.path ?? "", url: msg.media.url, fileName: msg.media.fileName ?? "file", mimeType: msg.media.mimeType, size: msg.media.size ?? 0 };
          }
          const body = msg.body ?? (msg.location ? `${msg.location.latitude},${msg.location.longitude}` : msg.contactCard ? `${msg.contactCard.name} ${msg.contactCard.phone ?? ""}`.trim() : undefined);
          const stored = (await ctx.call("messages.storeInbound", { msg: { ...msg, body }, ticket, contactId: contact.id, media })) as {
            duplicate: boolean;
            message: { id: number } & Record<string, unknown>;
          };
          if (stored.duplicate) return { messageId: stored.message.id, ticketId: ticket.id, duplicate: true };

          const touched = ((await ctx.call("tickets.touch", {
            tenantId: msg.tenantId,
            ticketId: ticket.id,
            body: body ?? media?.fileName ?? "",
            timestamp: msg.timestamp,
            incoming: true,
          })) ?? ticket) as TicketRow & { contact?: unknown };
          const contactView = { id: contact.id, name: contact.name, profilePicUrl: contact.profilePicUrl ?? null };
          const rooms = ticketRooms(touched, await visibilityOf(ctx, msg.tenantId));
          // The spec's list channel: chat:create with the fields the shell shows and notifies on.
          pushRealtime(ctx, {
            rooms,
            event: `${msg.tenantId}:ticketList`,
            payload: {
              type: "chat:create",
              payload: {
                body: body ?? "",
                read: false,
                isGroup: !!msg.isGroup,
                verifiedBizName: null,
                messageId: stored.message.id,
                mediaType: media ? stored.message.mediaType : null,
                ticket: {
                  id: touched.id,
                  userId: touched.userId,
                  queueId: touched.queueId,
                  contactId: contact.id,
                  isGroup: !!touched.isGroup,
                  status: touched.status,
                  unreadMessages: touched.unreadMessages,
                  contact: { name: contact.name, profilePicUrl: contact.profilePicUrl ?? null },
                },
              },
            },
          });
          pushRealtime(ctx, {
            rooms,
            event: `${msg.tenantId}:appMessage`,
            payload: { action: "create", message: stored.message, ticket: { id: touched.id, status: touched.status, userId: touched.userId, queueId: touched.queueId }, contact: contactView },
          });
          return { messageId: stored.message.id, ticketId: ticket.id, duplicate: false };
        },
      },

      resolveToken: {
        visibility: "public",
        params: { token: { type: "string", min: 10, max: 64 } },
        async handler(ctx: Ctx<{ token: string }>): Promise<ResolvedToken | null> {
          const c = (await ctx.call("connections.byToken", { token: ctx.params.token })) as
            | (ConnectionRow & { name: string; status: ResolvedToken["status"]; settings: Record<string, unknown> })
            | null;
          // A plugin resolves only its own connections' tokens.
          const caller = (ctx.caller ?? "").replace(/^v\d+\./, "");
          if (!c || (caller && caller !== c.type)) return null;
          return { tenantId: c.tenantId, connectionId: c.id, name: c.name, status: c.status, settings: c.settings };
        },
      },
      ack: {
        visibility: "public",
        params: { ...ref, providerMessageId: { type: "string", min: 1, max: 191 }, status: { type: "enum", values: ["sent", "delivered", "read", "failed"] }, reason: { type: "string", optional: true, max: 255 }, timestamp: { type: "number", optional: true } },
        async handler(ctx: Ctx<AckEvent>) {
          await connectionOf(ctx, ctx.params.tenantId, ctx.params.connectionId);
          const m = await ctx.call("messages.applyAck", {
            tenantId: ctx.params.tenantId,
            connectionId: ctx.params.connectionId,
            providerId: ctx.params.providerMessageId,
            status: ctx.params.status,
            reason: ctx.params.reason,
          });
          return { applied: !!m };
        },
      },

      status: {
        visibility: "public",
        params: { ...ref, status: { type: "enum", values: [...CONNECTION_STATUSES] }, qrcode: { type: "string", optional: true, max: 20000 }, detail: { type: "string", optional: true, max: 1000 } },
        async handler(ctx: Ctx<StatusEvent>) {
          await connectionOf(ctx, ctx.params.tenantId, ctx.params.connectionId);
          return ctx.call("connections.setStatus", ctx.params);
        },
      },
    },
  };
}
