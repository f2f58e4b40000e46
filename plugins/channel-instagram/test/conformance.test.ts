import { Readable } from "node:stream";
import { hmacSignatureOf, runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import type { ServiceBroker } from "moleculer";
import plugin from "../src/service";
import { FakeGraph, newMid, type FakeAccount } from "./fake-graph";
import { settingsFor } from "./helpers";

/**
 * The Instagram plugin honours the channel contract (SDK conformance kit, fake core, the
 * local Graph API). The kit has no HTTP gateway: the driver hands the webhook action a signed
 * body the way the gateway does for its stream route (ctx.stream + the declared headers).
 */
let graph: FakeGraph;
let account: FakeAccount;
const CUSTOMER = "7000000000000001";
const mids = new Map<string, string>();
const midOf = (key: string) => {
  if (!mids.has(key)) mids.set(key, newMid());
  return mids.get(key)!;
};

async function deliver(broker: ServiceBroker, ref: ConnectionRef, key: string) {
  const body = graph.envelope(account, [graph.message(account, CUSTOMER, { mid: midOf(key), text: `olá ${key}` })]);
  const secret = String(settingsFor(graph, account).appSecret);
  const res = (await broker.call(
    "v1.channel-instagram.webhook",
    { token: `conformance:${ref.tenantId}:${ref.connectionId}` },
    { stream: Readable.from([Buffer.from(body)]), meta: { headers: { "content-type": "application/json", "x-hub-signature-256": hmacSignatureOf(body, secret) } } },
  )) as { ok: boolean; results: string[] };
  if (!res.ok || !["stored", "duplicate"].includes(res.results[0])) throw new Error(`the webhook did not take a signed delivery: ${JSON.stringify(res)}`);
}

runChannelConformance({
  plugin,
  async setup() {
    graph = await FakeGraph.start();
    account = graph.addAccount();
    graph.addUser("Conformidade", CUSTOMER);
  },
  async teardown() {
    await graph.close();
  },
  // The fake Graph API listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => settingsFor(graph, account),
  to: { externalId: CUSTOMER },
  media: { url: "https://cdn.example.com/conformance.png", mimeType: "image/png", fileName: "conformance.png", size: 68 },
  driver: {
    triggerInbound: deliver,
  },
});
