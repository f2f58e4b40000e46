import { Readable } from "node:stream";
import { runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import type { ServiceBroker } from "moleculer";
import plugin from "../src/service";
import { SECRET_HEADER, urlToken, webhookSecretOf } from "../src/provider";
import { envelope, messagesValue, metaJson, newWamid, reactionMessage, textMessage } from "../../channel-waba/test/meta-payloads";
import { Fake360, type D360Number } from "./fake-360";
import { settingsFor } from "./helpers";

/**
 * The 360dialog plugin honours the channel contract (SDK conformance kit, fake core, the local
 * 360dialog API). The kit has no HTTP gateway: the driver hands the webhook action a body the
 * way the gateway does for its stream route (ctx.stream + the declared headers), with the
 * secret header the registration sets.
 */
let fake: Fake360;
let number: D360Number;
const CUSTOMER = { waId: "5511977775555", name: "Conformidade 360" };
const ids = new Map<string, string>();
const idOf = (key: string) => {
  if (!ids.has(key)) ids.set(key, newWamid());
  return ids.get(key)!;
};

async function deliver(broker: ServiceBroker, ref: ConnectionRef, messages: unknown[]) {
  const body = metaJson(envelope([{ wabaId: number.wabaId, changes: [{ value: messagesValue(number.pnid, { contacts: [CUSTOMER], messages }) }] }]));
  const token = `conformance:${ref.tenantId}:${ref.connectionId}`;
  const res = (await broker.call(
    "v1.channel-360.webhook",
    { token: urlToken.encode(token) },
    { stream: Readable.from([Buffer.from(body)]), meta: { headers: { "content-type": "application/json", [SECRET_HEADER]: webhookSecretOf(number.apiKey, token) } } },
  )) as { ok: boolean; accepted: number };
  if (!res.ok || res.accepted !== 1) throw new Error(`the webhook did not take a delivery with the secret header: ${JSON.stringify(res)}`);
}

runChannelConformance({
  plugin,
  async setup() {
    fake = await Fake360.start();
    number = fake.addNumber();
  },
  async teardown() {
    await fake.close();
  },
  // The fake 360dialog API listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => settingsFor(fake, number),
  to: { externalId: CUSTOMER.waId },
  media: { data: Buffer.from("%PDF-1.4 conformance 360").toString("base64"), mimeType: "application/pdf", fileName: "conformance.pdf", size: 24 },
  driver: {
    async triggerInbound(broker, ref, key) {
      await deliver(broker, ref, [{ ...textMessage(CUSTOMER, `olá ${key}`), id: idOf(key) }]);
    },
    async triggerChange(broker, ref, key, change) {
      if (change !== "reaction" && change !== "unreaction") throw new Error(`the Cloud API reports no ${change}`);
      await deliver(broker, ref, [reactionMessage(CUSTOMER, idOf(key), change === "reaction" ? "👍" : "")]);
    },
  },
});
