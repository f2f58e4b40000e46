/**
 * The plugin's service on one node (a real broker, the SDK's fake core, fake sockets, the real
 * database and Redis): sends while disconnected, sends repeated by the core, the echo of our
 * own sends, inbound upserts live and offline, undecryptable messages, acks and LID merges,
 * tenant isolation of events, and the connection form's actions.
 */
import { proto } from "@whiskeysockets/baileys";
import type { StatusResult } from "@openatende/plugin-sdk";
import { settle, until } from "./support/fake-clock";
import { pluginDatabase, type TestDb } from "./support/db";
import { textMessage, undecryptable, type FakeSocket } from "./support/fake-socket";
import { dropNamespace, SERVICE, startNode, token, uniqueNamespace, type TestNode } from "./support/node";

let db: TestDb;
let node: TestNode;
const namespace = uniqueNamespace("channel");
let conn = 40;
jest.setTimeout(30_000);

beforeAll(async () => {
  db = await pluginDatabase("sqlite");
  node = await startNode({ nodeID: "wa-a", namespace, db, withCore: true });
});
afterAll(async () => {
  await node?.stop();
  await db?.drop();
  await dropNamespace(namespace);
});

const core = () => node.core!;
const admin = (tenantId: number) => ({ meta: { user: { tenantId, id: 1, profile: "admin" } } });

/** Connects a connection of `tenantId` and opens its socket. */
async function connected(tenantId = 3, settings: Record<string, unknown> = {}): Promise<{ ref: { tenantId: number; connectionId: number }; sock: FakeSocket }> {
  const ref = { tenantId, connectionId: ++conn };
  const res = await node.call<StatusResult>(`${SERVICE}.connect`, { ...ref, settings, token: token(tenantId, ref.connectionId) });
  expect(res.status).toBe("connecting");
  const sock = node.factory.of(ref.connectionId)[0];
  sock.open();
  await until("connected", () => core().statuses.some((s) => s.connectionId === ref.connectionId && s.status === "connected"));
  return { ref, sock };
}

const inboundOf = (connectionId: number) => core().inbound.filter((m) => m.connectionId === connectionId);

describe("connecting", () => {
  it("many connects of one connection at once on one node make one socket; connecting again later keeps it", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    const params = { ...ref, settings: {}, token: token(3, ref.connectionId) };
    const answers = await Promise.all(Array.from({ length: 8 }, () => node.call<StatusResult>(`${SERVICE}.connect`, params)));
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set(["connecting"]));
    expect(node.factory.of(ref.connectionId)).toHaveLength(1);
    node.factory.of(ref.connectionId)[0].open();
    await settle();
    expect(await node.call<StatusResult>(`${SERVICE}.connect`, params)).toMatchObject({ status: "connected" });
    expect(node.factory.of(ref.connectionId)).toHaveLength(1);
  });

  it("settings the schema cannot catch are refused with a detail, and nothing is started", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    const res = await node.call<StatusResult>(`${SERVICE}.connect`, { ...ref, settings: { importSettings: { from: "2024-05-01", to: "2024-01-01" } } });
    expect(res).toMatchObject({ status: "disconnected", detail: "[settings] importSettings.from must not be after importSettings.to" });
    expect(node.factory.of(ref.connectionId)).toHaveLength(0);
  });
});

