/**
 * The channel's saved state in Redis belongs to the installation: keys under the context's
 * redisPrefix (`<namespace>:<installation id>`), so two installations sharing one Redis and
 * one NAMESPACE keep their cursors, seen ids and threads apart; and the state written before
 * redisPrefix (under `<namespace>` alone) is carried over once, not lost on upgrade.
 */
import Redis from "ioredis";
import { EmailStore, type SyncCursor } from "../src/store";
import { uid } from "./support/mail";

const ref = { tenantId: 7, connectionId: 42 };
const cursor: SyncCursor = { account: "imap://u@h", uidValidity: "1700", lastUid: 9, lastDate: 1_700_000_000_000 };

let redis: Redis;
let namespace: string;

beforeAll(() => {
  redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
});
beforeEach(() => {
  namespace = `oa-email-store-${uid()}`;
});
afterEach(async () => {
  const keys = await redis.keys(`${namespace}:*`);
  if (keys.length) await redis.del(...keys);
});
afterAll(() => redis.disconnect());

describe("EmailStore keys", () => {
  it("keeps two installations on one Redis and one namespace apart", async () => {
    const a = new EmailStore(() => redis, `${namespace}:inst-a`, namespace);
    const b = new EmailStore(() => redis, `${namespace}:inst-b`, namespace);
    await a.setCursor(ref, cursor);
    await a.markSeen(ref, "<m1@x>");
    await a.noteOutbound(ref, "Ana@x.com", { messageId: "<out1@x>", subject: "Oi" });

    expect(await b.getCursor(ref)).toBeNull();
    expect(await b.wasSeen(ref, "<m1@x>")).toBe(false);
    expect(await b.getThread(ref, "ana@x.com")).toBeNull();
    await b.setCursor(ref, { ...cursor, lastUid: 1 });
    expect((await a.getCursor(ref))?.lastUid).toBe(9);
    expect((await redis.keys(`${namespace}:inst-a:channel-email:*`)).length).toBe(3);
    expect((await redis.keys(`${namespace}:inst-b:channel-email:*`)).length).toBe(1);

    await b.forget(ref);
    expect((await a.getCursor(ref))?.lastUid).toBe(9);
  });

  it("carries the state saved under the namespace alone over to the installation's keys, once", async () => {
    const old = (what: string) => `${namespace}:channel-email:${ref.tenantId}:${ref.connectionId}:${what}`;
    // What a version before redisPrefix left.
    const before = new EmailStore(() => redis, namespace);
    await before.setCursor(ref, cursor);
    await before.markSeen(ref, "<m1@x>");
    await before.noteInbound(ref, "ana@x.com", { messageId: "<in1@x>", subject: "Pedido", references: [], inReplyTo: null });
    expect(await redis.exists(old("cursor"), old("seen"), old("thread:ana@x.com"))).toBe(3);

    const now = new EmailStore(() => redis, `${namespace}:inst-a`, namespace);
    expect(await now.getCursor(ref)).toEqual(cursor);
    expect(await now.wasSeen(ref, "<m1@x>")).toBe(true);
    expect((await now.getThread(ref, "ana@x.com"))?.lastInbound).toBe("<in1@x>");
    // Renamed, not copied: the old keys are gone, the thread's expiry went along.
    expect(await redis.exists(old("cursor"), old("seen"), old("thread:ana@x.com"))).toBe(0);
    expect(await redis.ttl(`${namespace}:inst-a:channel-email:7:42:thread:ana@x.com`)).toBeGreaterThan(0);

    // Once: a key written under the new name is never replaced by an old one met later.
    await now.setCursor(ref, { ...cursor, lastUid: 20 });
    await redis.set(old("cursor"), JSON.stringify({ ...cursor, lastUid: 3 }));
    expect((await now.getCursor(ref))?.lastUid).toBe(20);
    const restarted = new EmailStore(() => redis, `${namespace}:inst-a`, namespace);
    expect((await restarted.getCursor(ref))?.lastUid).toBe(20);
  });

  it("has nothing to carry over when the context has no installation id (redisPrefix = namespace)", async () => {
    const s = new EmailStore(() => redis, namespace, namespace);
    await s.setCursor(ref, cursor);
    expect(await s.getCursor(ref)).toEqual(cursor);
    expect(await redis.keys(`${namespace}:*`)).toEqual([`${namespace}:channel-email:7:42:cursor`]);
  });
});
