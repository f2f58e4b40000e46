/**
 * A chatbot plugin for the core's tests: every inbound of its tickets is kept in order
 * (`received`, with the time it arrived); "echo <text>" is answered "bot: <text>" through the
 * core API, as a bot does (`repliedAt`: when the core had stored the answer); `failNext` makes the next deliveries throw, as a broken handler would.
 */
import { coreApi, definePlugin, type ChatbotInbound, type PlatformActions } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import pkg from "../package.json";

const received: Array<ChatbotInbound & { receivedAt: number; repliedAt?: number }> = [];
let failures = 0;

export const chatbotFixturePlugin = definePlugin({
  pkgJson: pkg,
  chatbot: {
    async onMessage(inbound: ChatbotInbound, ctx: Context) {
      if (failures > 0) {
        failures--;
        throw new Error("chatbot fixture failed on purpose");
      }
      const record: (typeof received)[number] = { ...inbound, receivedAt: Date.now() };
      received.push(record);
      const body = inbound.message?.body ?? "";
      if (!body.startsWith("echo ")) return;
      await coreApi(ctx).messages.send({ tenantId: inbound.tenantId, ticketId: inbound.ticket.id, body: `bot: ${body.slice(5)}` });
      record.repliedAt = Date.now();
    },
  },
  service: {
    actions: {
      api: {
        params: { action: "string", params: "object" },
        handler(ctx: Context<{ action: keyof PlatformActions; params: never }>) {
          return coreApi(ctx).call(ctx.params.action, ctx.params.params);
        },
      },
      received: () => received,
      reset() {
        received.length = 0;
        failures = 0;
        return true;
      },
      failNext: {
        params: { times: "number" },
        handler(ctx: Context<{ times: number }>) {
          failures = ctx.params.times;
          return true;
        },
      },
    },
  },
});

export default chatbotFixturePlugin;
