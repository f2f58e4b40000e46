import { ServiceBroker, LoggerConfig, type ServiceSchema } from "moleculer";
import type { Sequelize } from "sequelize";
import type Redis from "ioredis";
import type { AppConfig } from "@openatende/config";
import { createSequelize, ensureDatabaseExists, prepareConnection } from "./db/sequelize";
import { collectMigrations, migrate } from "./db/migrator";
import { createRedis, installationPrefix } from "./lib/redis";
import { readInstallationId } from "./system/installation";
import type { CoreDeps } from "./deps";
import { AccessMiddleware } from "./middlewares/access.middleware";
import { LicenceMiddleware } from "./middlewares/licence.middleware";
import { createTimeoutMiddleware } from "./middlewares/timeout.middleware";
import { createCallerGuard } from "./middlewares/caller-guard.middleware";
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
import { createTemplatesService } from "./channels/templates.service";
import { createOutboxService } from "./channels/outbox.service";
import { systemClock, type Clock } from "./lib/clock";
import { createSchedulerService } from "./scheduler/scheduler.service";
import { createPlatformService } from "./platform/platform.service";
import { createAutomationService } from "./automation/automation.service";
import { createBusinessTimeService } from "./business-time/business-time.service";
import { createChatbotsService } from "./chatbots/chatbots.service";
import { createHooksService } from "./hooks/hooks.service";
import { transporterOf } from "./plugins/external";
import { loadServicePackages, type ServicePackage } from "./service-packages";

/**
 * The core's service groups a node can run (SERVICES). Service packages add theirs (the
 * marketplace's "marketplace" group): see ./service-packages.ts.
 */
export const SERVICE_GROUPS: Record<"api" | "core" | "plugins", Array<(d: CoreDeps) => ServiceSchema>> = {
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
    createTemplatesService,
    createOutboxService,
    createSchedulerService,
    createBusinessTimeService,
    createPlatformService,
    createAutomationService,
    createChatbotsService,
    createHooksService,
  ],
  /** The plugin host: discovers, validates and starts plugin services. */
  plugins: [createPluginsService],
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
  /** The service packages to run beside the core's groups (default: those the application's package.json names). */
  packages?: ServicePackage[];
  /** The clock the core decides time by (default: the system's); tests pass a TestClock. */
  clock?: Clock;
  /** The scheduler's tick in ms (default 1000; 0: ticked by hand, tests). */
  schedulerTickMs?: number;
}

/**
 * Builds a broker with the services of the configured groups. Embedded mode: everything in
 * one broker, no transporter (a TCP transporter on loopback when PLUGINS_EXTERNAL names
 * plugins that run in nodes of their own). Cluster mode: NATS, and each node runs the groups
 * in SERVICES. The groups are the core's (SERVICE_GROUPS) and those of the service packages
 * the application names ("all": every one of them); its migrations are the core's and the
 * packages' (service-packages.ts).
 */
export function createCore(opts: CoreOptions): Core {
  const { config } = opts;
  const sequelize = createSequelize(config);
  let redis: Redis | undefined;
  let prefix: string | undefined;
  const redisPrefix = () => {
    if (!prefix) throw new Error("Redis keys belong to the installation, whose id is read from the database when the core starts: no Redis before start()");
    return prefix;
  };
  const deps: CoreDeps = {
    config,
    sequelize,
    redis: () => {
      if (!redis) {
        redis = createRedis(config.redisUrl, redisPrefix());
        redis.on("error", () => undefined);
      }
      return redis;
    },
    redisPrefix,
    clock: opts.clock ?? systemClock,
    schedulerTickMs: opts.schedulerTickMs,
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
    // The caller guard last, so it wraps the others: who is calling over the transporter (plugins/THREAT-MODEL.md).
    middlewares: [AccessMiddleware, LicenceMiddleware, createTimeoutMiddleware(config.requestTimeoutMs), createCallerGuard(config.jwtSecret)],
    errorRegenerator: undefined,
  });

  const packages = opts.packages ?? loadServicePackages(config.rootDir);
  const groups = new Map<string, (d: CoreDeps) => ServiceSchema[]>(Object.entries(SERVICE_GROUPS).map(([g, factories]) => [g, (d) => factories.map((f) => f(d))]));
  for (const p of packages) {
    if (groups.has(p.group)) throw new Error(`two service groups are named "${p.group}"`);
    groups.set(p.group, (d) => p.services(d));
  }
  const wanted = config.services.includes("all") ? [...groups.keys()] : config.services;
  for (const g of wanted) {
    const make = groups.get(g);
    if (!make) throw new Error(`SERVICES names the group "${g}", which neither the core nor a service package of this installation provides`);
    for (const schema of make(deps)) broker.createService(schema);
  }
  const migrations = collectMigrations(packages);

  return {
    broker,
    sequelize,
    deps,
    async start() {
      await ensureDatabaseExists(config);
      await sequelize.authenticate();
      await prepareConnection(sequelize);
      if (opts.migrate !== false) await migrate(sequelize, migrations);
      prefix = installationPrefix(config.namespace, await readInstallationId(sequelize));
      await broker.start();
    },
    async stop() {
      await broker.stop();
      await sequelize.close().catch(() => undefined);
      if (redis) redis.disconnect();
    },
  };
}
