/**
 * A plugin node: a broker node that runs the named plugins and nothing else, joined to the
 * core over the transporter (TRANSPORTER: nats://… in cluster mode, tcp://127.0.0.1:<port>/<core
 * node> beside an embedded core, which `npm start` sets for the nodes it spawns).
 *
 *   tsx core/src/bin/plugin-node.ts channel-telegram [more ids…] [--dir <folder with plugins>]
 *
 * Plugins are looked for in the repository's plugins/, DATA_DIR/plugins/ (installed ones) and
 * every --dir, with the plugin host's checks (manifest, core API range, the entry's
 * definePlugin() object). The core's plugin host lists them (PLUGINS_EXTERNAL) without
 * starting them. Exit codes: 0 stopped, 1 failed, 2 bad arguments or a plugin refused.
 */
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import { getConfig, ConfigError } from "@openatende/config";
import { loadPlugins } from "../plugins/loader";
import { pluginContextOf, transporterOf } from "../plugins/external";
import { AccessMiddleware } from "../middlewares/access.middleware";
import { LicenceMiddleware } from "../middlewares/licence.middleware";
import { createTimeoutMiddleware } from "../middlewares/timeout.middleware";

function parseArgs(argv: string[]): { ids: string[]; dirs: string[] } {
  const ids: string[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--dir") {
      const d = argv[++i];
      if (!d) throw new Error("--dir needs a folder");
      dirs.push(path.resolve(d));
    } else if (a.startsWith("--dir=")) dirs.push(path.resolve(a.slice(6)));
    else if (/^[a-z0-9][a-z0-9-]{0,63}$/.test(a)) ids.push(a);
    else throw new Error(`"${a}" is not a plugin id`);
  }
  if (!ids.length) throw new Error("name at least one plugin id (tsx core/src/bin/plugin-node.ts channel-telegram)");
  return { ids: [...new Set(ids)], dirs };
}

async function main() {
  const log = (m: string) => console.log(`[plugin-node] ${m}`);
  let config;
  let args;
  try {
    config = getConfig();
    args = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`[plugin-node] ${(err as Error).message}`);
    process.exit(2);
  }
  if (!config.transporter) {
    console.error("[plugin-node] TRANSPORTER is required: nats://host:4222, or tcp://127.0.0.1:<port>/<core node id> beside an embedded core");
    process.exit(2);
  }

  const broker = new ServiceBroker({
    nodeID: config.nodeId ?? `plugin-${args.ids.join("+")}-${os.hostname()}-${process.pid}`,
    namespace: config.namespace,
    transporter: transporterOf(config),
    logger: { type: "Console", options: { level: config.logLevel, formatter: "short", colors: process.stdout.isTTY } },
    requestTimeout: 0,
    // The same checks as the core's brokers: a plugin's REST actions keep their access rules.
    middlewares: [AccessMiddleware, LicenceMiddleware, createTimeoutMiddleware(config.requestTimeoutMs)],
  });
  await broker.start();

  const registry = await loadPlugins(broker, {
    dirs: [path.join(config.rootDir, "plugins"), path.join(config.dataDir, "plugins"), ...args.dirs],
    only: args.ids,
    context: pluginContextOf(config, { external: true }),
    onLoaded: (p) => log(`loaded ${p.id} ${p.version} as ${p.service} (${p.folder})`),
    onRefused: (p) => console.error(`[plugin-node] refused ${p.id} (${p.folder}): ${p.reason}`),
  });
  const loaded = new Set(registry.loaded().map((p) => p.id));
  const missing = args.ids.filter((id) => !loaded.has(id));
  if (missing.length) {
    console.error(`[plugin-node] not loaded: ${missing.join(", ")}`);
    await broker.stop();
    process.exit(2);
  }
  log(`node ${broker.nodeID} running plugins: ${args.ids.join(", ")}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal} received, stopping…`);
    await broker.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err) => {
  console.error("[plugin-node] failed:", err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