describe("sending", () => {
  it("refuses to send while the session is not connected: ERR_SESSION_NOT_INITIALIZED (409), nothing sent", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    const send = () => node.call(`${SERVICE}.send`, { ...ref, to: { externalId: "5511988887777" }, message: { kind: "text", body: "oi" }, messageId: 5 });
    await expect(send()).rejects.toMatchObject({ type: "ERR_SESSION_NOT_INITIALIZED", code: 409 });
    await node.call(`${SERVICE}.connect`, { ...ref, settings: {} });
    await expect(send()).rejects.toMatchObject({ type: "ERR_SESSION_NOT_INITIALIZED", code: 409 });
    const sock = node.factory.of(ref.connectionId)[0];
    sock.open();
    await settle();
    sock.close(428);
    await settle();
    await expect(send()).rejects.toMatchObject({ type: "ERR_SESSION_NOT_INITIALIZED", code: 409 });
    expect(node.factory.of(ref.connectionId).flatMap((s) => s.sent)).toHaveLength(0);
  });

  it("sends a message the core hands over twice (same messageId) once, and answers the first send's id", async () => {
    const { ref, sock } = await connected();
    const params = { ...ref, to: { externalId: "5511988887777" }, message: { kind: "text", body: "pedido 1" }, messageId: 901 };
    const [a, b] = await Promise.all([node.call<{ providerMessageId: string }>(`${SERVICE}.send`, params), node.call<{ providerMessageId: string }>(`${SERVICE}.send`, params)]);
    const c = await node.call<{ providerMessageId: string; timestamp: number }>(`${SERVICE}.send`, params);
    expect(sock.sent).toHaveLength(1);
    expect(sock.sent[0]).toMatchObject({ jid: "5511988887777@s.whatsapp.net", content: { text: "pedido 1" } });
    expect(new Set([a.providerMessageId, b.providerMessageId, c.providerMessageId])).toEqual(new Set([sock.sent[0].message.key.id]));
    expect(c.timestamp).toBeGreaterThan(1e12);
  });

  it("a sticker (the manifest declares it) goes to the socket as WhatsApp's sticker; a PNG as a sticker is refused, nothing sent", async () => {
    const { ref, sock } = await connected();
    const webp = Buffer.from("UklGRiwAAABXRUJQVlA4TB8AAAAv/8F/EAcQEREQCCT7e89QRP8z/vOf//znP//5z/8BAA==", "base64");
    const media = { data: webp.toString("base64"), mimeType: "image/webp", fileName: "figurinha.webp", size: webp.length };
    const res = await node.call<{ providerMessageId: string }>(`${SERVICE}.send`, { ...ref, to: { externalId: "5511988887777" }, message: { kind: "sticker", media }, messageId: 903 });
    expect(sock.sent).toHaveLength(1);
    expect(sock.sent[0]).toMatchObject({ jid: "5511988887777@s.whatsapp.net", content: { sticker: webp, mimetype: "image/webp" } });
    expect(res.providerMessageId).toBe(sock.sent[0].message.key.id);
    const png = { ...media, mimeType: "image/png", fileName: "foto.png" };
    await expect(node.call(`${SERVICE}.send`, { ...ref, to: { externalId: "5511988887777" }, message: { kind: "sticker", media: png }, messageId: 904 })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });
    expect(sock.sent).toHaveLength(1);
  });

  it("never takes the echo of its own send for a message written on the phone", async () => {
    const { ref, sock } = await connected();
    await node.call(`${SERVICE}.send`, { ...ref, to: { externalId: "5511988887777" }, message: { kind: "text", body: "eco" }, messageId: 902 });
    await settle(10);
    const phone = textMessage({ fromMe: true, text: "escrito no celular", at: node.clock.now() });
    sock.upsert([phone], "append");
    await until("the phone's message", () => inboundOf(ref.connectionId).length === 1);
    expect(inboundOf(ref.connectionId)[0]).toMatchObject({ providerMessageId: phone.key.id, fromMe: true, body: "escrito no celular" });
  });
});

describe("inbound", () => {
  it("takes both live (notify) and offline (append) upserts, each batch in time order, each id once", async () => {
    const { ref, sock } = await connected();
    const t = node.clock.now();
    const later = textMessage({ text: "segunda", at: t + 2000 });
    const earlier = textMessage({ text: "primeira", at: t + 1000 });
    sock.upsert([later, earlier, later], "append");
    sock.upsert([textMessage({ text: "ao vivo", at: t + 3000 })], "notify");
    sock.upsert([earlier], "notify");
    await until("three messages", () => inboundOf(ref.connectionId).length === 3);
    await settle(10);
    expect(inboundOf(ref.connectionId).map((m) => m.body)).toEqual(["primeira", "segunda", "ao vivo"]);
  });

  it("counts undecryptable messages in the health and hands them over never (their real content comes later under the same id)", async () => {
    const { ref, sock } = await connected();
    const id = "3EB0BADMAC0000000001";
    sock.upsert([undecryptable({ id }), undecryptable({})], "notify");
    await until("the count", async () => (await node.call<{ decryptionErrors: number }>(`${SERVICE}.health`, { token: token(ref.tenantId, ref.connectionId) }, admin(ref.tenantId))).decryptionErrors === 2);
    expect(inboundOf(ref.connectionId)).toHaveLength(0);
    sock.upsert([textMessage({ id, text: "agora sim" })], "notify");
    await until("the retried message", () => inboundOf(ref.connectionId).length === 1);
    expect(inboundOf(ref.connectionId)[0]).toMatchObject({ providerMessageId: id, body: "agora sim" });
  });

  it("acks reach the core; a learnt LID merges the LID contact into the phone one", async () => {
    const { ref, sock } = await connected();
    sock.ev.emit("messages.update", [{ key: { remoteJid: "5511988887777@s.whatsapp.net", fromMe: true, id: "3EB0ACK1" }, update: { status: proto.WebMessageInfo.Status.READ } }]);
    sock.ev.emit("lid-mapping.update", { lid: "12345678901234@lid", pn: "5511988887777@s.whatsapp.net" });
    await until("the ack", () => core().acks.some((a) => a.connectionId === ref.connectionId && a.providerMessageId === "3EB0ACK1" && a.status === "read"));
    await until("the merge", () => core().contacts.some((c) => c.connectionId === ref.connectionId && c.previousExternalId === "12345678901234@lid"));
    expect(core().contacts.find((c) => c.connectionId === ref.connectionId)).toMatchObject({ externalId: "5511988887777", phone: "5511988887777" });
  });

  it("keeps tenants apart: what one tenant's socket says never reaches another tenant's connection", async () => {
    const a = await connected(3);
    const b = await connected(4);
    a.sock.upsert([textMessage({ text: "só do A" })], "notify");
    a.sock.ev.emit("messages.update", [{ key: { remoteJid: "5511988887777@s.whatsapp.net", fromMe: true, id: "3EB0ACKA" }, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } }]);
    await until("A's message and ack", () => inboundOf(a.ref.connectionId).length === 1 && core().acks.some((x) => x.providerMessageId === "3EB0ACKA"));
    await settle(10);
    expect(inboundOf(a.ref.connectionId)[0].tenantId).toBe(3);
    expect(core().inbound.filter((m) => m.tenantId === 4 || m.connectionId === b.ref.connectionId)).toHaveLength(0);
    expect(core().acks.filter((x) => x.providerMessageId === "3EB0ACKA").map((x) => [x.tenantId, x.connectionId])).toEqual([[3, a.ref.connectionId]]);
    // The other tenant's admin cannot see A's session by A's token either.
    await expect(node.call(`${SERVICE}.health`, { token: token(3, a.ref.connectionId) }, admin(4))).rejects.toMatchObject({ type: "ERR_CONNECTION_NOT_FOUND", code: 404 });
  });
});

