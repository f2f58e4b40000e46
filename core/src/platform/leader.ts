/**
 * One core node at a time delivers the plugins' events: their queues are processed one job at a
 * time so each plugin sees its events in order, which holds only while a single worker takes
 * them. The node holding this Redis lease (renewed every third of its life) runs the workers;
 * when it goes, the lease lapses and another node takes over (jobs it held come back through
 * Bull's stalled-job check).
 */
import type Redis from "ioredis";

const RENEW = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

export const LEASE_MS = 10_000;

export function leaderLease(redis: () => Redis, key: string, holder: string, onChange: (leader: boolean) => void, leaseMs = LEASE_MS) {
  let leader = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function tick(): Promise<void> {
    let now: boolean;
    try {
      now = leader ? Number(await redis().eval(RENEW, 1, key, holder, String(leaseMs))) === 1 : (await redis().set(key, holder, "PX", leaseMs, "NX")) === "OK";
    } catch {
      now = false;
    }
    if (now !== leader) {
      leader = now;
      onChange(now);
    }
  }

  return {
    /** Tries at once, then keeps trying (or renewing). */
    async start(): Promise<void> {
      await (running = tick());
      timer = setInterval(() => void (running = running.then(tick)), Math.floor(leaseMs / 3));
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running.catch(() => undefined);
      if (leader) {
        leader = false;
        await redis()
          .eval(RELEASE, 1, key, holder)
          .catch(() => undefined);
      }
    },
    isLeader: () => leader,
  };
}
