/**
 * What this channel sent, by the core's message id (the contract's idempotency key): the SDK's
 * SentOnce (sent-once.ts there says how) in the plugin context's Redis, keys
 * `<redisPrefix>:channel-hub:sent:<connection token>:<message id>:<digest>`, kept 7 days. The hub
 * has no idempotency key of its own, so a send is claimed before the hub is called; one the hub
 * certainly did not take (refused, never reached) can go again, and a repeat of one whose answer
 * was lost (a timeout) is refused with ERR_HUB_SEND_UNCERTAIN rather than risk sending twice.
 */
import IORedis from "ioredis";
import { SentOnce } from "@openatende/plugin-sdk";
import { HubError } from "./client";

export type SentLog = SentOnce<IORedis>;

/** `prefix`: "<redisPrefix>:channel-hub". */
export function hubSentLog(opts: { redisUrl?: string; prefix: string; log: { warn(...a: unknown[]): void } }): SentLog {
  return new SentOnce<IORedis>({
    ...opts,
    connect: (url) => new IORedis(url, { maxRetriesPerRequest: 2, connectTimeout: 3000 }),
    ttlSeconds: 7 * 86400,
    claim: { uncertainCode: "ERR_HUB_SEND_UNCERTAIN", uncertain: (err) => err instanceof HubError && err.uncertain },
  });
}
