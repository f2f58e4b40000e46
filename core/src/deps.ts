import type { Sequelize } from "sequelize";
import type { AppConfig } from "@openatende/config";
import type Redis from "ioredis";

/** What the broker factory hands every core service. */
export interface CoreDeps {
  config: AppConfig;
  sequelize: Sequelize;
  /** Shared Redis client of the process (lazy). */
  redis(): Redis;
}
