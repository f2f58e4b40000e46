import { randomBytes } from "node:crypto";
import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call, defineService } from "../bus/call";
import { defineChatbotModels } from "./model";
import { createBindings } from "./bindings";
import { createDelivery } from "./delivery";
import type { ChatbotDelivery } from "./contract";

const id = { type: "number", integer: true, positive: true };
const scope = { type: "enum", values: ["connection", "queue"] };

/**
 * The chatbot kind's core side (plugin-sdk chatbot-contract.ts; spec §3 Auto-reply flow, Flow
 * bot settings): the tenant's bindings (./bindings.ts) and the delivery of the `chatbot`
 * tickets' messages to their owning plugins (./delivery.ts). Internal only: plugins reach it
 * through the core API (platform/chatbots.ts). Who gets a ticket is the tickets service's
 * decision (tickets/chatbot-routing.ts, its hand-off and start in tickets/chatbot.ts).
 */
export function createChatbotsService(deps: CoreDeps): ServiceSchema {
  const { ChatbotBinding } = defineChatbotModels(deps.sequelize);
  const bindings = createBindings(ChatbotBinding);
  const delivery = createDelivery(deps);

  return defineService({
    name: "chatbots",
    events: {
      async "connections.changed"(ctx: Ctx<{ tenantId: number; connectionId: number; deleted?: boolean }>) {
        const p = ctx.params;
        if (p?.deleted && p.tenantId && p.connectionId) await bindings.targetGone(ctx, p.tenantId, "connection", p.connectionId);
      },
      async "queues.changed"(ctx: Ctx<{ tenantId: number; queueId: number }>) {
        const p = ctx.params;
        if (!p?.tenantId || !p.queueId) return;
        if (!(await call(ctx, "queues.existing", { tenantId: p.tenantId, ids: [p.queueId] })).length) await bindings.targetGone(ctx, p.tenantId, "queue", p.queueId);
      },
      // Every node hears these: whichever holds the lease starts working the plugin's queue.
      "chatbots.queued": {
        group: `chatbots-queued-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<{ pluginId: string }>) {
          if (ctx.params?.pluginId) delivery.queued(ctx.params.pluginId);
        },
      },
      "$services.changed"() {
        delivery.busChanged();
      },
    },
    async started() {
      await delivery.start(this.broker);
    },
    async stopped() {
      await delivery.stop();
    },
    actions: {
      bindingsInternal: {
        visibility: "public",
        params: { tenantId: id, available: { type: "boolean", optional: true } },
        handler: bindings.list,
      },
      bind: {
        visibility: "public",
        params: { tenantId: id, pluginId: { type: "string", min: 1, max: 64 }, scope, targetId: id, ref: { type: "string", min: 1, max: 64, nullable: true } },
        handler: bindings.bind,
      },
      deliver: {
        visibility: "public",
        params: {
          tenantId: id,
          ticketId: id,
          contactId: id,
          pluginId: { type: "string", min: 1, max: 64 },
          ref: { type: "string", min: 1, max: 64 },
          reason: { type: "enum", values: ["started", "message"] },
          message: { type: "object", nullable: true },
          startId: { type: "number", optional: true },
        },
        handler: (ctx: Ctx<ChatbotDelivery>) => delivery.queue(ctx.params),
      },
    },
  });
}
