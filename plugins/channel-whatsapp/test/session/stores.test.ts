/**
 * The session's state in the plugin's own tables, on a real SQLite file and a real MariaDB
 * database: creds and every Signal key type of Baileys 7 survive a round trip through another
 * connection (what a restarted or another node reads), Buffers included; app-state keys come
 * back as protobuf objects with bytes; null deletes; a set is durable when it returns; many
 * concurrent sets lose nothing; a node with an older fencing token can no longer write.
 * Also the LID directory, the message keys and the sent log.
 */
import { randomBytes } from "node:crypto";
import { addTransactionCapability, BufferJSON, Curve, initAuthCreds, makeCacheableSignalKeyStore, proto, type SignalDataSet, type WAMessage } from "@whiskeysockets/baileys";
import type { PluginData } from "@openatende/plugin-sdk";
import { FencedOffError, KEY_TYPES, TableAuthStore } from "../../src/stores/auth-state";
import { TableLidDirectory } from "../../src/stores/lid-directory";
import { TableMessageKeys } from "../../src/stores/message-keys";
import { TableSentLog } from "../../src/stores/sent-log";
import { SharedKeyCache } from "../../src/session/key-cache";
import { DIALECTS, pluginDatabase, type TestDb } from "./support/db";

const silent = { level: "silent", child: () => silent, trace() {}, debug() {}, info() {}, warn() {}, error() {} } as never;

/** One value of each key type, shaped as Baileys stores them. */
function sampleKeys(): SignalDataSet {
  const indexValueMap: Record<string, { valueMac: Buffer }> = {};
  // Big enough to overflow a 64 KB TEXT column: app-state versions grow with the account's chats.
  for (let i = 0; i < 1500; i++) indexValueMap[randomBytes(32).toString("base64")] = { valueMac: randomBytes(32) };
  return {
    "pre-key": { "1": Curve.generateKeyPair(), "2": Curve.generateKeyPair() },
    session: { "5511988887777.0": randomBytes(420) },
    "sender-key": { "120363025555555555@g.us::5511988887777::0": randomBytes(200) },
    "sender-key-memory": { "120363025555555555@g.us": { "5511988887777:0@s.whatsapp.net": true } },
    "app-state-sync-key": {
      AAAAAPmz: proto.Message.AppStateSyncKeyData.fromObject({ keyData: randomBytes(32), fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] }, timestamp: 1710082800 }),
    },
    "app-state-sync-version": { regular_high: { version: 42, hash: randomBytes(128), indexValueMap } },
    "lid-mapping": { "5511988887777": "12345678901234", "12345678901234_reverse": "5511988887777" },
    "device-list": { "5511988887777": ["0", "2", "17"] },
    tctoken: { "5511988887777@s.whatsapp.net": { token: randomBytes(24), timestamp: "1710082800" } },
    "identity-key": { "5511988887777.0": randomBytes(33) },
  } as SignalDataSet;
}

/** Values compared as BufferJSON text: Buffers and Uint8Arrays alike, byte for byte. */
const asText = (v: unknown) => JSON.stringify(v, BufferJSON.replacer);

