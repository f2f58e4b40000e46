/**
 * The plugin node of `bench:whatsapp`: the real channel-whatsapp service (sessions, owner
 * locks, its own MariaDB database, the message side) in a broker node of its own, joined to
 * the bench's core over the transporter like core/src/bin/plugin-node.ts, but on fake sockets
 * (the plugin's test socket factory, Baileys' own event emitter and protobuf messages) that
 * open at once. A small `wa-bench` service beside it lets the bench drive the sockets:
 * customers' messages at a rate, a drop of every socket at once, and the node's figures.
 */
import * as os from "node:os";
import { performance } from "node:perf_hooks";
import { ServiceBroker, type Context } from "moleculer";
import type { WAMessage } from "@whiskeysockets/baileys";
import { getConfig } from "@openatende/config";
import { ensurePluginDatabase, loadPluginMigrations, openPluginDataAt, runPluginMigrations, withPluginContext } from "@openatende/plugin-sdk";
import { pluginContextOf, transporterOf } from "../src/plugins/external";
import { pluginDatabaseOf } from "../src/plugins/data";
import { AccessMiddleware } from "../src/middlewares/access.middleware";
import { createCallerGuard } from "../src/middlewares/caller-guard.middleware";
import { createWhatsAppPlugin } from "../../plugins/channel-whatsapp/src/service";
import { loadBaileys } from "../../plugins/channel-whatsapp/src/session/baileys";
import { FakeSocketFactory, type FakeSocket } from "../../plugins/channel-whatsapp/test/session/support/fake-socket";
import * as path from "node:path";

const PLUGIN_DIR = path.resolve(__dirname, "../../plugins/channel-whatsapp");

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes of one machine. */
const wallMs = () => performance.timeOrigin + performance.now();

async function main() {
  const { proto } = await loadBaileys();
  const config = getConfig();
  const database = pluginDatabaseOf(config, "channel-whatsapp");
  await ensurePluginDatabase(database);
  const data = await openPluginDataAt(database);
  await runPluginMigrations(data, loadPluginMigrations(PLUGIN_DIR));
  await data.close();

  const factory = new FakeSocketFactory();
  // Every socket opens as soon as the session listens, as a linked account does.
  factory.onListen = (s: FakeSocket) => {
    const n = s.opts.ref.connectionId;
    setImmediate(() => s.open({ id: `55119${String(n).padStart(8, "0")}:3@s.whatsapp.net`, lid: `88${String(n).padStart(12, "0")}:3@lid`, name: `Loja ${n}` }));
  };
  const broker = new ServiceBroker({
    nodeID: `wa-bench-${os.hostname()}-${process.pid}`,
    namespace: config.namespace,
    transporter: transporterOf(config),
    logger: { type: "Console", options: { level: config.logLevel } },
    requestTimeout: 0,
    // The bench's own node, given the core's JWT_SECRET: it speaks as a core node (its wa-bench
    // service is the bench's, not a plugin's), see core/src/plugins/THREAT-MODEL.md.
    middlewares: [AccessMiddleware, createCallerGuard(config.jwtSecret)],
  });
  const plugin = createWhatsAppPlugin({ socketFactory: () => factory, sendIntervalMs: 0 });
  broker.createService(withPluginContext(plugin.schema, { ...pluginContextOf(config, { external: true, installationPrefix: config.installationPrefix || `${config.namespace}:bench:` }), database }));

  let seq = 0;
  const last = new Map<number, WAMessage>();
  /** The most live sockets any one connection had at once, sampled every 5 ms. */
  let maxLivePerConnection = 0;
  const sample = setInterval(() => {
    const per = new Map<number, number>();
    for (const s of factory.live) per.set(s.opts.ref.connectionId, (per.get(s.opts.ref.connectionId) ?? 0) + 1);
    for (const n of per.values()) maxLivePerConnection = Math.max(maxLivePerConnection, n);
  }, 5);
  sample.unref();

  const liveOf = (connectionId: number) => factory.live.find((s) => s.opts.ref.connectionId === connectionId && s.user);

  broker.createService({
    name: "wa-bench",
    actions: {
      stats() {
        const open = new Set(factory.live.filter((s) => s.user).map((s) => s.opts.ref.connectionId));
        return { rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed, sockets: factory.sockets.length, live: factory.live.length, openConnections: open.size, maxLivePerConnection };
      },
      /**
       * Customers' messages: `count` in all, spread over the connections and `customers`
       * senders per connection, at `rate` a second. Each body says when it was emitted.
       */
      async inbound(ctx: Context<{ connectionIds: number[]; customers: number; count: number; rate: number; tag: string }>) {
        const { connectionIds, customers, count, rate, tag } = ctx.params;
        const start = performance.now();
        let emitted = 0;
        for (let i = 0; i < count; i++) {
          const due = start + (i * 1000) / rate;
          const wait = due - performance.now();
          if (wait > 1) await new Promise((r) => setTimeout(r, wait));
          const connectionId = connectionIds[i % connectionIds.length];
          const sock = liveOf(connectionId);
          if (!sock) continue;
          const customer = Math.floor(i / connectionIds.length) % customers;
          const msg = proto.WebMessageInfo.fromObject({
            key: { remoteJid: `5521${String(connectionId).padStart(4, "0")}${String(customer).padStart(5, "0")}@s.whatsapp.net`, fromMe: false, id: `BENCH${tag}${(++seq).toString(16).toUpperCase().padStart(12, "0")}` },
            message: { conversation: `${tag} ${i} @${wallMs().toFixed(3)}` },
            messageTimestamp: Math.floor(Date.now() / 1000),
            pushName: `Cliente ${customer}`,
          }) as WAMessage;
          sock.upsert([msg], "notify");
          last.set(connectionId, msg);
          emitted++;
        }
        return { emitted, seconds: (performance.now() - start) / 1000 };
      },
      /** Each connection's last customer message upserted again on its new socket, as WhatsApp replays after a reconnect. */
      replayLast() {
        let replayed = 0;
        for (const [connectionId, msg] of last) {
          const sock = liveOf(connectionId);
          if (!sock) continue;
          sock.upsert([msg], "append");
          replayed++;
        }
        return { replayed };
      },
      /** Every socket closes at once with "Connection Lost" (408), as when the network drops. */
      dropAll() {
        const live = factory.live;
        maxLivePerConnection = 0;
        for (const s of live) s.close(408, "Connection Lost");
        return { dropped: live.length, at: wallMs() };
      },
    },
  });
  await broker.start();
  console.log(`[wa-bench-node] running ${broker.nodeID}`);
  const stop = async () => {
    await broker.stop();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

main().catch((err) => {
  console.error("[wa-bench-node] failed:", err);
  process.exit(1);
});
