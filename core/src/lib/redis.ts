import Redis from "ioredis";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import type { AppConfig } from "@openatende/config";

/** A client of the shared Redis; with keyPrefix, every key it reads or writes is under it (ioredis adds it, EVAL's KEYS too). */
export function createRedis(url: string, keyPrefix?: string): Redis {
  return new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true, connectTimeout: 3000, keyPrefix });
}

/**
 * The prefix of everything this installation keeps in Redis: NAMESPACE alone is not enough,
 * since two installations with different databases may share one Redis and one NAMESPACE
 * (the default), and their session ids, user ids and counters would meet. The installation id
 * is generated once and stored in the installation's database (system/installation.ts).
 */
export function installationPrefix(namespace: string, installationId: string): string {
  return `${namespace || "oa"}:${installationId}:`;
}

async function ping(url: string): Promise<boolean> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null });
  r.on("error", () => undefined);
  try {
    await r.connect();
    await r.ping();
    return true;
  } catch {
    return false;
  } finally {
    r.disconnect();
  }
}

function findRedisServer(): string | undefined {
  for (const p of ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"]) {
    if (fs.existsSync(p)) return p;
  }
  return undefined;
}

/**
 * Makes sure Redis answers at REDIS_URL. When it does not, says so; in embedded mode on a
 * local address it starts the machine's redis-server when the binary exists.
 */
export async function ensureRedis(config: AppConfig, log: (msg: string) => void): Promise<void> {
  if (await ping(config.redisUrl)) return;
  const u = new URL(config.redisUrl);
  const local = ["127.0.0.1", "localhost", "::1", "[::1]"].includes(u.hostname);
  log(`Redis is not reachable at ${u.host} (REDIS_URL).`);
  const bin = findRedisServer();
  if (!config.redisAutostart || !local || !bin) {
    throw new Error(
      `Redis is required and is not reachable at ${u.host}. Start it (for example: redis-server --daemonize yes) or set REDIS_URL.`,
    );
  }
  log(`Starting ${bin} on port ${u.port || 6379} …`);
  const res = spawnSync(bin, ["--daemonize", "yes", "--bind", "127.0.0.1", "--port", String(u.port || 6379), "--save", "", "--appendonly", "no"], {
    stdio: "inherit",
  });
  if (res.status !== 0) throw new Error(`redis-server could not be started (exit ${res.status}).`);
  for (let i = 0; i < 50; i++) {
    if (await ping(config.redisUrl)) {
      log("Redis started.");
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`redis-server was started but does not answer at ${u.host}.`);
}
