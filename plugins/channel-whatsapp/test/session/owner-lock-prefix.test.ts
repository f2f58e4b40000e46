/**
 * The owner locks' keys belong to the installation (the context's redisPrefix). What outlives
 * a restart under the prefix of before (the namespace alone) is carried over: a session's fence
 * counter (a new one starting at 1 would be refused by the session's stored state) and the
 * wanted registry. A lock still held under the old name is respected while it lives; two
 * installations on one Redis and one namespace never meet.
 */
import Redis from "ioredis";
import { OwnerLocks } from "../../src/session/owner-lock";
import { systemClock } from "../../src/session/clock";
import { uniqueNamespace } from "./support/node";

const ref = { tenantId: 3, connectionId: 9 };
const log = { warn: () => undefined };
let redis: Redis;
let ns: string;
const locks = (prefix: string, legacyPrefix?: string, nodeId = "n1") => new OwnerLocks({ redis, prefix, legacyPrefix, nodeId, ttlMs: 60_000, clock: systemClock, log });

beforeAll(() => {
  redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
});
beforeEach(() => {
  ns = uniqueNamespace("prefix");
});
afterEach(async () => {
  const keys = await redis.keys(`${ns}:*`);
  if (keys.length) await redis.del(...keys);
});
afterAll(() => redis.disconnect());

it("carries the fence counter and the wanted registry of before redisPrefix over", async () => {
  const legacy = `${ns}:channel-whatsapp`;
  await redis.set(`${legacy}:fence:3:9`, "41");
  await redis.hset(`${legacy}:wanted`, "3:9", JSON.stringify({ ...ref, token: "t" }));

  const now = locks(`${ns}:inst-a:channel-whatsapp`, legacy);
  expect(await now.wanted()).toEqual([{ ...ref, token: "t" }]);
  const lock = await now.acquire(ref);
  expect(lock?.fence).toBe(42);
  await lock?.release();
  expect(await redis.exists(`${legacy}:fence:3:9`, `${legacy}:wanted`)).toBe(0);
  expect(await redis.get(`${ns}:inst-a:channel-whatsapp:fence:3:9`)).toBe("42");
});

it("does not take a session whose lock a node of the version before still holds", async () => {
  const legacy = `${ns}:channel-whatsapp`;
  await redis.set(`${legacy}:owner:3:9`, "old-node|5", "PX", 60_000);
  expect(await locks(`${ns}:inst-a:channel-whatsapp`, legacy).acquire(ref)).toBeNull();
  await redis.del(`${legacy}:owner:3:9`);
  expect((await locks(`${ns}:inst-a:channel-whatsapp`, legacy).acquire(ref))?.fence).toBe(1);
});

it("keeps two installations on one Redis and one namespace apart", async () => {
  const legacy = `${ns}:channel-whatsapp`;
  const a = locks(`${ns}:inst-a:channel-whatsapp`, legacy, "node-a");
  const b = locks(`${ns}:inst-b:channel-whatsapp`, legacy, "node-b");
  const la = await a.acquire(ref);
  const lb = await b.acquire(ref);
  expect(la?.fence).toBe(1);
  expect(lb?.fence).toBe(1);
  await a.want({ ...ref, token: "a" });
  expect(await b.isWanted(ref)).toBe(false);
  expect(await b.holder(ref)).toEqual({ nodeId: "node-b", fence: 1 });
  await la?.release();
  await lb?.release();
});
