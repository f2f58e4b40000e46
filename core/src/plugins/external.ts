/**
 * Plugins in processes of their own. A plugin named in PLUGINS_EXTERNAL is validated and
 * listed by the core's plugin host but runs in a plugin node (core/src/bin/plugin-node.ts),
 * a broker node that joins the core's transporter:
 *
 * - cluster mode: the deployment's NATS (TRANSPORTER=nats://…);
 * - embedded mode: Moleculer's TCP transporter on loopback. The core listens (TRANSPORTER_PORT,
 *   a free port by default) and its plugin nodes are told `tcp://127.0.0.1:<port>/<core node>`;
 *   `npm start` spawns and supervises them (PluginNodeSupervisor).
 *
 * A node killed without a word (kill -9, a crash) is noticed at once over TCP (its socket
 * closes) but only after Moleculer's heartbeat timeout (30 s) over NATS: node-watch.ts
 * pings the nodes that run plugin services and declares one gone after a few missed pongs.
 */
import { spawn, ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Transporters } from "moleculer";
import type { BrokerOptions, ServiceBroker } from "moleculer";
import { childEnv, type AppConfig } from "@openatende/config";
import type { PluginContext } from "@openatende/plugin-sdk";
import { busKeyOf, pluginTokensEnv } from "../middlewares/caller-identity";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * The TCP transporter of an embedded core and its plugin nodes: static peers, no UDP
 * discovery, and nobody but this machine may connect (Moleculer's TCP server listens on every
 * interface, and a broker peer may call any action).
 */
class LoopbackTcpTransporter extends (Transporters.TCP as unknown as new (opts: object) => any) {
  startTcpServer(this: any) {
    return Promise.resolve(super.startTcpServer()).then((port: number) => {
      this.reader.server.on("connection", (socket: { remoteAddress?: string; destroy(): void }) => {
        if (!LOOPBACK.has(socket.remoteAddress ?? "")) socket.destroy();
      });
      return port;
    });
  }
}