describe.each(DIALECTS)("session state on %s", (dialect) => {
  let db: TestDb;
  let other: PluginData;
  jest.setTimeout(60_000);

  beforeAll(async () => {
    db = await pluginDatabase(dialect);
    other = await db.open();
  });
  afterAll(async () => {
    await db?.drop();
  });

  let conn = 100;
  const next = () => ++conn;

  it("keeps creds whole (keys and Buffers) and reads them back through another connection", async () => {
    const id = next();
    const store = new TableAuthStore(db.data.forTenant(1), id);
    expect(await store.loadCreds()).toBeNull();
    const creds = initAuthCreds();
    creds.registered = true;
    creds.me = { id: "5511900000000:3@s.whatsapp.net", name: "Loja" };
    creds.routingInfo = randomBytes(12);
    await store.saveCreds(creds);
    const back = await new TableAuthStore(other.forTenant(1), id).loadCreds();
    expect(asText(back)).toBe(asText(creds));
    expect(Buffer.isBuffer(back!.noiseKey.private)).toBe(true);
    expect(back!.registered).toBe(true);
  });

  it("round-trips every key type of Baileys 7, durable as soon as set returns", async () => {
    const id = next();
    const store = new TableAuthStore(db.data.forTenant(1), id);
    const keys = sampleKeys();
    expect(Object.keys(keys).sort()).toEqual([...KEY_TYPES].sort());
    await store.keys.set(keys);
    const reader = new TableAuthStore(other.forTenant(1), id);
    for (const type of KEY_TYPES) {
      const ids = Object.keys(keys[type]!);
      const got = await reader.keys.get(type, [...ids, "never-stored"]);
      expect(Object.keys(got).sort()).toEqual([...ids].sort());
      for (const k of ids) expect(asText(got[k])).toBe(asText(keys[type]![k]));
    }
    const [syncKey] = Object.values(await reader.keys.get("app-state-sync-key", ["AAAAAPmz"]));
    // fromObject, not create: bytes come back as bytes (base64 strings break the app-state MACs).
    expect(syncKey).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(syncKey.keyData).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(syncKey.keyData!).equals(Buffer.from((keys["app-state-sync-key"]!.AAAAAPmz as { keyData: Uint8Array }).keyData))).toBe(true);
  });

  it("deletes a key set to null, and only that key", async () => {
    const id = next();
    const store = new TableAuthStore(db.data.forTenant(1), id);
    await store.keys.set({ "pre-key": { "1": Curve.generateKeyPair(), "2": Curve.generateKeyPair() } });
    await store.keys.set({ "pre-key": { "1": null } });
    expect(Object.keys(await new TableAuthStore(other.forTenant(1), id).keys.get("pre-key", ["1", "2"]))).toEqual(["2"]);
  });

  it("loses no write of many concurrent sets; the last set of one key wins", async () => {
    const id = next();
    const store = new TableAuthStore(db.data.forTenant(1), id);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        store.keys.set({ session: { [`peer${i}.0`]: Buffer.from([i]), "shared.0": Buffer.from([i]) }, "device-list": { [`u${i}`]: [String(i)] } }),
      ),
    );
    const reader = new TableAuthStore(other.forTenant(1), id);
    const sessions = await reader.keys.get("session", [...Array.from({ length: 40 }, (_, i) => `peer${i}.0`), "shared.0"]);
    expect(Object.keys(sessions)).toHaveLength(41);
    expect(Buffer.from(sessions["shared.0"]).toJSON().data).toEqual([39]);
    expect(Object.keys(await reader.keys.get("device-list", Array.from({ length: 40 }, (_, i) => `u${i}`)))).toHaveLength(40);
  });

  it("works behind Baileys' own cacheable store and transactions (the socket's view of it)", async () => {
    const id = next();
    const store = new TableAuthStore(db.data.forTenant(1), id);
    const cache = new SharedKeyCache({ max: 100 });
    const keys = addTransactionCapability(makeCacheableSignalKeyStore(store.keys, silent, cache.view(`1:${id}`)), silent, { maxCommitRetries: 2, delayBetweenTriesMs: 10 });
    const pair = Curve.generateKeyPair();
    await keys.transaction(async () => {
      await keys.set({ "pre-key": { "9": pair }, "lid-mapping": { "5511977776666": "99887766554433" } });
    }, "pre-key");
    const reader = new TableAuthStore(other.forTenant(1), id);
    expect(asText((await reader.keys.get("pre-key", ["9"]))["9"])).toBe(asText(pair));
    expect(await reader.keys.get("lid-mapping", ["5511977776666"])).toEqual({ "5511977776666": "99887766554433" });
    // The shared cache keeps sessions apart: another connection's view has none of it.
    expect(cache.view(`1:${id + 1}`).get("pre-key.9")).toBeUndefined();
  });

  it("wipes a session (creds and keys) and leaves other tenants' and connections' alone", async () => {
    const id = next();
    const mine = new TableAuthStore(db.data.forTenant(1), id);
    const otherTenant = new TableAuthStore(db.data.forTenant(2), id);
    for (const s of [mine, otherTenant]) {
      await s.saveCreds(initAuthCreds());
      await s.keys.set({ session: { "a.0": randomBytes(8) } });
    }
    await mine.wipe();
    expect(await mine.hasSession()).toBe(false);
    expect(await mine.keys.get("session", ["a.0"])).toEqual({});
    expect(await otherTenant.hasSession()).toBe(true);
    expect(Object.keys(await otherTenant.keys.get("session", ["a.0"]))).toEqual(["a.0"]);
  });

  it("refuses writes made with an older fencing token once a newer owner claimed the session", async () => {
    const id = next();
    const old = new TableAuthStore(db.data.forTenant(1), id, { fence: 3 });
    await old.claim();
    await old.saveCreds(initAuthCreds());
    const newer = new TableAuthStore(other.forTenant(1), id, { fence: 4 });
    await newer.claim();
    await expect(old.saveCreds(initAuthCreds())).rejects.toBeInstanceOf(FencedOffError);
    await expect(old.keys.set({ session: { "x.0": randomBytes(4) } })).rejects.toBeInstanceOf(FencedOffError);
    await expect(old.claim()).rejects.toBeInstanceOf(FencedOffError);
    await newer.keys.set({ session: { "y.0": randomBytes(4) } });
    expect(Object.keys(await newer.keys.get("session", ["x.0", "y.0"]))).toEqual(["y.0"]);
  });

  it("LID directory: a new pair is news once, is found again, and Baileys' own mappings are read too", async () => {
    const id = next();
    const auth = new TableAuthStore(db.data.forTenant(1), id);
    const lids = new TableLidDirectory(db.data.forTenant(1), id, auth.keys);
    const twice = await Promise.all([lids.remember("12345678901234@lid", "5511988887777@s.whatsapp.net"), lids.remember("12345678901234:2@lid", "5511988887777:2@s.whatsapp.net")]);
    expect(twice.filter(Boolean)).toHaveLength(1);
    expect(await lids.remember("12345678901234@lid", "5511988887777@s.whatsapp.net")).toBe(false);
    expect(await new TableLidDirectory(other.forTenant(1), id).phoneOf("12345678901234@lid")).toBe("5511988887777@s.whatsapp.net");
    expect(await new TableLidDirectory(other.forTenant(2), id).phoneOf("12345678901234@lid")).toBeUndefined();
    await auth.keys.set({ "lid-mapping": { "55555555555555_reverse": "5511933332222" } });
    expect(await lids.phoneOf("55555555555555@lid")).toBe("5511933332222@s.whatsapp.net");
  });

  it("message keys: key and content (Buffers) come back; a later sighting without content keeps it", async () => {
    const id = next();
    const keys = new TableMessageKeys(db.data.forTenant(1), id);
    const thumb = randomBytes(300);
    const msg = proto.WebMessageInfo.fromObject({
      message: { imageMessage: { caption: "foto", mimetype: "image/jpeg", jpegThumbnail: thumb } },
      messageTimestamp: 1710082800,
    }) as WAMessage;
    // 7.x keys carry the alt JID beside the protobuf fields (set by Baileys on decode).
    msg.key = { remoteJid: "5511988887777@s.whatsapp.net", fromMe: false, id: "3EB0AAA1", remoteJidAlt: "12345678901234@lid" };
    const many = Array.from({ length: 30 }, (_, i) => proto.WebMessageInfo.fromObject({ key: { remoteJid: "5511988887777@s.whatsapp.net", id: `3EB0B${i}` }, message: { conversation: `m${i}` }, messageTimestamp: 1710082800 + i }) as WAMessage);
    await Promise.all([keys.remember(msg), ...many.map((m) => keys.remember(m))]);
    await keys.remember({ key: msg.key, messageStubType: 1 } as WAMessage);
    const reader = new TableMessageKeys(other.forTenant(1), id);
    expect(await reader.keyOf("3EB0AAA1")).toEqual({ remoteJid: "5511988887777@s.whatsapp.net", fromMe: false, id: "3EB0AAA1", remoteJidAlt: "12345678901234@lid" });
    const content = await reader.messageOf("3EB0AAA1");
    expect(Buffer.from(content!.imageMessage!.jpegThumbnail!).equals(thumb)).toBe(true);
    expect((await reader.messageOf("3EB0B29"))?.conversation).toBe("m29");
    expect(await new TableMessageKeys(other.forTenant(2), id).keyOf("3EB0AAA1")).toBeUndefined();
  });

  it("sent log: the same message id is sent once, also when asked twice at once; other content is a new send", async () => {
    const id = next();
    const log = new TableSentLog(db.data.forTenant(1), id);
    let sends = 0;
    const send = async () => ({ providerMessageId: `WA${++sends}`, timestamp: 1710082800000 });
    const [a, b] = await Promise.all([log.once(77, ["5511", { kind: "text", body: "oi" }], send), log.once(77, ["5511", { kind: "text", body: "oi" }], send)]);
    const c = await new TableSentLog(other.forTenant(1), id).once(77, ["5511", { kind: "text", body: "oi" }], send);
    expect([a, b, c].map((r) => r.providerMessageId)).toEqual(["WA1", "WA1", "WA1"]);
    expect((await log.once(77, ["5511", { kind: "text", body: "outro" }], send)).providerMessageId).toBe("WA2");
    expect(sends).toBe(2);
  });
});
