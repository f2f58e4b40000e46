/**
 * Installed plugins with two plugin hosts in one cluster (NATS, one MariaDB, one DATA_DIR):
 * one host runs the installed plugins' nodes (the host lock in Redis), the other lists them
 * and hands install, upgrade and rollback over to it; when the first host stops, the other
 * takes the lock over and starts the nodes. Never two nodes of one installed plugin.
 */
import * as fs from "node:fs";
import { loadConfig } from "@openatende/config";
import { sha256Hex, type PluginRecord } from "@openatende/plugin-sdk";
import { createCore, Core } from "../src/broker";
import { createSuper, dropDatabase, startCore, uid, type TestCore } from "./helpers";
import { makePluginArchive } from "../../marketplace/test/fixtures";

jest.setTimeout(240_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: string, fn: () => boolean | Promise<boolean>, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
}

describe("installed plugins with two plugin hosts", () => {
  let t: TestCore;
  let second: Core | undefined;
  let firstStopped = false;
  const namespace = `inst-cluster-${uid()}`;
  const id = `channel-cl-${uid()}`;

  /** Nodes that offer the plugin's service, as a broker sees them. */
  const nodesOf = (core: Core, service: string) =>
    (core.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ fullName: string; nodeID: string }>).filter((s) => s.fullName === service).map((s) => s.nodeID);

  beforeAll(async () => {
    t = await startCore({ env: { PLUGIN_INSTALLS: "true", TRANSPORTER: "nats://127.0.0.1:4222", NAMESPACE: namespace } });
    const config = loadConfig({
      NODE_ENV: "test",
      NODE_ID: `host-2-${uid()}`,
      SERVICES: "plugins",
      TRANSPORTER: "nats://127.0.0.1:4222",
      NAMESPACE: namespace,
      PLUGIN_INSTALLS: "true",
      DATA_DIR: t.config.dataDir,
      DATABASE_URL: t.config.database.url,
      REDIS_URL: t.config.redisUrl,
      JWT_SECRET: t.config.jwtSecret,
      LOG_LEVEL: "warn",
      SEED: "false",
    });
    second = createCore({ config, logger: false, migrate: false });
    await second.start();
    await until("both plugin hosts on the bus", () => (t.core.broker.registry.getServiceList({ onlyAvailable: true }) as Array<{ name: string }>).filter((s) => s.name === "plugins").length === 2);
  });

  afterAll(async () => {
    await second?.stop();
    if (!firstStopped) await t?.core.stop();
    await dropDatabase(t.config.database.database!);
    fs.rmSync(t.config.dataDir, { recursive: true, force: true });
  });

  it("one host runs the plugin's node, the other lists it, and either takes install, upgrade and rollback", async () => {
    const sup = await createSuper(t);
    const pub = await t.api.post("/marketplace/publishers", { name: "Cluster", email: `cl-${uid()}@pub.test` }, sup);
    expect(pub.status).toBe(201);
    for (const version of ["1.0.0", "1.1.0"]) {
      const { archive } = makePluginArchive({ id, version });
      expect((await t.api.post("/marketplace/publish", { archive: archive.toString("base64"), checksum: sha256Hex(archive) }, null, { "x-publisher-token": pub.body.token })).status).toBe(201);
    }
    // Calls to plugins.* are balanced over the two hosts: whichever takes one, the host runs it.
    const steps: Array<[string, string, object]> = [
      ["POST", "/plugins/installed", { id, version: "1.0.0" }],
      ["POST", "/plugins/installed", { id, version: "1.1.0" }],
      ["POST", `/plugins/installed/${id}/rollback`, {}],
      ["POST", "/plugins/installed", { id, version: "1.1.0" }],
    ];
    for (const [method, path, body] of steps) {
      const r = await t.api.call(method, path, body, sup);
      expect({ path, status: r.status, running: r.body.running }).toEqual({ path, status: 200, running: true });
    }
    const service = `v1.${id}`;
    await until("one node of the plugin", () => nodesOf(t.core, service).length === 1);
    const [node] = nodesOf(t.core, service);
    expect([t.core.broker.nodeID, second!.broker.nodeID]).not.toContain(node);
    await sleep(1500);
    expect(nodesOf(t.core, service)).toEqual([node]);

    // The second host's own registry lists the version that runs.
    const listed = async () => ((await second!.broker.call("plugins.registry", {}, { nodeID: second!.broker.nodeID })) as PluginRecord[]).find((r) => r.id === id);
    await until("the second host's registry", async () => (await listed())?.version === "1.1.0");
    expect(await listed()).toMatchObject({ status: "loaded", installed: true, service });
  });

  it("when the host stops, the other takes over and starts the plugin's node", async () => {
    const service = `v1.${id}`;
    await t.core.stop();
    firstStopped = true;
    await until("the plugin's node started by the second host", () => nodesOf(second!, service).length === 1, 60_000);
    await sleep(1500);
    expect(nodesOf(second!, service)).toHaveLength(1);
  });
});
