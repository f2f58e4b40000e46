/**
 * The plugin's store on the machine's Redis: a part of a send goes to Meta once across
 * processes, a send Meta certainly did not take can go again, one whose answer was lost is not
 * repeated; our mids, the customers' last message times and the account index are shared by
 * every node.
 */
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import type { SendResult } from "@openatende/plugin-sdk";
import { uncertain } from "../src/failures";
import { GraphError } from "../src/graph";
import { PluginStore } from "../src/store";

const REDIS = "redis://127.0.0.1:6379";

describe("instagram plugin store (Redis)", () => {
  const prefix = `ig-store-test-${randomBytes(4).toString("hex")}:channel-instagram`;
  const stores: PluginStore[] = [];
  const make = () => {
    const s = new PluginStore({ redisUrl: REDIS, prefix, log: { warn: () => undefined }, uncertain });
    stores.push(s);
    return s;
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    const redis = new Redis(REDIS);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  });

  const answer = (id: string): SendResult => ({ providerMessageId: id, timestamp: 1e12 });

  it("answers a repeat from the first send, in this process and in another; another part or content is a new send", async () => {
    const [a, b] = [make(), make()];
    const scope = { connection: "acct:1:2", messageId: 1, part: 0, what: ["7000", { text: "oi" }] };
    expect(await a.once(scope, async () => answer("m-1"))).toEqual(answer("m-1"));
    const again = jest.fn(async () => answer("m-2"));
    expect(await b.once(scope, again)).toEqual(answer("m-1"));
    expect(again).not.toHaveBeenCalled();
    expect((await b.once({ ...scope, part: 1 }, async () => answer("m-3"))).providerMessageId).toBe("m-3");
    expect((await b.once({ ...scope, what: ["7000", { text: "outro" }] }, async () => answer("m-4"))).providerMessageId).toBe("m-4");
  });

  it("a refused or unreached send can go again; one whose answer was lost is refused as uncertain", async () => {
    const s = make();
    const refused = { connection: "acct:1:2", messageId: 2, part: 0, what: ["x"] };
    await expect(s.once(refused, async () => Promise.reject(new GraphError("(#100) bad", 400, 100, "bad")))).rejects.toBeInstanceOf(GraphError);
    await expect(s.once(refused, async () => Promise.reject(new GraphError("the API could not be reached: connect ECONNREFUSED", 0, 0, "Unreachable")))).rejects.toBeInstanceOf(GraphError);
    expect((await s.once(refused, async () => answer("m-ok"))).providerMessageId).toBe("m-ok");
    const lost = { connection: "acct:1:2", messageId: 3, part: 0, what: ["y"] };
    await expect(s.once(lost, async () => Promise.reject(new GraphError("the API could not be reached: The operation was aborted due to timeout", 0, 0, "Unreachable")))).rejects.toBeInstanceOf(GraphError);
    const second = jest.fn(async () => answer("m-twice"));
    await expect(make().once(lost, second)).rejects.toMatchObject({ type: "ERR_INSTAGRAM_SEND_UNCERTAIN", code: 409 });
    expect(second).not.toHaveBeenCalled();
  });

  it("shares our mids, the last inbound time (never moved back) and the account index between nodes", async () => {
    const [a, b] = [make(), make()];
    await a.markOurs("acct:1:2", "mid-part-2", "mid-part-1");
    expect(await b.oursOf("acct:1:2", "mid-part-2")).toBe("mid-part-1");
    expect(await b.oursOf("acct:1:3", "mid-part-2")).toBeNull();
    await a.touchInbound("acct:1:2", "7000", 2000);
    await b.touchInbound("acct:1:2", "7000", 1000);
    expect(await a.lastInbound("acct:1:2", "7000")).toBe(2000);
    await a.claimAccount("17841", "tok-a");
    await b.claimAccount("17841", "tok-b");
    await a.releaseAccount("17841", "tok-a");
    expect(await b.claimsOf("17841")).toEqual(["tok-b"]);
  });
});
