/**
 * The plugin store belongs to the installation (the context's redisPrefix): two installations
 * on one Redis and one namespace keep their sent logs and message books apart, and the message
 * book of before redisPrefix (under the namespace alone) is carried over when looked up.
 */
import Redis from "ioredis";
import { PluginStore } from "../src/store";

const ns = `oa-wuzapi-prefix-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
const log = { warn: () => undefined };
const redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
const stores: PluginStore[] = [];
const store = (prefix: string, legacyPrefix?: string) => {
  const s = new PluginStore({ redisUrl: "redis://127.0.0.1:6379", prefix, legacyPrefix, log });
  stores.push(s);
  return s;
};

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  const keys = await redis.keys(`${ns}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

it("keeps two installations on one Redis apart", async () => {
  const a = store(`${ns}:inst-a:channel-wuzapi`, `${ns}:channel-wuzapi`);
  const b = store(`${ns}:inst-b:channel-wuzapi`, `${ns}:channel-wuzapi`);
  const sent: string[] = [];
  const scope = { connection: "tok", messageId: 5, what: ["x"] };
  await a.once(scope, async () => (sent.push("a"), { providerMessageId: "a5", timestamp: 1 }));
  expect(await b.once(scope, async () => (sent.push("b"), { providerMessageId: "b5", timestamp: 1 }))).toMatchObject({ providerMessageId: "b5" });
  expect(sent).toEqual(["a", "b"]);
  await a.remember("tok", "M1", "me");
  expect(await b.authorOf("tok", "M1")).toBeNull();
  expect(await a.authorOf("tok", "M1")).toBe("me");
});

it("carries the message book of before redisPrefix over, with its expiry", async () => {
  const before = store(`${ns}:channel-wuzapi`);
  await before.remember("tok", "OLD1", "5511999@s.whatsapp.net");
  const now = store(`${ns}:inst-a:channel-wuzapi`, `${ns}:channel-wuzapi`);
  expect(await now.authorOf("tok", "OLD1")).toBe("5511999@s.whatsapp.net");
  expect(await redis.exists(`${ns}:channel-wuzapi:msg:tok:OLD1`)).toBe(0);
  expect(await redis.ttl(`${ns}:inst-a:channel-wuzapi:msg:tok:OLD1`)).toBeGreaterThan(0);
  expect(await now.authorOf("tok", "NEVER")).toBeNull();
});
