/**
 * The core API and the core's events with the plugin in a node of its own (over NATS): the
 * core knows the caller from the node's verified identity (the caller guard), answers only for
 * a tenant the plugin is available to, and delivers the events to the node; a node killed
 * meanwhile gets what happened when it is back.
 */
import * as path from "node:path";
import Redis from "ioredis";
import type { PlatformEventEnvelope } from "@openatende/plugin-sdk";
import { createTenant, uid, type Auth, type TestCore, type TenantFixture } from "./helpers";
import { startPluginNode, type PluginNode } from "./plugin-node";
import { transporterForPluginNodes } from "../src/plugins/external";
import { allowPlugins, probeCall, rejection, startWithProbe, waitFor, FIXTURES, PROBE, PROBE_SERVICE } from "./platform-setup";

async function dropRedisKeys(pattern: string) {
  const r = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", pattern, "COUNT", 500);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    r.disconnect();
  }
}

describe("core API and events with the plugin in its own node (NATS)", () => {
  const namespace = `platnode-${uid()}`;
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let node: PluginNode | undefined;
  let nodeEnv: Record<string, string>;

  const startNode = async () => {
    node = startPluginNode([PROBE, "--dir", path.join(FIXTURES, "platform")], nodeEnv);
    await node.ready;
    await waitFor(async () => t.core.broker.registry.hasService(PROBE_SERVICE, undefined as never), (x) => x, "the probe on the core's broker", 30_000);
  };
  const received = () => t.core.broker.call(`${PROBE_SERVICE}.received`) as Promise<PlatformEventEnvelope[]>;
  const newTag = async (name: string) => (await t.api.post("/tags", { name: `${name} ${uid()}`, color: "#abcdef" }, a.admin)).body.id as number;

  beforeAll(async () => {
    ({ t, sup } = await startWithProbe({ external: true, env: { NAMESPACE: namespace, TRANSPORTER: "nats://127.0.0.1:4222", LOG_LEVEL: "error" } }));
    nodeEnv = {
      TRANSPORTER: transporterForPluginNodes(t.config, t.core.broker),
      NAMESPACE: namespace,
      REDIS_URL: t.config.redisUrl,
      DATA_DIR: t.config.dataDir,
      PUBLIC_URL: t.config.publicUrl,
      JWT_SECRET: t.config.jwtSecret,
      DATABASE_URL: "",
    };
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    await allowPlugins(t, sup, a.tenantId, [PROBE]);
    await startNode();
  }, 120_000);
  afterAll(async () => {
    await node?.kill("SIGTERM");
    await t?.stop();
    await dropRedisKeys(`${namespace}:*`);
  });

  it("answers the node's plugin for a tenant it is available to, and refuses the others", async () => {
    const tagId = await newTag("Node");
    expect((await probeCall(t, "platform.tags.list", { tenantId: a.tenantId })).map((x) => x.id)).toEqual([tagId]);
    expect((await rejection(probeCall(t, "platform.tags.list", { tenantId: b.tenantId }))).type).toBe("ERR_PLUGIN_NOT_ALLOWED");
    const events = await waitFor(received, (l) => l.some((e) => e.event === "tags.changed"), "the tag event at the node");
    expect(events.map((e) => [e.event, e.tenantId, e.data])).toEqual([["tags.changed", a.tenantId, { tagId }]]);
  });

  it("a node killed meanwhile gets what happened when it is back, in order", async () => {
    await node!.kill("SIGKILL");
    await waitFor(async () => t.core.broker.registry.hasService(PROBE_SERVICE, undefined as never), (x) => !x, "the probe gone", 30_000);
    const tags = [await newTag("Down 1"), await newTag("Down 2")];
    await startNode();
    const events = await waitFor(received, (l) => l.length >= 2, "the events of while it was down");
    expect(events.map((e) => [e.event, e.data])).toEqual(tags.map((tagId) => ["tags.changed", { tagId }]));
  });
});
