/**
 * The fixture archive is valid for the marketplace (inspectArchive) and its server entry is
 * accepted and started by the core's plugin loader on a bare broker.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ServiceBroker } from "moleculer";
import { inspectArchive, readArchive, sha256Hex } from "@openatende/plugin-sdk";
import { loadPlugins } from "@openatende/core";
import { makePluginArchive } from "./fixtures";

const limits = { maxBytes: 20 * 1024 * 1024 };

describe("makePluginArchive", () => {
  it("makes a valid archive: manifest, readme, changelog, checksum and file name", () => {
    const a = makePluginArchive({ id: "channel-echo", version: "1.4.2", tier: "PLUS", description: "Echoes", changelog: "## 1.4.2\n- faster echoes\n" });
    expect(a.fileName).toBe("channel-echo-1.4.2.tgz");
    expect(a.checksum).toBe(sha256Hex(a.archive));
    const r = inspectArchive(a.archive, { limits, checksum: a.checksum });
    expect(r.manifest).toMatchObject({ id: "channel-echo", version: "1.4.2", kind: "channel", tier: "PLUS", coreApi: "^1.0.0", channel: { capabilities: ["text"] } });
    expect(r.manifest.ui).toBeUndefined();
    expect(r.pkg.description).toBe("Echoes");
    expect(r.changelog).toBe("## 1.4.2\n- faster echoes\n");
    expect(r.readme).toContain("channel-echo");
    expect(r.files.map((f) => f.path)).toEqual(["CHANGELOG.md", "README.md", "dist/server/index.js", "package.json"]);
  });

  it("with withUi includes dist/ui/remoteEntry.js and a ui manifest; same options give the same bytes", () => {
    const opts = { id: "channel-echo-ui", version: "2.0.0", withUi: true, displayName: { "pt-BR": "Eco UI", en: "Echo UI" } };
    const a = makePluginArchive(opts);
    const r = inspectArchive(a.archive, { limits, checksum: a.checksum });
    expect(r.manifest.ui).toEqual({ remoteEntry: "remoteEntry.js", exposes: [] });
    expect(r.manifest.displayName).toEqual({ "pt-BR": "Eco UI", en: "Echo UI" });
    expect(r.files.map((f) => f.path)).toContain("dist/ui/remoteEntry.js");
    expect(makePluginArchive(opts).archive.equals(a.archive)).toBe(true);
  });
});

describe("the fixture's server entry in the core's loader", () => {
  let broker: ServiceBroker;
  let dir: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-mkp-fixture-"));
    broker = new ServiceBroker({ logger: false, nodeID: `fixture-${process.pid}` });
    await broker.start();
  });
  afterAll(async () => {
    await broker?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Unpacks an archive into <dir>/plugins/<id>/ as the installer would. */
  function unpack(archive: Buffer, id: string): string {
    const folder = path.join(dir, "plugins", id);
    for (const f of readArchive(archive, limits)) {
      const target = path.join(folder, f.path);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, f.data, { mode: f.mode });
    }
    return folder;
  }

  it("is loaded as v<major>.<id> and answers the channel contract", async () => {
    const { archive } = makePluginArchive({ id: "channel-loopecho", version: "3.1.0", withUi: true });
    const folder = unpack(archive, "channel-loopecho");
    const refused: string[] = [];
    const registry = await loadPlugins(broker, { dirs: [path.dirname(folder)], onRefused: (p) => refused.push(`${p.id}: ${p.reason}`) });
    expect(refused).toEqual([]);
    const loaded = registry.loaded();
    expect(loaded.map((p) => ({ id: p.id, version: p.version, service: p.service }))).toEqual([{ id: "channel-loopecho", version: "3.1.0", service: "v3.channel-loopecho" }]);
    expect(registry.records().find((r) => r.id === "channel-loopecho")?.status).toBe("loaded");

    const svc = "v3.channel-loopecho";
    const ref = { tenantId: 7, connectionId: 11 };
    expect(await broker.call(`${svc}.status`, ref)).toEqual({ status: "disconnected" });
    expect(await broker.call(`${svc}.connect`, { ...ref, settings: {} })).toEqual({ status: "connected" });
    expect(await broker.call(`${svc}.status`, ref)).toEqual({ status: "connected" });
    expect(await broker.call(`${svc}.test`, { tenantId: 7, settings: {} })).toEqual({ ok: true, detail: "echo" });

    const sent = (await broker.call(`${svc}.send`, { ...ref, to: { externalId: "c1" }, message: { kind: "text", body: "hi" }, messageId: 5 })) as { providerMessageId: string; timestamp: number };
    expect(sent.providerMessageId).toMatch(/^channel-loopecho-echo-\d+$/);
    expect(typeof sent.timestamp).toBe("number");
    // idempotent per messageId
    expect(await broker.call(`${svc}.send`, { ...ref, to: { externalId: "c1" }, message: { kind: "text", body: "hi" }, messageId: 5 })).toEqual(sent);
    expect(await broker.call(`${svc}.sent`, { connectionId: 11 })).toEqual([{ ...ref, to: "c1", body: "hi", providerMessageId: sent.providerMessageId }]);
    await expect(broker.call(`${svc}.send`, { ...ref, to: { externalId: "c1" }, message: { kind: "media", media: { mimeType: "image/png" } } })).rejects.toMatchObject({
      type: "ERR_CHANNEL_UNSUPPORTED",
      code: 400,
    });
    await expect(broker.call(`${svc}.send`, { ...ref, to: { externalId: "c1" }, message: { kind: "text" } })).rejects.toMatchObject({ type: "VALIDATION_ERROR" });

    expect(await broker.call(`${svc}.disconnect`, ref)).toEqual({ status: "disconnected" });
    expect(await broker.call(`${svc}.status`, ref)).toEqual({ status: "disconnected" });
  });

  it("echoes a sent text back as an inbound message when the connection has echo: true", async () => {
    const inbound: unknown[] = [];
    const statuses: unknown[] = [];
    broker.createService({
      name: "channels",
      actions: {
        inbound: (ctx) => void inbound.push(ctx.params),
        status: (ctx) => void statuses.push(ctx.params),
      },
    });
    await broker.waitForServices(["channels"]);
    const { archive } = makePluginArchive({ id: "channel-replyecho", version: "1.0.0" });
    const folder = unpack(archive, "channel-replyecho");
    const registry = await loadPlugins(broker, { dirs: [path.dirname(folder)], only: ["channel-replyecho"] });
    expect(registry.loaded().map((p) => p.service)).toEqual(["v1.channel-replyecho"]);
    const ref = { tenantId: 3, connectionId: 4 };
    await broker.call("v1.channel-replyecho.connect", { ...ref, settings: { echo: true } });
    expect(statuses).toEqual([{ ...ref, status: "connected" }]);
    const sent = (await broker.call("v1.channel-replyecho.send", { ...ref, to: { externalId: "visitor-9" }, message: { kind: "text", body: "ping" } })) as { providerMessageId: string };
    for (let i = 0; i < 50 && inbound.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(inbound).toEqual([{ ...ref, providerMessageId: `${sent.providerMessageId}-reply`, timestamp: expect.any(Number), from: { externalId: "visitor-9" }, body: "echo: ping" }]);
  });
});
