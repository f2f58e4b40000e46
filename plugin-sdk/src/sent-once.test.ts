/**
 * The sent log on the machine's Redis: a send goes once across processes, under the keys the
 * channels already wrote (`<prefix>:sent:<id…>:<digest>`); with a claim, a send that certainly
 * did not go can go again and one whose answer was lost is refused; without Redis every send goes.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import Redis from "ioredis";
import { SentOnce, type SentOnceOptions } from "./sent-once";
import type { SendResult } from "./channel-contract";

const REDIS = "redis://127.0.0.1:6379";
const TTL = 7 * 86400;

/** A provider's failure: `lost` when its answer never came (a timeout). */
class SendFailed extends Error {
  constructor(readonly lost: boolean) {
    super(lost ? "timeout" : "refused");
  }
}

describe("SentOnce (Redis)", () => {
  const prefix = `sent-once-test-${randomBytes(4).toString("hex")}:channel-x`;
  const redis = new Redis(REDIS, { maxRetriesPerRequest: 1 });
  const logs: SentOnce[] = [];
  const warnings: string[] = [];
  const make = (over: Partial<SentOnceOptions<Redis>> = {}) => {
    const l = new SentOnce<Redis>({
      redisUrl: REDIS,
      connect: (url) => new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 3000 }),
      prefix,
      ttlSeconds: TTL,
      log: { warn: (m: unknown) => void warnings.push(String(m)) },
      claim: { uncertainCode: "ERR_X_SEND_UNCERTAIN", uncertain: (err) => err instanceof SendFailed && err.lost },
      ...over,
    });
    logs.push(l as unknown as SentOnce);
    return l;
  };
  afterAll(async () => {
    await Promise.all(logs.map((l) => l.close()));
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  const answer = (id: string): SendResult => ({ providerMessageId: id, timestamp: 1e12 });
  /** A send that takes a while (long enough for a second node to meet it running). */
  const slow = (res: SendResult) => jest.fn(async () => (await new Promise((ok) => setTimeout(ok, 100)), res));

  it("keeps the key each channel wrote, with its TTL, and the answer in it", async () => {
    const log = make();
    await log.once({ id: ["tok-k", 3, 1], what: ["to", "hi"] }, async () => answer("p-1"));
    const keys = await redis.keys(`${prefix}:sent:tok-k:*`);
    expect(keys).toHaveLength(1);
    const digest = createHash("sha256").update(JSON.stringify(["to", "hi"])).digest("base64url").slice(0, 16);
    expect(keys[0]).toBe(`${prefix}:sent:tok-k:3:1:${digest}`);
    expect(JSON.parse((await redis.get(keys[0]))!)).toEqual(answer("p-1"));
    const ttl = await redis.ttl(keys[0]);
    expect(ttl).toBeGreaterThan(TTL - 60);
    expect(ttl).toBeLessThanOrEqual(TTL);
    // An entry written before (a running installation's data) answers a repeat.
    const key = log.keyOf({ id: ["tok-k", 4], what: ["to", "old"] })!;
    await redis.set(key, JSON.stringify(answer("p-old")), "EX", 60);
    const again = jest.fn(async () => answer("p-new"));
    expect(await make().once({ id: ["tok-k", 4], what: ["to", "old"] }, again)).toEqual(answer("p-old"));
    expect(again).not.toHaveBeenCalled();
  });

  it("answers a repeat from the first send, in this process and in another one", async () => {
    const a = make();
    const b = make();
    const scope = { id: ["tok-a", 1], what: ["to", "hi"] };
    const first = slow(answer("p-1"));
    const [one, joined] = await Promise.all([a.once(scope, first), a.once(scope, slow(answer("p-0")))]);
    expect([one, joined]).toEqual([answer("p-1"), answer("p-1")]);
    expect(first).toHaveBeenCalledTimes(1);
    const again = jest.fn(async () => answer("p-2"));
    expect(await b.once(scope, again)).toEqual(answer("p-1"));
    expect(again).not.toHaveBeenCalled();
    // Another message, or the same id sending something else (an id a new database reuses), is a new send.
    expect((await b.once({ ...scope, id: ["tok-a", 2] }, async () => answer("p-3"))).providerMessageId).toBe("p-3");
    expect((await b.once({ ...scope, what: ["to", "other"] }, async () => answer("p-4"))).providerMessageId).toBe("p-4");
  });

  it("with a claim, a send running on another node is not started again", async () => {
    const scope = { id: ["tok-b", 7], what: ["to", "x"] };
    const first = slow(answer("p-7"));
    const running = make().once(scope, first);
    await new Promise((ok) => setTimeout(ok, 30));
    const second = jest.fn(async () => answer("p-8"));
    await expect(make().once(scope, second)).rejects.toMatchObject({ type: "ERR_X_SEND_UNCERTAIN", code: 409 });
    expect((await running).providerMessageId).toBe("p-7");
    expect(second).not.toHaveBeenCalled();
  });

  it("with a claim, a refused send can go again; one whose answer was lost is not repeated", async () => {
    const log = make();
    const refused = { id: ["tok-c", 1], what: ["to", "x"] };
    await expect(log.once(refused, async () => Promise.reject(new SendFailed(false)))).rejects.toBeInstanceOf(SendFailed);
    expect((await log.once(refused, async () => answer("p-ok"))).providerMessageId).toBe("p-ok");

    const lost = { id: ["tok-c", 2], what: ["to", "y"] };
    await expect(log.once(lost, async () => Promise.reject(new SendFailed(true)))).rejects.toBeInstanceOf(SendFailed);
    const second = jest.fn(async () => answer("p-twice"));
    await expect(make().once(lost, second)).rejects.toMatchObject({ type: "ERR_X_SEND_UNCERTAIN" });
    expect(second).not.toHaveBeenCalled();
  });

  it("without a claim, the log is read before and written after: a failed send leaves nothing", async () => {
    const log = make({ claim: undefined });
    const scope = { id: ["tok-d", 1], what: ["to", "z"] };
    await expect(log.once(scope, async () => Promise.reject(new SendFailed(true)))).rejects.toBeInstanceOf(SendFailed);
    expect(await redis.keys(`${prefix}:sent:tok-d:*`)).toEqual([]);
    expect(await log.once(scope, async () => answer("p-d"))).toEqual(answer("p-d"));
    const again = jest.fn(async () => answer("p-d2"));
    expect(await make({ claim: undefined }).once(scope, again)).toEqual(answer("p-d"));
    expect(again).not.toHaveBeenCalled();
  });

  it("sends every time without a message id, a token or a Redis URL", async () => {
    const send = jest.fn(async () => answer("p-e"));
    const log = make();
    await log.once({ id: ["tok-e", undefined], what: 1 }, send);
    await log.once({ id: ["tok-e", undefined], what: 1 }, send);
    await log.once({ id: ["", 5], what: 1 }, send);
    await log.once({ id: ["", 5], what: 1 }, send);
    const none = make({ redisUrl: undefined });
    await none.once({ id: ["tok-e", 6], what: 1 }, send);
    await none.once({ id: ["tok-e", 6], what: 1 }, send);
    expect(none.client()).toBeNull();
    expect(send).toHaveBeenCalledTimes(6);
    expect(await redis.keys(`${prefix}:sent:tok-e:*`)).toEqual([]);
  });

  it("sends (with a warning) when Redis fails", async () => {
    // A server speaking Redis's protocol that answers every command with an error.
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      // One error per command (a chunk may carry several: each starts with a "*<n>" line).
      socket.on("data", (d: Buffer) => {
        const commands = d.toString().split("\r\n").filter((l) => /^\*\d+$/.test(l)).length;
        socket.write("-ERR simulated failure\r\n".repeat(commands));
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    const { port } = server.address() as AddressInfo;
    const log = make({ redisUrl: `redis://127.0.0.1:${port}`, connect: (url) => new Redis(url, { maxRetriesPerRequest: 0, enableReadyCheck: false }) });
    const send = jest.fn(async () => answer("p-f"));
    warnings.length = 0;
    try {
      expect(await log.once({ id: ["tok-f", 1], what: 1 }, send)).toEqual(answer("p-f"));
      expect(send).toHaveBeenCalledTimes(1);
      expect(warnings.join("\n")).toMatch(/sent log unreadable \(ERR simulated failure\)/);
    } finally {
      log.client()!.disconnect();
      for (const s of sockets) s.destroy();
      await new Promise((ok) => server.close(ok));
    }
  });
});
