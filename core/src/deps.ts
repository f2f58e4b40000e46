import type { Sequelize } from "sequelize";
import type { AppConfig } from "@openatende/config";
import type Redis from "ioredis";
import type { Clock } from "./lib/clock";

/** What the broker factory hands every core service. */
export interface CoreDeps {
  config: AppConfig;
  sequelize: Sequelize;
  /**
   * Shared Redis client of the process (lazy), its keys under the installation's prefix
   * (lib/redis.ts installationPrefix); usable once the core started.
   */
  redis(): Redis;
  /** The installation's Redis key prefix, for clients the core makes itself (socket.io's adapter, queues); usable once the core started. */
  redisPrefix(): string;
  /**
   * The time the core's decisions go by (the scheduler's due times, business time, automatic
   * messages and closes): the system clock, or a test's TestClock (createCore's `clock`).
   */
  clock: Clock;
  /** The scheduler's tick period in ms (default 1000); 0: no timer, a test ticks it (schedulerOf(broker).tick()). */
  schedulerTickMs?: number;
}
