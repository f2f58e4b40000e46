import type { Sequelize } from "sequelize";
import type { AppConfig } from "@openatende/config";
import type Redis from "ioredis";

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
}
