/**
 * The core API's message and template actions (plugin-sdk core-api/contract.ts). Part of the
 * platform service, whose `before` hook has checked the caller and the tenant.
 *
 * - platform.messages.list / get / send: a ticket's messages, one message (its status now), and a
 *   send through its connection;
 * - platform.messages.sendTo: a send to a contact on a connection (scheduled messages,
 *   campaigns), through its active ticket there or one opened for it (messages/platform.ts);
 * - platform.templates.list: a connection's templates, from its channel (contract 1.3);
 * - platform.connections.balance: a connection's credits at its provider, from its channel
 *   (contract 1.4 `balance`: SMS campaigns check them before they start).
 *
 * A send's idempotency key is the plugin's own, scoped here by the calling plugin's id
 * (`<plugin id>:<key>`), so two plugins' keys never meet; the messages domain keeps it unique
 * per tenant (migration 0020), which is what makes a retried send answer its first message.
 */
import type { ActionSchema } from "moleculer";
import type { PlatformActions, PlatformSend } from "@openatende/plugin-sdk";
import type { Ctx } from "../types";
import { callChannel } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import { platformSendMediaRule } from "../messages/contract";
import { AppError } from "../errors/app-error";
import { callerOf } from "./access";
import { messageOf } from "./views";

type P<A extends keyof PlatformActions> = Ctx<PlatformActions[A]["params"]>;
type R<A extends keyof PlatformActions> = Promise<PlatformActions[A]["result"]>;

const id = { type: "number", integer: true, positive: true };
const T = { tenantId: id };

/** What every send of a plugin carries (PlatformSend). */
const send = {
  body: { type: "string", max: 65536 },
  media: platformSendMediaRule,
  // Checked in full by the messages domain (name, language, components).
  template: { type: "object", optional: true },
  idempotencyKey: { type: "string", optional: true, min: 1, max: 150, pattern: /^[A-Za-z0-9:._-]+$/ },
};

/** The send's content as the messages domain takes it, its key scoped by the calling plugin. */
function contentOf(ctx: Ctx, p: PlatformSend) {
  return {
    body: p.body,
    ...(p.media ? { media: { path: p.media.path, mimeType: p.media.mimeType, fileName: p.media.fileName } } : {}),
    ...(p.template ? { template: p.template } : {}),
    ...(p.idempotencyKey ? { idempotencyKey: `${callerOf(ctx)}:${p.idempotencyKey}` } : {}),
  };
}

export function messagesActions(pageOf: (p: { page?: number; limit?: number }) => { offset: number; limit: number }): Record<string, ActionSchema> {
  const paging = { page: { type: "number", integer: true, min: 1, max: 100_000, optional: true }, limit: { type: "number", integer: true, min: 1, max: 100, optional: true } };
  return {
    "messages.list": {
      params: { ...T, ticketId: id, ...paging },
      async handler(ctx: P<"platform.messages.list">): R<"platform.messages.list"> {
        const r = await call(ctx, "messages.query", { tenantId: ctx.params.tenantId, ticketId: ctx.params.ticketId, ...pageOf(ctx.params) });
        return { rows: r.rows.map(messageOf), count: r.count, hasMore: r.hasMore };
      },
    },
    "messages.get": {
      params: { ...T, id },
      async handler(ctx: P<"platform.messages.get">): R<"platform.messages.get"> {
        const m = await call(ctx, "messages.one", { tenantId: ctx.params.tenantId, id: ctx.params.id });
        if (!m) throw new AppError("ERR_MESSAGE_NOT_FOUND", { id: ctx.params.id });
        return messageOf(m);
      },
    },
    "messages.send": {
      // `afterClose`: a closing text on a ticket closed in the last minutes (messages.platformSend's window).
      params: { ...T, ticketId: id, afterClose: { type: "boolean", optional: true }, ...send },
      async handler(ctx: P<"platform.messages.send">): R<"platform.messages.send"> {
        const { tenantId, ticketId, afterClose } = ctx.params;
        return messageOf(await call(ctx, "messages.platformSend", { tenantId, ticketId, ...(afterClose ? { afterClose } : {}), ...contentOf(ctx, ctx.params) }));
      },
    },
    "messages.sendTo": {
      params: { ...T, contactId: id, connectionId: id, ticket: { type: "enum", values: ["active", "closed"], optional: true }, ...send },
      async handler(ctx: P<"platform.messages.sendTo">): R<"platform.messages.sendTo"> {
        const { tenantId, contactId, connectionId, ticket } = ctx.params;
        return messageOf(await call(ctx, "messages.platformSendTo", { tenantId, contactId, connectionId, ...(ticket ? { ticket } : {}), ...contentOf(ctx, ctx.params) }));
      },
    },
    "templates.list": {
      params: {
        ...T,
        connectionId: id,
        after: { type: "string", optional: true, min: 1, max: 512 },
        status: { type: "enum", values: ["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED", "IN_APPEAL"], optional: true },
        limit: { type: "number", integer: true, min: 1, max: 100, optional: true },
      },
      async handler(ctx: P<"platform.templates.list">): R<"platform.templates.list"> {
        const { tenantId, connectionId, after, status, limit } = ctx.params;
        return call(ctx, "templates.listFor", { tenantId, connectionId, ...(after ? { after } : {}), ...(status ? { status } : {}), ...(limit ? { limit } : {}) });
      },
    },
    "connections.balance": {
      params: { ...T, connectionId: id },
      async handler(ctx: P<"platform.connections.balance">): R<"platform.connections.balance"> {
        const { tenantId, connectionId } = ctx.params;
        const c = await call(ctx, "connections.getInternal", { id: connectionId });
        if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { field: "connectionId" });
        const plugin = await call(ctx, "plugins.channelFor", { type: c.type, tenantId, major: c.pluginMajor ?? undefined }).catch(() => null);
        if (!plugin?.balance) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "connectionId", kind: "balance" });
        const b = await callChannel(ctx, plugin.service, "balance", { tenantId, connectionId, settings: c.settings });
        return { credits: Number(b.credits), provider: String(b.provider), checkedAt: Number(b.checkedAt) };
      },
    },
  };
}