describe("the connection form's actions", () => {
  it("pairing code: asked for an unlinked connection, answered with WhatsApp's code and reported as pairing", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    await node.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) });
    const sock = node.factory.of(ref.connectionId)[0];
    sock.qr();
    await until("the QR", () => core().statuses.some((s) => s.connectionId === ref.connectionId && s.status === "qrcode"));
    const res = await node.call<{ code: string; status: StatusResult }>(`${SERVICE}.pairingCode`, { token: token(3, ref.connectionId), phone: "+55 11 98888-7777" }, admin(3));
    expect(res.code).toBe("K7QX2MPA");
    expect(res.status).toMatchObject({ status: "pairing" });
    expect(sock.pairingRequests).toEqual(["5511988887777"]);
    await expect(node.call(`${SERVICE}.pairingCode`, { token: token(3, ref.connectionId), phone: "5511988887777" }, admin(5))).rejects.toMatchObject({ code: 404 });
  });

  it("reset: the linked session is logged out and wiped, and a new link starts", async () => {
    const { ref, sock } = await connected();
    sock.ev.emit("creds.update", { registered: true, me: { id: "5511900000000:3@s.whatsapp.net" } });
    const res = await node.call<StatusResult>(`${SERVICE}.reset`, { token: token(ref.tenantId, ref.connectionId) }, admin(ref.tenantId));
    expect(res.status).toBe("connecting");
    expect(sock.loggedOut).toBe(true);
    const next = node.factory.of(ref.connectionId);
    expect(next).toHaveLength(2);
    expect(next[1].opts.auth.creds.registered).toBe(false);
  });

  it("health: counters of the session for its tenant's admins", async () => {
    const { ref, sock } = await connected();
    sock.upsert([textMessage({ text: "oi" })], "notify");
    await until("the message", () => inboundOf(ref.connectionId).length === 1);
    const h = await node.call<Record<string, unknown>>(`${SERVICE}.health`, { token: token(ref.tenantId, ref.connectionId) }, admin(ref.tenantId));
    expect(h).toMatchObject({ tenantId: 3, connectionId: ref.connectionId, status: "connected", node: "wa-a", inbound: 1, reconnects: 0, decryptionErrors: 0, phone: "5511900000000" });
    expect(h.lastInboundAt).toBe(node.clock.now());
  });

  it("disconnect ends the socket without logging out and says disconnected", async () => {
    const { ref, sock } = await connected();
    const res = await node.call<StatusResult>(`${SERVICE}.disconnect`, ref);
    expect(res.status).toBe("disconnected");
    expect(sock.ended).toBe(true);
    expect(sock.loggedOut).toBe(false);
    expect(await node.call<StatusResult>(`${SERVICE}.status`, ref)).toMatchObject({ status: "disconnected" });
  });
});
