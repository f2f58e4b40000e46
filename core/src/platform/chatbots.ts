/**
 * The core API's chatbots actions (plugin-sdk core-api/contract.ts, chatbot-contract.ts). Part
 * of the platform service, whose `before` hook has checked the caller and the tenant; the
 * caller (callerOf) is the plugin the bindings, starts and hand-offs are made for. Bindings are
 * the chatbots service's (core/src/chatbots); starts and hand-offs are ticket transitions
 * (tickets/chatbot.ts), whose events tell the shell and the plugins as any other change.
 */
import type { ActionSchema } from "moleculer";
import type { PlatformActions } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { TicketRow } from "../tickets/contract";
import type { Ctx } from "../types";
import { callerOf } from "./access";
import { ticketOf } from "./views";

type P<A extends keyof PlatformActions> = Ctx<PlatformActions[A]["params"]>;
type R<A extends keyof PlatformActions> = Promise<PlatformActions[A]["result"]>;

const id = { type: "number", integer: true, positive: true };
const T = { tenantId: id };
const ref = { type: "string", min: 1, max: 64, trim: true };

/** The ticket as the core API shows it, with its contact. */
async function viewOf(ctx: Ctx, tenantId: number, row: TicketRow) {
  const contact = await call(ctx, "contacts.getInternal", { tenantId, id: row.contactId });
  return ticketOf(row, contact ?? undefined);
}

/** The caller, a plugin of kind chatbot (only those receive their tickets' messages). */
async function chatbotCaller(ctx: Ctx): Promise<string> {
  const plugin = callerOf(ctx);
  const { manifest } = await call(ctx, "plugins.get", { id: plugin });
  if (manifest?.kind !== "chatbot") throw new AppError("ERR_NO_PERMISSION", { reason: "not-a-chatbot" });
  return plugin;
}

export const chatbotsActions: Record<string, ActionSchema> = {
  "chatbots.bindings": {
    params: T,
    async handler(ctx: P<"platform.chatbots.bindings">): R<"platform.chatbots.bindings"> {
      return call(ctx, "chatbots.bindingsInternal", { tenantId: ctx.params.tenantId });
    },
  },
  "chatbots.bind": {
    params: { ...T, scope: { type: "enum", values: ["connection", "queue"] }, targetId: id, ref: { ...ref, nullable: true } },
    async handler(ctx: P<"platform.chatbots.bind">): R<"platform.chatbots.bind"> {
      const { tenantId, scope, targetId } = ctx.params;
      return call(ctx, "chatbots.bind", { tenantId, pluginId: await chatbotCaller(ctx), scope, targetId, ref: ctx.params.ref });
    },
  },
  "chatbots.start": {
    params: { ...T, ticketId: id, ref },
    async handler(ctx: P<"platform.chatbots.start">): R<"platform.chatbots.start"> {
      const { tenantId, ticketId } = ctx.params;
      const row = await call(ctx, "tickets.chatbotStart", { tenantId, ticketId, pluginId: await chatbotCaller(ctx), ref: ctx.params.ref });
      return viewOf(ctx, tenantId, row);
    },
  },
  "chatbots.handoff": {
    params: {
      ...T,
      ticketId: id,
      queueId: { ...id, optional: true, nullable: true },
      userId: { ...id, optional: true, nullable: true },
      distribute: { type: "enum", values: ["none", "balance", "random"], optional: true },
      reason: { type: "enum", values: ["flow", "attempts", "timeout"], optional: true },
    },
    async handler(ctx: P<"platform.chatbots.handoff">): R<"platform.chatbots.handoff"> {
      const { tenantId, ticketId, queueId, userId, distribute, reason } = ctx.params;
      const row = await call(ctx, "tickets.chatbotHandoff", { tenantId, ticketId, pluginId: callerOf(ctx), queueId, userId, distribute, reason });
      return viewOf(ctx, tenantId, row);
    },
  },
};
