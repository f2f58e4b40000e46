/**
 * A plugin node: a broker node that runs the named plugins and nothing else, joined to the
 * core over the transporter (TRANSPORTER: nats://… in cluster mode, tcp://127.0.0.1:<port>/<core
 * node> beside an embedded core, which `npm start` sets for the nodes it spawns).
 *
 *   tsx core/src/bin/plugin-node.ts channel-telegram [more ids…] [--dir <folder with plugins>]
 *   tsx core/src/bin/plugin-node.ts --folder data/plugins/<id>/<version>
 *
 * `--folder` runs the one plugin in that folder (a plugin installed from the marketplace,
 * which the plugin host starts this way: third-party code never runs in the core's process).
 *
 * Plugins are looked for in the repository's plugins/, DATA_DIR/plugins/ (installed ones) and
 * every --dir, with the plugin host's checks (manifest, core API range, the entry's
 * definePlugin() object). The core's plugin host lists them (PLUGINS_EXTERNAL) without
 * starting them. Exit codes: 0 stopped, 1 failed, 2 bad arguments or a plugin refused.
 *
 * A plugin that ships migrations/ gets its own database (core/src/plugins/data.ts), and this
 * node runs its pending migrations before the plugin's service starts (a failing one refuses
 * the plugin, exit 2). The database is named from DATABASE_URL, or is PLUGIN_DATABASE_URL,
 * which the plugin host gives the node of an installed plugin (one plugin per node then).
 *
 * The plugins' Redis keys belong to the installation (their context's redisPrefix, made of
 * NAMESPACE and the installation's id, which the installation's database keeps): a node
 * spawned by the core is told the core's prefix (INSTALLATION_PREFIX); a node started on its
 * own (cluster mode) asks the core's plugin host for it (plugins.installationPrefix) before
 * loading its plugins.
 *
 * Who it is: PLUGIN_TOKENS (`<id>:<token>,…`) proves to the core which plugins this node runs
 * (core/src/plugins/THREAT-MODEL.md). A core spawning the node sets it; a node started on its
 * own is given it by the operator (`tsx core/src/bin/plugin-token.ts <id>` on a core node prints it).
 * Without a token for a plugin, the core refuses that plugin's calls and ignores its services.
 */
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import { getConfig, ConfigError } from "@openatende/config";
import { loadPlugins } from "../plugins/loader";
import { inspectPluginFolder } from "../plugins/discovery";
import { pluginContextOf, transporterOf } from "../plugins/external";
import { pluginDataPreparer } from "../plugins/data";
import type { ResultOf } from "../bus/call";
import { AccessMiddleware } from "../middlewares/access.middleware";
import { LicenceMiddleware } from "../middlewares/licence.middleware";
import { createTimeoutMiddleware } from "../middlewares/timeout.middleware";
import { createPluginSigner } from "../middlewares/plugin-signer.middleware";

function parseArgs(argv: string[]): { ids: string[]; dirs: string[]; folders: string[] } {
  const ids: string[] = [];
  const dirs: string[] = [];
  const folders: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--dir") {
      const d = argv[++i];
      if (!d) throw new Error("--dir needs a folder");
      dirs.push(path.resolve(d));
    } else if (a.startsWith("--dir=")) dirs.push(path.resolve(a.slice(6)));
    else if (a === "--folder") {
      const f = argv[++i];
      if (!f) throw new Error("--folder needs a plugin folder");
      folders.push(path.resolve(f));
    } else if (a.startsWith("--folder=")) folders.push(path.resolve(a.slice(9)));
    else if (/^[a-z0-9][a-z0-9-]{0,63}$/.test(a)) ids.push(a);
    else throw new Error(`"${a}" is not a plugin id`);
  }
  if (!ids.length && !folders.length) throw new Error("name at least one plugin id (tsx core/src/bin/plugin-node.ts channel-telegram) or a --folder");
  return { ids: [...new Set(ids)], dirs, folders };
}

/**
 * The core's Redis prefix (`<namespace>:<installation id>:`): given by the core that spawned
 * this node, or asked of the core's plugin host (a node started on its own needs no access to
 * the core's database for it).
 */
async function installationPrefixOf(broker: ServiceBroker, given: string | undefined, log: (m: string) => void): Promise<string> {
  if (given) return given;
  log("asking the core's plugin host for the installation's Redis prefix…");
  await broker.waitForServices(["plugins"], 120_000);
  const prefix = (await broker.call("plugins.installationPrefix", {})) as ResultOf<"plugins.installationPrefix">;
  if (typeof prefix !== "string" || !prefix) throw new Error("the core's plugin host gave no installation prefix");
  return prefix;
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
  if (config.pluginDatabaseUrl && args.ids.length + args.folders.length !== 1) {
    console.error("[plugin-node] PLUGIN_DATABASE_URL is one plugin's database: run one plugin in this node");
    process.exit(2);
  }
  if (!config.transporter) {
    console.error("[plugin-node] TRANSPORTER is required: nats://host:4222, or tcp://127.0.0.1:<port>/<core node id> beside an embedded core");
    process.exit(2);
  }

  const broker = new ServiceBroker({
    nodeID: config.nodeId ?? `plugin-${[...args.ids, ...args.folders.map((f) => path.basename(path.dirname(f)))].join("+")}-${os.hostname()}-${process.pid}`,
    namespace: config.namespace,
    transporter: transporterOf(config),
    logger: { type: "Console", options: { level: config.logLevel, formatter: "short", colors: process.stdout.isTTY } },
    requestTimeout: 0,
    // The same checks as the core's brokers: a plugin's REST actions keep their access rules.
    // Its calls carry its plugins' identity (PLUGIN_TOKENS, from the host): the core refuses unsigned ones.
    middlewares: [AccessMiddleware, LicenceMiddleware, createTimeoutMiddleware(config.requestTimeoutMs), createPluginSigner(config.pluginTokens)],
  });
  await broker.start();
  const prefix = await installationPrefixOf(broker, config.installationPrefix, log);

  // With --folder only, that folder is the whole list: the repo's plugins are not looked at.
  const registry = await loadPlugins(broker, {
    dirs: args.ids.length ? [path.join(config.rootDir, "plugins"), path.join(config.dataDir, "plugins"), ...args.dirs] : [],
    folders: args.folders,
    only: args.ids.length ? [...args.ids, ...args.folders.map((f) => inspectPluginFolder(f)).flatMap((r) => (r.ok ? [r.manifest.id] : [r.id]))] : undefined,
    context: pluginContextOf(config, { external: true, installationPrefix: prefix }),
    data: pluginDataPreparer(config, log),
    onLoaded: (p) => log(`loaded ${p.id} ${p.version} as ${p.service} (${p.folder})`),
    onRefused: (p) => console.error(`[plugin-node] refused ${p.id} (${p.folder}): ${p.reason}`),
  });
  const loaded = new Set(registry.loaded().map((p) => p.id));
  const missing = args.ids.filter((id) => !loaded.has(id));
  const loadedFolders = new Set(registry.loaded().map((p) => p.folder));
  for (const f of args.folders) if (!loadedFolders.has(f)) missing.push(f);
  if (missing.length) {
    console.error(`[plugin-node] not loaded: ${missing.join(", ")}`);
    await broker.stop();
    process.exit(2);
  }
  log(`node ${broker.nodeID} running plugins: ${registry.loaded().map((p) => `${p.id}@${p.version}`).join(", ")}`);

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
