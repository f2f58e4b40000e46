/**
 * What this channel sent, by the core's message id (the contract's idempotency key): the core
 * hands a message over again when it never heard the answer (the plugin's process was killed
 * mid-send, its node taken as gone), and Telegram has no idempotency key of its own. The log is
 * the SDK's SentOnce (sent-once.ts there says how) in the plugin context's Redis, keys
 * `<redisPrefix>:channel-telegram:sent:<connection token>:<message id>:<digest>`, kept 7 days
 * (longer than any outage the core's outbox waits out); it is read before the send and written
 * after it, with no claim.
 *
 * What it cannot cover: a process killed after Telegram took the message and before the log
 * was written (a few milliseconds); that message goes twice.
 */
import IORedis from "ioredis";
import { SentOnce } from "@openatende/plugin-sdk";

export type SentLog = SentOnce<IORedis>;

/** `prefix`: "<redisPrefix>:channel-telegram" (the plugin context's redisPrefix). */
export function telegramSentLog(opts: { redisUrl?: string; prefix: string; log: { warn(...a: unknown[]): void } }): SentLog {
  return new SentOnce<IORedis>({ ...opts, connect: (url) => new IORedis(url, { maxRetriesPerRequest: 2, connectTimeout: 3000 }), ttlSeconds: 7 * 86400 });
}
