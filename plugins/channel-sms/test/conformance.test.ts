import { Readable } from "node:stream";
import { runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import type { ServiceBroker } from "moleculer";
import plugin from "../src/service";
import { FakeComtele, type FakeAccount } from "./fake-comtele";
import { accountSettings, WEBHOOK_SECRET } from "./helpers";

/**
 * The SMS plugin honours the channel contract (SDK conformance kit, its fake core, the local
 * Comtele, the plugin's sent log in the machine's Redis). The kit has no HTTP gateway: the
 * driver hands the webhook action the body and headers the way the gateway does for its stream
 * route (ctx.stream + the declared headers), as Comtele's reply callback would post it.
 */
let api: FakeComtele;
let account: FakeAccount;
const CUSTOMER = "5511977776666";

async function reply(broker: ServiceBroker, ref: ConnectionRef, key: string) {
  const body = JSON.stringify({ Sender: CUSTOMER, SenderName: "Conformidade", ReceivedContent: `olá ${key}`, ReceivedDate: "2026-11-24T10:00:00-03:00" });
  const res = (await broker.call(
    "v1.channel-sms.webhook",
    { token: `conformance:${ref.tenantId}:${ref.connectionId}`, secret: WEBHOOK_SECRET, event: "inbound" },
    { stream: Readable.from([Buffer.from(body)]), meta: { headers: { "content-type": "application/json" } } },
  )) as { ok: boolean; messages: number };
  if (!res.ok || res.messages !== 1) throw new Error("the webhook did not take the reply");
}

runChannelConformance({
  plugin,
  async setup() {
    api = await FakeComtele.start();
    account = api.addAccount({ credits: 1000 });
  },
  async teardown() {
    await api.close();
  },
  // The fake Comtele listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => accountSettings(api, account),
  to: { externalId: CUSTOMER },
  driver: {
    // Comtele posts a reply; a replay is the same reply posted again (same number, date and text).
    triggerInbound: reply,
  },
});
