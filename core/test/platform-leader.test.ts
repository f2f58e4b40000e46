/**
 * The lease that makes one core node the deliverer of the plugins' events (platform/leader.ts),
 * on the machine's Redis: one holder at a time; when it stops, another takes over.
 */
import Redis from "ioredis";
import { leaderLease } from "../src/platform/leader";
import { uid } from "./helpers";
import { waitFor } from "./platform-setup";

describe("platform events leader lease (Redis)", () => {
  const redis = new Redis("redis://127.0.0.1:6379", { keyPrefix: `oa-test-lease-${uid()}:`, maxRetriesPerRequest: 1 });
  afterAll(() => redis.disconnect());

  it("one holder at a time; the other takes over when it stops", async () => {
    const seen: string[] = [];
    const a = leaderLease(() => redis, "leader", "a", (l) => seen.push(`a:${l}`), 300);
    const b = leaderLease(() => redis, "leader", "b", (l) => seen.push(`b:${l}`), 300);
    await a.start();
    await b.start();
    expect([a.isLeader(), b.isLeader()]).toEqual([true, false]);
    expect(await redis.get("leader")).toBe("a");
    expect(Number(await redis.pttl("leader"))).toBeGreaterThan(0);
    await a.stop();
    expect(a.isLeader()).toBe(false);
    await waitFor(async () => b.isLeader(), (x) => x, "b taking over", 3000);
    expect(await redis.get("leader")).toBe("b");
    await b.stop();
    expect(await redis.get("leader")).toBeNull();
    expect(seen).toEqual(["a:true", "b:true"]);
  });
});
