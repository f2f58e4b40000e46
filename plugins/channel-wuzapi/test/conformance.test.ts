import { Readable } from "node:stream";
import { runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import type { ServiceBroker } from "moleculer";
import plugin from "../src/service";
import { FakeWuzapi, type FakeUser } from "./fake-wuzapi";
import { messageEvent, newMessageId, PROTOCOL } from "./events";
import { hmacHex } from "./wire";

/**
 * The wuzapi plugin honours the channel contract (SDK conformance kit, fake core, local wuzapi
 * server). The kit has no HTTP gateway: the driver hands the plugin's webhook action a body
 * and headers the way the gateway does for its stream route (ctx.stream + the declared headers).
 */
let api: FakeWuzapi;
let user: FakeUser;
const HMAC_KEY = "conformance-hmac-key-0123456789abcdef";
const CUSTOMER = "5511977776666@s.whatsapp.net";
const ids = new Map<string, string>();

async function deliver(broker: ServiceBroker, ref: ConnectionRef, postmap: Record<string, unknown>) {
  const { body, contentType } = api.encode(user, postmap, "json");
  const res = (await broker.call(
    "v1.channel-wuzapi.webhook",
    { token: `conformance:${ref.tenantId}:${ref.connectionId}` },
    { stream: Readable.from([Buffer.from(body)]), meta: { headers: { "content-type": contentType, "x-hmac-signature": hmacHex(body, HMAC_KEY) } } },
  )) as { ok: boolean };
  if (!res.ok) throw new Error("the webhook refused a signed delivery");
}

const idOf = (key: string) => {
  if (!ids.has(key)) ids.set(key, newMessageId());
  return ids.get(key)!;
};

runChannelConformance({
  plugin,
  async setup() {
    api = await FakeWuzapi.start();
    user = api.addUser({ linked: true });
  },
  async teardown() {
    await api.close();
  },
  // The fake wuzapi listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => ({ apiUrl: api.url, sessionToken: user.token, hmacKey: HMAC_KEY, webhookFormat: "json" }),
  to: { externalId: CUSTOMER },
  media: { data: Buffer.from("%PDF-1.4 conformance").toString("base64"), mimeType: "application/pdf", fileName: "conformance.pdf", size: 20 },
  driver: {
    // wuzapi posts a Message event; a replay is the same message (same WhatsApp id) posted again.
    async triggerInbound(broker, ref, key) {
      await deliver(broker, ref, messageEvent({ id: idOf(key), chat: CUSTOMER, pushName: "Conformidade", message: { conversation: `olá ${key}` } }));
    },
    async triggerChange(broker, ref, key, change) {
      const target = { remoteJID: CUSTOMER, fromMe: false, ID: idOf(key) };
      const message =
        change === "reaction"
          ? { reactionMessage: { key: target, text: "👍", senderTimestampMS: Date.now() } }
          : change === "unreaction"
            ? { reactionMessage: { key: target, text: "", senderTimestampMS: Date.now() } }
            : change === "edit"
              ? { protocolMessage: { key: target, type: PROTOCOL.MESSAGE_EDIT, editedMessage: { conversation: "editada" } } }
              : { protocolMessage: { key: target, type: PROTOCOL.REVOKE } };
      await deliver(broker, ref, messageEvent({ chat: CUSTOMER, message, edit: change === "delete" ? "7" : change === "edit" ? "1" : "" }));
    },
  },
});
