/**
 * A plugin node for the tests: a real ServiceBroker running the WhatsApp plugin's service with
 * a fake socket factory and a fake clock, its platform context pointing at the real Redis and
 * the plugin's own database (SQLite or MariaDB, migrations run). One node also runs the
 * SDK's fake core ("channels", recording every call) and a "plugins" service that allows the
 * plugin. Cluster tests join nodes over the real NATS.
 */
import * as os from "node:os";
import IORedis from "ioredis";
import { ServiceBroker } from "moleculer";
import { createFakeCore, withPluginContext, type FakeCore } from "@openatende/plugin-sdk";
import { createWhatsAppPlugin } from "../../../src/service";
import type { SessionOptions } from "../../../src/session/session";
import { FakeClock } from "./fake-clock";
import { FakeSocketFactory } from "./fake-socket";
import type { TestDb } from "./db";

export const SERVICE = "v1.channel-whatsapp";

export interface TestNode {
  broker: ServiceBroker;
  factory: FakeSocketFactory;
  clock: FakeClock;
  core?: FakeCore;
  nodeID: string;
  call<T = unknown>(action: string, params: unknown, opts?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

export interface NodeOptions {
  nodeID: string;
  namespace: string;
  db: TestDb;
  /** Runs the fake core and the plugins service here. */
  withCore?: boolean;
  /** Joins the other nodes over NATS. */
  nats?: boolean;
  session?: Partial<SessionOptions>;
  sweepMs?: number;
  lockTtlMs?: number;
  sendIntervalMs?: number;
}

export const token = (tenantId: number, connectionId: number) => `conformance:${tenantId}:${connectionId}`;

export async function startNode(o: NodeOptions): Promise<TestNode> {
  const clock = new FakeClock();
  const factory = new FakeSocketFactory(() => clock.now());
  const broker = new ServiceBroker({
    nodeID: o.nodeID,
    namespace: o.namespace,
    logger: false,
    ...(o.nats ? { transporter: { type: "NATS", options: { url: "nats://127.0.0.1:4222" } } } : {}),
  });
  let core: FakeCore | undefined;
  if (o.withCore) {
    core = createFakeCore();
    broker.createService(core.schema);
    broker.createService({ name: "plugins", actions: { isEnabled: () => true } });
  }
  const plugin = createWhatsAppPlugin({
    socketFactory: () => factory,
    clock,
    random: () => 0.5,
    session: o.session,
    sweepMs: o.sweepMs ?? 5000,
    lockTtlMs: o.lockTtlMs ?? 30_000,
    sendIntervalMs: o.sendIntervalMs ?? 0,
  });
  broker.createService(
    withPluginContext(plugin.schema, {
      namespace: o.namespace,
      redisUrl: "redis://127.0.0.1:6379",
      dataDir: os.tmpdir(),
      publicUrl: "http://localhost",
      localFiles: true,
      external: false,
      database: o.db.address,
    }),
  );
  await broker.start();
  return {
    broker,
    factory,
    clock,
    core,
    nodeID: o.nodeID,
    call: (action, params, opts) => broker.call(action, params as never, opts as never),
    stop: () => broker.stop(),
  };
}

/** Removes the Redis keys a test namespace left (locks, fences, the wanted registry). */
export async function dropNamespace(namespace: string): Promise<void> {
  const redis = new IORedis("redis://127.0.0.1:6379");
  try {
    const keys = await redis.keys(`${namespace}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

export const uniqueNamespace = (what: string) => `wa-${what}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
