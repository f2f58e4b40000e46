import { ServiceBroker, Errors } from "moleculer";
import { loadConfig } from "@openatende/config";
import * as os from "node:os";
import { transporterOf } from "./external";
import { watchPluginNodes } from "./node-watch";
import { isPluginAway } from "../channels/outbox-contract";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: os.tmpdir(), JWT_SECRET: "j".repeat(40), ...env });

describe("the transporter of a node", () => {
  it("is none without plugin nodes, NATS for nats://, TCP on loopback beside plugin nodes (external or installed)", () => {
    expect(transporterOf(config({ PLUGIN_INSTALLS: "false" }))).toBeUndefined();
    // Marketplace installs are on by default: an embedded core listens for their nodes.
    const installs = transporterOf(config({})) as unknown as { opts: Record<string, unknown> };
    expect(installs.opts).toMatchObject({ udpDiscovery: false });
    expect(transporterOf(config({ TRANSPORTER: "nats://127.0.0.1:4222" }))).toEqual({ type: "NATS", options: { url: "nats://127.0.0.1:4222" } });
    const core = transporterOf(config({ PLUGINS_EXTERNAL: "channel-telegram", TRANSPORTER_PORT: "7411" })) as unknown as { opts: Record<string, unknown> };
    expect(core.opts).toMatchObject({ udpDiscovery: false, port: 7411 });
    const node = transporterOf(config({ TRANSPORTER: "tcp://127.0.0.1:7411/core-1" })) as unknown as { opts: Record<string, unknown> };
    expect(node.opts).toMatchObject({ udpDiscovery: false, urls: "127.0.0.1:7411/core-1" });
    // Peers on other hosts: Moleculer's plain TCP transporter.
    expect(transporterOf(config({ TRANSPORTER: "tcp://10.0.0.5:7411/core-1" }))).toEqual({ type: "TCP", options: { udpDiscovery: false, urls: "10.0.0.5:7411/core-1", port: undefined } });
  });
});

describe("watchPluginNodes", () => {
  const namespace = `watch-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  // The plugin node's own heartbeat is slow on purpose: what happens here is the watchdog's doing.
  const core = new ServiceBroker({ nodeID: "core", namespace, transporter: "Fake", logger: false, heartbeatInterval: 60, heartbeatTimeout: 180 });
  const plugin = new ServiceBroker({ nodeID: "plugin-x", namespace, transporter: "Fake", logger: false, heartbeatInterval: 60, heartbeatTimeout: 180 });
  let release: (() => void) | undefined;
  let watch: { stop(): void };
  const gone: string[] = [];

  beforeAll(async () => {
    plugin.createService({
      name: "channel-x",
      version: 1,
      metadata: { plugin: { id: "channel-x", version: "1.0.0", kind: "channel", coreApi: "^1.0.0" } },
      actions: {
        hang: () => new Promise<void>((r) => (release = r)),
        ok: () => "ok",
      },
    });
    await Promise.all([core.start(), plugin.start()]);
    await core.waitForServices(["v1.channel-x"]);
    watch = watchPluginNodes(core, { intervalMs: 100, timeoutMs: 100, misses: 3, onGone: (id) => gone.push(id) });
  });
  afterAll(async () => {
    watch.stop();
    release?.();
    await Promise.all([core.stop(), plugin.stop()]);
  });

  it("takes a node that stops answering as gone: its calls are rejected as 'away', its services leave", async () => {
    const transit = plugin.transit as unknown as { sendPong(p: unknown): unknown };
    const sendPong = transit.sendPong.bind(transit);
    transit.sendPong = () => Promise.resolve(); // the node hangs (as a killed one over NATS: no word)
    const pending = core.call("v1.channel-x.hang").catch((err: unknown) => err);
    const t0 = Date.now();
    for (let i = 0; i < 50 && core.registry.hasService("v1.channel-x", undefined as never); i++) await sleep(50);
    expect(core.registry.hasService("v1.channel-x", undefined as never)).toBe(false);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(gone).toEqual(["plugin-x"]);
    const err = await pending;
    expect(err).toBeInstanceOf(Errors.RequestRejectedError);
    expect(isPluginAway(err)).toBe(true);

    // It was only slow: it answers again and its services are back well before a heartbeat.
    transit.sendPong = sendPong;
    for (let i = 0; i < 50 && !core.registry.hasService("v1.channel-x", undefined as never); i++) await sleep(50);
    expect(core.registry.hasService("v1.channel-x", undefined as never)).toBe(true);
    expect(await core.call("v1.channel-x.ok")).toBe("ok");
  });
});
