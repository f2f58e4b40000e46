/**
 * Which plugin host of a deployment runs the installed plugins' nodes: the one holding a lock
 * in Redis, renewed while it lives. When it stops or dies another host takes the lock over
 * (and starts the nodes); a host that finds the lock taken from it stops its nodes. The others
 * only list the installed plugins and hand install, rollback and uninstall over to the host.
 */
import { createHash } from "node:crypto";
import type Redis from "ioredis";
import type { AppConfig } from "@openatende/config";

export interface InstallHostOptions {
  config: AppConfig;
  nodeID: string;
  redis(): Redis;
  log: { warn(m: string): void };
  /** How long the lock lives without renewal (ms, default 15 s; renewed every third of it). */
  lockMs?: number;
  /** This node took the lock: start the installed plugins' nodes. */
  onGained(): Promise<void>;
  /** Another node holds the lock now: stop the nodes started here. */
  onLost(): Promise<void>;
}

const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

export class InstallHost {
  private leading = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly key: string;
  private readonly lockMs: number;

  constructor(private readonly o: InstallHostOptions) {
    // One deployment = one database: its plugin hosts share the lock, other deployments on the same Redis do not.
    const deployment = createHash("sha256").update(o.config.database.url).digest("hex").slice(0, 16);
    this.key = `${o.config.namespace}:plugin-installs:host:${deployment}`;
    this.lockMs = o.lockMs ?? 15_000;
  }

  /** Whether this node runs the installed plugins' nodes now. */
  get isHost(): boolean {
    return this.leading;
  }

  /** The node that runs the installed plugins' nodes (null when none holds the lock). */
  async hostNode(): Promise<string | null> {
    if (this.leading) return this.o.nodeID;
    return this.o.redis().get(this.key);
  }

  /** Claims the lock once now, then keeps claiming or renewing it. */
  async start(): Promise<void> {
    await this.claim();
    const tick = () => void this.claim().catch((err: Error) => this.o.log.warn(`plugin host lock: ${err.message}`));
    this.timer = setInterval(tick, Math.max(200, Math.floor(this.lockMs / 3)));
    this.timer.unref();
  }

  /** Stops renewing the lock (the nodes still run: stop them, then release()). */
  stopRenewing(): void {
    clearInterval(this.timer);
  }

  /** Gives the lock up when this node holds it, so another host takes over at once. */
  async release(): Promise<void> {
    if (!this.leading) return;
    this.leading = false;
    await this.o
      .redis()
      .eval(RELEASE, 1, this.key, this.o.nodeID)
      .catch(() => undefined);
  }

  /** Takes or renews the lock; becoming the host starts the installed plugins' nodes, losing it stops them. */
  private async claim(): Promise<void> {
    const redis = this.o.redis();
    const me = this.o.nodeID;
    if (this.leading) {
      if (Number(await redis.eval(RENEW, 1, this.key, me, String(this.lockMs))) === 1) return;
      this.o.log.warn("Another plugin host runs the installed plugins now: stopping their nodes here");
      this.leading = false;
      await this.o.onLost();
      return;
    }
    if ((await redis.set(this.key, me, "PX", this.lockMs, "NX")) !== "OK") return;
    this.leading = true;
    await this.o.onGained();
  }
}
