/**
 * The WhatsApp plugin honours the channel contract (the SDK's conformance kit, its fake core),
 * run with the plugin's own database (SQLite, migrations applied as the host does) and fake
 * sockets that open as soon as they are made. The driver speaks as WhatsApp does: a customer's
 * message is an upsert; a reaction, an edit or a revoke is a message about another message;
 * a new profile picture is a contacts.update. A replay is the same message delivered again
 * after the session started over (WhatsApp redelivers what a device did not confirm); the
 * session forgets which ids it handed over when it starts over, and the core's key decides.
 */
import { proto, type WAMessage } from "@whiskeysockets/baileys";
import type { ServiceBroker } from "moleculer";
import { runChannelConformance, type ConnectionRef } from "@openatende/plugin-sdk";
import { createWhatsAppPlugin } from "../../src/service";
import { FakeClock } from "./support/fake-clock";
import { FakeSocketFactory, type FakeSocket } from "./support/fake-socket";
import { pluginDatabase, type TestDb } from "./support/db";
import { dropNamespace, SERVICE, uniqueNamespace } from "./support/node";

const CUSTOMER = "5511988887777@s.whatsapp.net";
const clock = new FakeClock(Date.now());
const factory = new FakeSocketFactory(() => clock.now());
// A linked session: the socket opens as soon as the session listens to it.
factory.onListen = (s) => s.open();
const namespace = uniqueNamespace("conformance");
let db: TestDb;
/** Message ids by the kit's key, so a replay and a change name the same message. */
const ids = new Map<string, string>();
const idOf = (key: string) => {
  if (!ids.has(key)) ids.set(key, `3EB0C0${(ids.size + 1).toString(16).toUpperCase().padStart(14, "0")}`);
  return ids.get(key)!;
};
const delivered = new Set<string>();
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

async function liveSocket(ref: ConnectionRef): Promise<FakeSocket> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const s = factory.of(ref.connectionId).filter((x) => !x.ended && x.user)[0];
    if (s) return s;
    if (Date.now() > deadline) throw new Error(`no open socket for connection ${ref.connectionId}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function fromCustomer(message: Record<string, unknown>, id?: string): WAMessage {
  return proto.WebMessageInfo.fromObject({
    key: { remoteJid: CUSTOMER, fromMe: false, id: id ?? `3EB0D${Math.random().toString(16).slice(2, 14).toUpperCase()}` },
    message,
    messageTimestamp: Math.floor(clock.now() / 1000),
    pushName: "Conformidade",
  }) as WAMessage;
}

runChannelConformance({
  plugin: createWhatsAppPlugin({ socketFactory: () => factory, clock, random: () => 0.5, sendIntervalMs: 0 }),
  async setup() {
    db = await pluginDatabase("sqlite");
  },
  async teardown() {
    await db.drop();
    await dropNamespace(namespace);
  },
  context: () => ({ namespace, database: db.address }),
  settings: { importSettings: { messages: false } },
  to: { externalId: "5511988887777" },
  media: { data: PNG, mimeType: "image/png", fileName: "pixel.png", size: 70 },
  driver: {
    async triggerInbound(broker: ServiceBroker, ref: ConnectionRef, key: string) {
      if (delivered.has(key)) {
        // The session starts over (as after a restart), then WhatsApp delivers the message again.
        await broker.call(`${SERVICE}.disconnect`, ref);
        await broker.call(`${SERVICE}.connect`, { ...ref, settings: {} });
      }
      delivered.add(key);
      (await liveSocket(ref)).upsert([fromCustomer({ conversation: `olá ${key}` }, idOf(key))], "notify");
    },
    async triggerChange(_broker, ref, key, change) {
      const target = { remoteJid: CUSTOMER, fromMe: false, id: idOf(key) };
      const sock = await liveSocket(ref);
      const ms = clock.now();
      if (change === "reaction" || change === "unreaction") {
        sock.upsert([fromCustomer({ reactionMessage: { key: target, text: change === "reaction" ? "👍" : "", senderTimestampMs: ms } })]);
      } else if (change === "edit") {
        sock.upsert([fromCustomer({ protocolMessage: { key: target, type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT, editedMessage: { conversation: "editada" }, timestampMs: ms } })]);
      } else {
        sock.upsert([fromCustomer({ protocolMessage: { key: target, type: proto.Message.ProtocolMessage.Type.REVOKE } })]);
      }
    },
    async triggerContact(_broker, ref) {
      (await liveSocket(ref)).ev.emit("contacts.update", [{ id: CUSTOMER, imgUrl: "changed" }]);
    },
  },
});
