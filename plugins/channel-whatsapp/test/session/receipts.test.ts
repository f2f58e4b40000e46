/**
 * The contract's optional actions on the plugin's service (one node, the SDK's fake core, fake
 * sockets, the real database and Redis): read receipts with the keys the plugin stored for the
 * messages it received, and a number asked on WhatsApp.
 */
import { baileys } from "../../src/session/baileys";
import type { StatusResult } from "@openatende/plugin-sdk";
import { settle, until } from "./support/fake-clock";
import { pluginDatabase, type TestDb } from "./support/db";
import { textMessage, type FakeSocket } from "./support/fake-socket";
import { dropNamespace, SERVICE, startNode, token, uniqueNamespace, type TestNode } from "./support/node";

let db: TestDb;
let node: TestNode;
const namespace = uniqueNamespace("receipts");
let conn = 70;
jest.setTimeout(30_000);

beforeAll(async () => {
  db = await pluginDatabase("sqlite");
  node = await startNode({ nodeID: "wa-r", namespace, db, withCore: true });
});
afterAll(async () => {
  await node?.stop();
  await db?.drop();
  await dropNamespace(namespace);
});

const core = () => node.core!;
const inboundOf = (connectionId: number) => core().inbound.filter((m) => m.connectionId === connectionId);

async function connected(tenantId = 3): Promise<{ ref: { tenantId: number; connectionId: number }; sock: FakeSocket }> {
  const ref = { tenantId, connectionId: ++conn };
  const res = await node.call<StatusResult>(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(tenantId, ref.connectionId) });
  expect(res.status).toBe("connecting");
  const sock = node.factory.of(ref.connectionId)[0];
  sock.open();
  await until("connected", () => core().statuses.some((s) => s.connectionId === ref.connectionId && s.status === "connected"));
  return { ref, sock };
}

/** A group message as Baileys upserts it: the group is the chat, the member the participant. */
function groupMessage(o: { id: string; group: string; participant: string; at: number }) {
  return baileys().proto.WebMessageInfo.fromObject({
    key: { remoteJid: o.group, fromMe: false, id: o.id, participant: o.participant },
    message: { conversation: "no grupo" },
    messageTimestamp: Math.floor(o.at / 1000),
    pushName: "Membro",
  });
}

describe("markRead", () => {
  it("reads the customer's messages with the keys stored when they arrived; a group's with each sender; unknown and own ids are left out", async () => {
    const { ref, sock } = await connected();
    const t = node.clock.now();
    const chat = "5511977776666@s.whatsapp.net";
    const group = "120363000000000077@g.us";
    const member = "5511955554444@s.whatsapp.net";
    sock.upsert([textMessage({ id: "IN-1", from: chat, at: t + 1000 }), textMessage({ id: "IN-2", from: chat, at: t + 2000 })], "notify");
    sock.upsert([groupMessage({ id: "GR-1", group, participant: member, at: t + 3000 }) as never], "notify");
    await until("three messages", () => inboundOf(ref.connectionId).length === 3);
    const sent = await node.call<{ providerMessageId: string }>(`${SERVICE}.send`, { ...ref, to: { externalId: "5511977776666" }, message: { kind: "text", body: "oi" }, messageId: 901 });
    await settle(10);

    const one = await node.call(`${SERVICE}.markRead`, { ...ref, to: { externalId: "5511977776666" }, providerMessageIds: ["IN-1", "IN-2", "NEVER-SEEN", sent.providerMessageId] });
    expect(one).toEqual({ sent: 2 });
    expect(sock.readKeys).toEqual([
      [
        { remoteJid: chat, id: "IN-1", fromMe: false },
        { remoteJid: chat, id: "IN-2", fromMe: false },
      ],
    ]);
    expect(await node.call(`${SERVICE}.markRead`, { ...ref, to: { externalId: group }, providerMessageIds: ["GR-1"] })).toEqual({ sent: 1 });
    expect(sock.readKeys[1]).toEqual([{ remoteJid: group, id: "GR-1", fromMe: false, participant: member }]);
    // Nothing known: no call to WhatsApp at all.
    expect(await node.call(`${SERVICE}.markRead`, { ...ref, to: { externalId: group }, providerMessageIds: ["NEVER-SEEN"] })).toEqual({ sent: 0 });
    expect(sock.readKeys).toHaveLength(2);
  });

  it("is best effort: a connection not connected answers sent 0 and queues nothing for later", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    const params = { ...ref, to: { externalId: "5511977776666" }, providerMessageIds: ["IN-1"] };
    expect(await node.call(`${SERVICE}.markRead`, params)).toEqual({ sent: 0 });
    await node.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) });
    expect(await node.call(`${SERVICE}.markRead`, params)).toEqual({ sent: 0 });
    const sock = node.factory.of(ref.connectionId)[0];
    sock.open();
    await settle();
    expect(sock.readKeys).toEqual([]);
  });

  it("refuses params outside the contract (no ids, more than 100)", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    for (const providerMessageIds of [[], Array.from({ length: 101 }, (_, i) => `ID-${i}`)]) {
      await expect(node.call(`${SERVICE}.markRead`, { ...ref, to: { externalId: "5511977776666" }, providerMessageIds })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    }
  });
});

describe("checkNumber", () => {
  it("answers whether the number has an account, with the identity WhatsApp knows; a malformed number is ERR_CONTACT_NUMBER_INVALID", async () => {
    const { ref, sock } = await connected();
    sock.notOnWhatsApp.add("5511911112222");
    expect(await node.call(`${SERVICE}.checkNumber`, { ...ref, number: "5511933334444" })).toEqual({ exists: true, externalId: "5511933334444" });
    expect(await node.call(`${SERVICE}.checkNumber`, { ...ref, number: "5511911112222" })).toEqual({ exists: false });
    await expect(node.call(`${SERVICE}.checkNumber`, { ...ref, number: "1234567" })).rejects.toMatchObject({ type: "ERR_CONTACT_NUMBER_INVALID", code: 400 });
  });

  it("a connection not connected answers ERR_SESSION_NOT_INITIALIZED (409)", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    await expect(node.call(`${SERVICE}.checkNumber`, { ...ref, number: "5511933334444" })).rejects.toMatchObject({ type: "ERR_SESSION_NOT_INITIALIZED", code: 409 });
  });
});
