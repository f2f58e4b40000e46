import { ServiceBroker, LoggerConfig } from "moleculer";
import type { Sequelize } from "sequelize";
import type Redis from "ioredis";
import type { AppConfig } from "@openatende/config";
import { createSequelize, ensureDatabaseExists, prepareConnection } from "./db/sequelize";
import { migrate } from "./db/migrator";
import { createRedis } from "./lib/redis";
import type { CoreDeps } from "./deps";
import { AccessMiddleware } from "./middlewares/access.middleware";
import { LicenceMiddleware } from "./middlewares/licence.middleware";
import { createTimeoutMiddleware } from "./middlewares/timeout.middleware";
import { createApiService } from "./gateway/api.service";
import { createAuthService } from "./auth/auth.service";
import { createTenantsService } from "./tenants/tenants.service";
import { createUsersService } from "./users/users.service";
import { createLicenceService } from "./licence/licence.service";
import { createSettingsService } from "./settings/settings.service";
import { createMailerService } from "./mailer/mailer.service";
import { createQueuesService } from "./queues/queues.service";
import { createSystemService } from "./system/system.service";
import { createContactsService } from "./contacts/contacts.service";
import { createTagsService } from "./tags/tags.service";
import { createQuickMessagesService } from "./quick-messages/quick-messages.service";
import { createConnectionsService } from "./connections/connections.service";
import { createPluginsService } from "./plugins/plugins.service";
import { createDashboardService } from "./dashboard/dashboard.service";
import { createTicketsService } from "./tickets/tickets.service";
import { createMessagesService } from "./messages/messages.service";
import { createChannelsService } from "./channels/channels.service";
import { createFilesService } from "./files/files.service";
import { createRealtimeService } from "./realtime/realtime.service";
import { createChannelFilesService } from "./channels/channel-files.service";
import { createOutboxService } from "./channels/outbox.service";
import { transporterOf } from "./plugins/external";
import { createMarketplaceService } from "@openatende/marketplace";

/** Service groups a node can run (SERVICES). */
export const SERVICE_GROUPS = {
  api: [createApiService, createRealtimeService],
  core: [
    createSystemService,
    createSettingsService,
    (_d: CoreDeps) => createMailerService(),
    createTenantsService,
    createLicenceService,
    createQueuesService,
    createUsersService,
    createAuthService,
    createTagsService,
    createContactsService,
    createQuickMessagesService,
    createConnectionsService,
    createTicketsService,
    createDashboardService,
    createMessagesService,
    createChannelsService,
    createFilesService,
    createChannelFilesService,
    createOutboxService,
  ],
  /** The plugin host: discovers, validates and starts plugin services. */
  plugins: [createPluginsService],
  /** The plugin catalogue: publishers, published archives (DATA_DIR/marketplace). */
  marketplace: [(d: CoreDeps) => createMarketplaceService(d)],
};

export interface Core {
  broker: ServiceBroker;
  sequelize: Sequelize;
  deps: CoreDeps;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface CoreOptions {
  config: AppConfig;
  /** Moleculer logger; false silences it (tests). */
  logger?: LoggerConfig | boolean;
  /** Run migrations before the services start (default true). */
  migrate?: boolean;
  nodeID?: string;
}

/**
 * Builds a broker with the services of the configured groups. Embedded mode: everything in
 * one broker, no transporter (a TCP transporter on loopback when PLUGINS_EXTERNAL names
 * plugins that run in nodes of their own). Cluster mode: NATS, and each node runs the groups
 * in SERVICES.
 */
export function createCore(opts: CoreOptions): Core {
  const { config } = opts;
  const sequelize = createSequelize(config);
  let redis: Redis | undefined;
  const deps: CoreDeps = {
    config,
    sequelize,
    redis: () => {
      if (!redis) {
        redis = createRedis(config.redisUrl);
        redis.on("error", () => undefined);
      }
      return redis;
    },
  };

  const logger: LoggerConfig | boolean =
    opts.logger ?? { type: "Console", options: { level: config.logLevel, formatter: "short", colors: process.stdout.isTTY } };

  const broker = new ServiceBroker({
    nodeID: opts.nodeID ?? config.nodeId,
    namespace: config.namespace,
    transporter: transporterOf(config),
    logger,
    // Timeouts: the gateway's socket deadline for requests, CoarseTimeout (one clock for all
    // calls) for calls to other nodes; Moleculer's timer per call cost a quarter of the
    // gateway's throughput.
    requestTimeout: 0,
    middlewares: [AccessMiddleware, LicenceMiddleware, createTimeoutMiddleware(config.requestTimeoutMs)],
    errorRegenerator: undefined,
  });

  const groups = config.services.includes("all") ? (["api", "core", "plugins", "marketplace"] as const) : (config.services as Array<keyof typeof SERVICE_GROUPS>);
  for (const g of groups) {
    for (const factory of SERVICE_GROUPS[g as keyof typeof SERVICE_GROUPS]) broker.createService(factory(deps));
  }

  return {
    broker,
    sequelize,
    deps,
    async start() {
      await ensureDatabaseExists(config);
      await sequelize.authenticate();
      await prepareConnection(sequelize);
      if (opts.migrate !== false) await migrate(sequelize);
      await broker.start();
    },
    async stop() {
      await broker.stop();
      await sequelize.close().catch(() => undefined);
      if (redis) redis.disconnect();
    },
  };
}
