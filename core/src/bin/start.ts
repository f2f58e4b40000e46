/**
 * `npm start`: checks Redis (starting the machine's redis-server in embedded mode when it
 * is down), migrates, seeds the demo tenant on first run and serves the API. In embedded
 * mode, the plugins named in PLUGINS_EXTERNAL run in plugin nodes of their own, which it
 * spawns over the transporter and starts again when they exit.
 */
import { getConfig, ConfigError } from "@openatende/config";
import { createCore } from "../broker";
import { ensureRedis } from "../lib/redis";
import { seedIfEmpty, DEMO } from "../seed";
import { PluginNodeSupervisor, transporterForPluginNodes } from "../plugins/external";

async function main() {
  let config;
  try {
    config = getConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  const log = (m: string) => console.log(`[openatende] ${m}`);
  log(`mode: ${config.mode}; database: ${config.database.dialect}${config.database.dialect === "sqlite" ? ` (${config.database.storage})` : ` (${config.database.host}:${config.database.port}/${config.database.database})`}`);
  await ensureRedis(config, log);
  const core = createCore({ config });
  await core.start();

  const runsCore = config.services.includes("all") || config.services.includes("core");
  if (config.seedOnStart && runsCore) {
    const seeded = await seedIfEmpty(core.broker, config);
    if (seeded.created) {
      log(`Demo tenant created (id ${seeded.tenantId}).`);
      if (seeded.usedDefaultPassword) {
        console.warn(`[openatende] WARNING: SEED_ADMIN_PASSWORD is not set; the demo users got the default password "${seeded.password}". Change it.`);
      }
    }
  }

  const api = core.broker.getLocalService("api") as unknown as { server?: { address(): { port: number } | string | null } } | undefined;
  const addr = api?.server?.address();
  const port = addr && typeof addr === "object" ? addr.port : config.port;
  if (api) {
    const url = config.publicUrlFromEnv ? config.publicUrl : `http://localhost:${port}`;
    log(`Open ${url}/ (API at ${url}/api)`);
    if (config.seedOnStart) log(`Demo login: ${DEMO.admin} (password: ${config.seedAdminPassword ? "from SEED_ADMIN_PASSWORD" : DEMO.defaultPassword})`);
  } else {
    log(`node ${core.broker.nodeID} running services: ${config.services.join(", ")}`);
  }

  let supervisor: PluginNodeSupervisor | undefined;
  const runsHost = config.services.includes("all") || config.services.includes("plugins");
  if (config.pluginsExternal.length && config.mode === "embedded" && runsHost) {
    supervisor = new PluginNodeSupervisor({ config, transporter: transporterForPluginNodes(config, core.broker), installationPrefix: core.deps.redisPrefix(), log });
    supervisor.start(config.pluginsExternal);
    log(`plugin nodes: ${config.pluginsExternal.join(", ")}`);
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received, stopping…`);
    await supervisor?.stop();
    await core.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err) => {
  console.error("[openatende] failed to start:", err instanceof Error ? err.message : err);
  process.exit(1);
});
