import { Readable } from "node:stream";
import { runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import type { ServiceBroker } from "moleculer";
import plugin from "../src/service";
import { FakeNotificaMe, type FakeChannel } from "./fake-notificame";

/**
 * The hub plugin honours the channel contract (SDK conformance kit, fake core, local
 * NotificaMe). The kit has no HTTP gateway: the driver hands the webhook action the body the
 * way the gateway does for its stream route (ctx.stream), with the connection's secret.
 */
let hub: FakeNotificaMe;
let channel: FakeChannel;
const SECRET = "conformance-webhook-secret-0123456789abcdef";
const CUSTOMER = "1784140000000001";

async function deliver(broker: ServiceBroker, ref: ConnectionRef, event: unknown) {
  const res = (await broker.call(
    "v1.channel-hub.webhook",
    { token: `conformance:${ref.tenantId}:${ref.connectionId}`, secret: SECRET },
    { stream: Readable.from([Buffer.from(JSON.stringify(event))]), meta: { headers: { "content-type": "application/json" } } },
  )) as { ok: boolean; result: string };
  if (!res.ok || (res.result !== "stored" && res.result !== "duplicate")) throw new Error(`the webhook did not take the delivery: ${JSON.stringify(res)}`);
}

runChannelConformance({
  plugin,
  async setup() {
    hub = await FakeNotificaMe.start();
    channel = hub.addChannel("instagram");
  },
  async teardown() {
    await hub.close();
  },
  // The fake hub listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => ({ variant: "instagram", channelToken: channel.id, apiToken: channel.apiToken, webhookSecret: SECRET, apiUrl: hub.url }),
  to: { externalId: CUSTOMER },
  driver: {
    // The hub posts a MESSAGE event; a replay is the same message (same id) posted again.
    async triggerInbound(broker, ref, key) {
      await deliver(broker, ref, hub.messageEvent(channel.id, { id: `ig-${key}`, from: CUSTOMER, name: "Conformidade", text: `olá ${key}` }));
    },
  },
});
