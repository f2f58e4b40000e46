import { Readable } from "node:stream";
import { runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import type { ServiceBroker } from "moleculer";
import plugin from "../src/service";
import { FakeGraph, type FakeNumber } from "./fake-graph";
import { settingsFor } from "./helpers";
import { envelope, messagesValue, metaJson, metaSignature, newWamid, reactionMessage, textMessage } from "./meta-payloads";

/**
 * The WABA plugin honours the channel contract (SDK conformance kit, fake core, the local
 * Graph API). The kit has no HTTP gateway: the driver hands the webhook action a signed body
 * the way the gateway does for its stream route (ctx.stream + the declared headers).
 */
let graph: FakeGraph;
let number: FakeNumber;
const CUSTOMER = { waId: "5511977776666", name: "Conformidade" };
const ids = new Map<string, string>();
const idOf = (key: string) => {
  if (!ids.has(key)) ids.set(key, newWamid());
  return ids.get(key)!;
};

async function deliver(broker: ServiceBroker, ref: ConnectionRef, messages: unknown[]) {
  const body = metaJson(envelope([{ wabaId: number.wabaId, changes: [{ value: messagesValue(number.pnid, { contacts: [CUSTOMER], messages }) }] }]));
  const secret = String(settingsFor(graph, number).appSecret);
  const res = (await broker.call(
    "v1.channel-waba.webhook",
    { token: `conformance:${ref.tenantId}:${ref.connectionId}` },
    { stream: Readable.from([Buffer.from(body)]), meta: { headers: { "content-type": "application/json", "x-hub-signature-256": metaSignature(body, secret) } } },
  )) as { ok: boolean; accepted: number };
  if (!res.ok || res.accepted !== 1) throw new Error(`the webhook did not take a signed delivery: ${JSON.stringify(res)}`);
}

runChannelConformance({
  plugin,
  async setup() {
    graph = await FakeGraph.start();
    number = graph.addNumber();
  },
  async teardown() {
    await graph.close();
  },
  // The fake Graph API listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => settingsFor(graph, number),
  to: { externalId: CUSTOMER.waId },
  media: { data: Buffer.from("%PDF-1.4 conformance").toString("base64"), mimeType: "application/pdf", fileName: "conformance.pdf", size: 20 },
  driver: {
    // Meta posts the message; a replay is the same wamid posted again.
    async triggerInbound(broker, ref, key) {
      await deliver(broker, ref, [{ ...textMessage(CUSTOMER, `olá ${key}`), id: idOf(key) }]);
    },
    async triggerChange(broker, ref, key, change) {
      if (change !== "reaction" && change !== "unreaction") throw new Error(`the Cloud API reports no ${change}`);
      await deliver(broker, ref, [reactionMessage(CUSTOMER, idOf(key), change === "reaction" ? "👍" : "")]);
    },
  },
});
