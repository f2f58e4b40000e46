/**
 * The sent log on the machine's Redis: a message id goes to the hub once across processes; a
 * send the hub certainly did not take can go again; one whose answer was lost is not repeated.
 */
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import type { SendResult } from "@openatende/plugin-sdk";
import { HubError } from "../src/client";
import { hubSentLog, type SentLog } from "../src/sent-log";

const REDIS = "redis://127.0.0.1:6379";

describe("hub sent log (Redis)", () => {
  const prefix = `hub-sentlog-test-${randomBytes(4).toString("hex")}:channel-hub`;
  const logs: SentLog[] = [];
  const make = () => {
    const l = hubSentLog({ redisUrl: REDIS, prefix, log: { warn: () => undefined } });
    logs.push(l);
    return l;
  };
  afterAll(async () => {
    await Promise.all(logs.map((l) => l.close()));
    const redis = new Redis(REDIS);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  let n = 0;
  const counted = (res: SendResult) => {
    const fn = jest.fn(async () => {
      n++;
      await new Promise((ok) => setTimeout(ok, 100));
      return res;
    });
    return fn;
  };

  it("answers a repeat from the first send, in this process and in another one", async () => {
    const a = make();
    const b = make();
    const scope = { id: ["tok-a", 1], what: ["to", "hi"] };
    const first = counted({ providerMessageId: "hub-1", timestamp: 1e12 });
    expect(await a.once(scope, first)).toEqual({ providerMessageId: "hub-1", timestamp: 1e12 });
    const again = counted({ providerMessageId: "hub-2", timestamp: 1e12 });
    expect(await b.once(scope, again)).toEqual({ providerMessageId: "hub-1", timestamp: 1e12 });
    expect(again).not.toHaveBeenCalled();
    // Another message, or the same id sending something else (an id a new database reuses), is a new send.
    expect((await b.once({ ...scope, id: ["tok-a", 2] }, counted({ providerMessageId: "hub-3", timestamp: 1e12 }))).providerMessageId).toBe("hub-3");
    expect((await b.once({ ...scope, what: ["to", "other"] }, counted({ providerMessageId: "hub-4", timestamp: 1e12 }))).providerMessageId).toBe("hub-4");
  });

  it("a send running on another node is not started again", async () => {
    const a = make();
    const b = make();
    const scope = { id: ["tok-b", 7], what: ["to", "x"] };
    const before = n;
    const running = a.once(scope, counted({ providerMessageId: "hub-7", timestamp: 1e12 }));
    await new Promise((ok) => setTimeout(ok, 30));
    await expect(b.once(scope, counted({ providerMessageId: "hub-8", timestamp: 1e12 }))).rejects.toMatchObject({ type: "ERR_HUB_SEND_UNCERTAIN", code: 409 });
    expect((await running).providerMessageId).toBe("hub-7");
    expect(n - before).toBe(1);
  });

  it("a refused or unreached send can go again; a send whose answer was lost is not repeated", async () => {
    const log = make();
    const refused = { id: ["tok-c", 1], what: ["to", "x"] };
    await expect(log.once(refused, async () => Promise.reject(new HubError("rejected", 400, "bad")))).rejects.toBeInstanceOf(HubError);
    await expect(log.once(refused, async () => Promise.reject(new HubError("unavailable", 0, "ECONNREFUSED", false)))).rejects.toBeInstanceOf(HubError);
    expect((await log.once(refused, async () => ({ providerMessageId: "hub-ok", timestamp: 1e12 }))).providerMessageId).toBe("hub-ok");

    const lost = { id: ["tok-c", 2], what: ["to", "y"] };
    await expect(log.once(lost, async () => Promise.reject(new HubError("unavailable", 0, "timeout", true)))).rejects.toBeInstanceOf(HubError);
    const second = jest.fn(async () => ({ providerMessageId: "hub-twice", timestamp: 1e12 }));
    await expect(log.once(lost, second)).rejects.toMatchObject({ type: "ERR_HUB_SEND_UNCERTAIN" });
    expect(second).not.toHaveBeenCalled();
  });
});