/** `tcp://host:port/nodeID,…` → Moleculer's "host:port/nodeID" list. */
function tcpPeers(transporter: string): string[] {
  return transporter
    .replace(/^tcp:\/\//, "")
    .split(",")
    .map((s) => s.trim().replace(/^tcp:\/\//, ""))
    .filter(Boolean);
}

/** Whether this node needs a transporter: one is configured, or plugin nodes will join it. */
export function needsTransporter(config: AppConfig): boolean {
  return !!config.transporter || config.pluginsExternal.length > 0 || config.pluginInstalls;
}

/**
 * The broker's transporter: NATS for nats://; TCP with UDP discovery for `tcp`; TCP with
 * static peers for `tcp://…`; and for an embedded core with external plugins (no TRANSPORTER),
 * a TCP server on loopback its plugin nodes connect to.
 */
export function transporterOf(config: AppConfig): BrokerOptions["transporter"] {
  const t = config.transporter;
  const port = config.transporterPort || undefined;
  if (t?.startsWith("nats://")) return { type: "NATS", options: { url: t } };
  if (t === "tcp") return { type: "TCP", options: { port } };
  if (t?.startsWith("tcp://")) {
    const urls = tcpPeers(t);
    const local = urls.every((u) => /^(127\.0\.0\.1|localhost|\[::1\]):/.test(u));
    const options = { udpDiscovery: false, urls: urls.join(","), port };
    return local ? (new LoopbackTcpTransporter(options) as never) : { type: "TCP", options };
  }
  // Plugin nodes of an embedded core: PLUGINS_EXTERNAL, or plugins installed from the marketplace.
  if (config.pluginsExternal.length || config.pluginInstalls) return new LoopbackTcpTransporter({ udpDiscovery: false, port }) as never;
  return undefined;
}

/** The TRANSPORTER a plugin node of this (started) broker is given. */
export function transporterForPluginNodes(config: AppConfig, broker: ServiceBroker): string {
  if (config.transporter?.startsWith("nats://")) return config.transporter;
  const port = (broker.registry as unknown as { nodes: { localNode: { port?: number } } }).nodes.localNode.port;
  if (!port) throw new Error("the TCP transporter has no port yet (start the broker first)");
  return `tcp://127.0.0.1:${port}/${broker.nodeID}`;
}

/**
 * The platform context a plugin service gets (SDK `pluginContext`): in the core's process the
 * core's files are at hand; a plugin node reads them through the core (`readMedia`).
 * `installationPrefix` is the core's Redis prefix (lib/redis.ts installationPrefix, read from
 * the installation's database): the plugin's keys go under it too, so two installations
 * sharing one Redis keep apart in the plugins' keys as in the core's.
 */
export function pluginContextOf(config: AppConfig, where: { external: boolean; installationPrefix: string }): PluginContext {
  return {
    namespace: config.namespace,
    redisPrefix: where.installationPrefix.replace(/:$/, ""),
    redisUrl: config.redisUrl,
    dataDir: config.dataDir,
    publicUrl: config.publicUrl,
    localFiles: !where.external,
    external: where.external,
    outboundAllow: [...config.outboundUrlAllowlist],
  };
}

export interface SupervisorOptions {
  config: AppConfig;
  /** The TRANSPORTER the plugin nodes join (transporterForPluginNodes). */
  transporter: string;
  /** The core's Redis prefix (deps.redisPrefix()): its nodes' plugins keep their keys under it (INSTALLATION_PREFIX). */
  installationPrefix?: string;
  log(msg: string): void;
  /** Backoff between restarts, ms (default 1 s doubling to 30 s; reset after a minute up). */
  backoffMs?: { min: number; max: number };
}

interface Child {
  key: string;
  /** plugin-node's arguments: plugin ids, or `--folder <dir>`. */
  args: string[];
  /** Extra environment of the node. */
  env: Record<string, string | undefined>;
  proc?: ChildProcess;
  startedAt: number;
  attempt: number;
  exits: number;
  timer?: NodeJS.Timeout;
  /** The node's last lines of output (why it failed). */
  tail: string[];
  stopped: boolean;
}

/** tsx's loader, so a plugin node runs TypeScript whatever ran this process (npm start, jest). */
function tsxImport(rootDir: string): string[] {
  try {
    return ["--import", pathToFileURL(require.resolve("tsx", { paths: [rootDir] })).href];
  } catch {
    return [...process.execArgv];
  }
}

/**
 * Runs plugin nodes (core/src/bin/plugin-node.ts) and starts each again when it exits,
 * waiting longer after each quick failure: one per external plugin (`npm start` in embedded
 * mode, PLUGINS_EXTERNAL) and one per plugin installed from the marketplace (the plugin host).
 */
export class PluginNodeSupervisor {
  private readonly children = new Map<string, Child>();
  private stopping = false;
  private readonly min: number;
  private readonly max: number;

  constructor(private readonly opts: SupervisorOptions) {
    this.min = opts.backoffMs?.min ?? 1000;
    this.max = opts.backoffMs?.max ?? 30_000;
  }

  /** One node per plugin id, found the way plugin-node finds them (PLUGINS_EXTERNAL). */
  start(ids: string[]): void {
    for (const id of ids) this.add(id, [id], { PLUGIN_TOKENS: pluginTokensEnv(busKeyOf(this.opts.config.jwtSecret), [id]) });
  }

  /**
   * Starts a node under `key` with plugin-node's `args` (e.g. ["--folder", dir]). A key is
   * supervised once: remove() the old node first.
   */
  add(key: string, args: string[], env: Record<string, string | undefined> = {}): void {
    if (this.children.has(key)) throw new Error(`a plugin node '${key}' is already supervised`);
    const child: Child = { key, args, env, startedAt: 0, attempt: 0, exits: 0, tail: [], stopped: false };
    this.children.set(key, child);
    this.spawn(child);
  }

  has(key: string): boolean {
    return this.children.has(key);
  }

  /** How often the node under `key` exited since it was added, and its last lines of output. */
  state(key: string): { exits: number; running: boolean; tail: string } | null {
    const c = this.children.get(key);
    if (!c) return null;
    return { exits: c.exits, running: !!c.proc && c.proc.exitCode === null && c.proc.signalCode === null, tail: c.tail.join("") };
  }

  private spawn(child: Child): void {
    if (this.stopping || child.stopped) return;
    const { config } = this.opts;
    const entry = path.join(config.rootDir, "core/src/bin/plugin-node.ts");
    const proc = spawn(process.execPath, [...tsxImport(config.rootDir), entry, ...child.args], {
      cwd: config.rootDir,
      // Never the core's secret (it makes the bus key): a plugin node proves who it is with its PLUGIN_TOKENS only.
      env: childEnv({ TRANSPORTER: this.opts.transporter, NAMESPACE: config.namespace, INSTALLATION_PREFIX: this.opts.installationPrefix, NODE_ID: undefined, TRANSPORTER_PORT: undefined, PLUGINS_EXTERNAL: undefined, SERVICES: undefined, JWT_SECRET: randomBytes(32).toString("hex"), OUTBOUND_URL_ALLOWLIST: config.outboundUrlAllowlist.join(","), ...child.env }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.proc = proc;
    child.startedAt = Date.now();
    const prefix = `[plugin ${child.key}] `;
    const forward = (out: NodeJS.WriteStream) => (b: Buffer) => {
      const text = b.toString();
      child.tail.push(text);
      if (child.tail.length > 40) child.tail.splice(0, child.tail.length - 40);
      out.write(text.replace(/^(?=.)/gm, prefix));
    };
    proc.stdout?.on("data", forward(process.stdout));
    proc.stderr?.on("data", forward(process.stderr));
    proc.on("exit", (code, signal) => {
      if (child.proc === proc) child.proc = undefined;
      child.exits++;
      if (this.stopping || child.stopped) return;
      if (Date.now() - child.startedAt > 60_000) child.attempt = 0;
      const wait = Math.min(this.max, this.min * 2 ** child.attempt++);
      this.opts.log(`plugin node ${child.key} exited (${signal ?? `code ${code}`}); starting it again in ${Math.round(wait / 100) / 10} s`);
      child.timer = setTimeout(() => this.spawn(child), wait);
    });
  }

  private stopChild(c: Child, graceMs: number): Promise<void> {
    c.stopped = true;
    return new Promise<void>((resolve) => {
      clearTimeout(c.timer);
      const p = c.proc;
      if (!p || p.exitCode !== null || p.signalCode !== null) return resolve();
      const kill = setTimeout(() => p.kill("SIGKILL"), graceMs);
      p.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      p.kill("SIGTERM");
    });
  }

  /** Stops the node under `key` and forgets it. */
  async remove(key: string, graceMs = 8000): Promise<void> {
    const c = this.children.get(key);
    if (!c) return;
    this.children.delete(key);
    await this.stopChild(c, graceMs);
  }

  /** Stops every plugin node (SIGTERM, then SIGKILL after `graceMs`). */
  async stop(graceMs = 8000): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.children.values()].map((c) => this.stopChild(c, graceMs)));
  }
}
