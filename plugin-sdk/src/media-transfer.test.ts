import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { ServiceBroker, type Context } from "moleculer";
import { inbound } from "./helpers";
import { collectMedia, INLINE_MEDIA_MAX_CHARS, MEDIA_CHUNK_BYTES, readMedia, uploadMedia } from "./media-transfer";
import { pluginContext, PluginContextMissingError, withPluginContext, type PluginContext } from "./plugin-context";
import type { InboundMessage, MediaRef } from "./channel-contract";

/**
 * Two brokers over Moleculer's in-memory transporter, with the JSON serializer: what crosses
 * between them is serialized packets, as over NATS or TCP. One plays the core's side of the
 * file actions, the other the plugin.
 */
describe("media between a plugin and the core across a transporter", () => {
  const namespace = `media-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const core = new ServiceBroker({ nodeID: "core", namespace, transporter: "Fake", logger: false });
  const plugin = new ServiceBroker({ nodeID: "plugin", namespace, transporter: "Fake", logger: false });
  const stored = new Map<string, Buffer>();
  const inbounds: InboundMessage[] = [];
  const chunkSizes: number[] = [];
  const ref = { tenantId: 3, connectionId: 9 };

  beforeAll(async () => {
    core.createService({
      name: "channelFiles",
      actions: {
        async upload(ctx: Context<{ tenantId: number; fileName?: string; mimeType: string; size: number }>) {
          const chunks: unknown[] = [];
          const stream = (ctx as unknown as { stream: AsyncIterable<unknown> }).stream;
          for await (const c of stream) chunks.push(c);
          for (const c of chunks) chunkSizes.push(String(c).length);
          const data = await collectMedia(Readable.from(chunks, { objectMode: true }));
          const p = `tenants/${ctx.params.tenantId}/media/${stored.size + 1}-${ctx.params.fileName}`;
          stored.set(p, data);
          return { path: p, mimeType: ctx.params.mimeType, fileName: ctx.params.fileName, size: data.length } satisfies MediaRef;
        },
        read(ctx: Context<{ path: string }>) {
          const data = stored.get(ctx.params.path)!;
          const out: string[] = [];
          for (let i = 0; i < data.length; i += MEDIA_CHUNK_BYTES) out.push(data.subarray(i, i + MEDIA_CHUNK_BYTES).toString("base64"));
          return Readable.from(out, { objectMode: true });
        },
      },
    });
    core.createService({
      name: "channels",
      actions: {
        inbound(ctx: Context<InboundMessage>) {
          inbounds.push(ctx.params);
          return { messageId: inbounds.length, ticketId: 1, duplicate: false };
        },
      },
    });
    plugin.createService(
      withPluginContext(
        { name: "channel-x", version: 1, settings: { rest: "/" }, actions: { noop: () => true } },
        { namespace, redisUrl: "redis://secret:pw@127.0.0.1:6379", dataDir: "/tmp", publicUrl: "http://x", localFiles: false, external: true },
      ),
    );
    await Promise.all([core.start(), plugin.start()]);
    await Promise.all([plugin.waitForServices(["channelFiles", "channels"]), core.waitForServices(["v1.channel-x"])]);
  });
  afterAll(() => Promise.all([core.stop(), plugin.stop()]));

  it("inbound() streams a large inline file into the core first and hands over its reference; a small one goes inline", async () => {
    const big = randomBytes(700_000);
    await inbound(plugin, { ...ref, providerMessageId: "p1", timestamp: 1, from: { externalId: "c1" }, media: { data: big.toString("base64"), mimeType: "image/jpeg", fileName: "big.jpg" } });
    const first = inbounds.at(-1)!;
    expect(first.media).toMatchObject({ mimeType: "image/jpeg", fileName: "big.jpg", size: big.length });
    expect(first.media!.data).toBeUndefined();
    expect(stored.get(first.media!.path!)!.equals(big)).toBe(true);
    // In chunks no larger than a packet should carry: 256 KiB of base64 text each.
    expect(Math.max(...chunkSizes)).toBeLessThanOrEqual(256 * 1024);
    expect(chunkSizes.length).toBe(Math.ceil(big.length / MEDIA_CHUNK_BYTES));

    const small = randomBytes(1000);
    await inbound(plugin, { ...ref, providerMessageId: "p2", timestamp: 2, from: { externalId: "c1" }, media: { data: small.toString("base64"), mimeType: "image/png" } });
    expect(inbounds.at(-1)!.media).toEqual({ data: small.toString("base64"), mimeType: "image/png" });
    expect(small.toString("base64").length).toBeLessThan(INLINE_MEDIA_MAX_CHARS);
  });

  it("readMedia streams a stored file from the core when the plugin has no share of its disk", async () => {
    const data = randomBytes(1_500_000);
    const media = await uploadMedia(plugin, ref, { data, mimeType: "application/pdf", fileName: "doc.pdf" });
    const back = await readMedia(plugin, ref, media, { dataDir: "/nowhere", localFiles: false });
    expect(back!.equals(data)).toBe(true);
    expect((await readMedia(plugin, ref, { data: "aGk=", mimeType: "text/plain" }))!.toString()).toBe("hi");
    expect(await readMedia(plugin, ref, { url: "https://example.test/x.png", mimeType: "image/png" })).toBeNull();
  });

  it("readMedia reads a shared data folder in place, only inside the tenant's folder", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdk-media-"));
    fs.mkdirSync(path.join(dir, "tenants/3/media"), { recursive: true });
    fs.mkdirSync(path.join(dir, "tenants/4/media"), { recursive: true });
    fs.writeFileSync(path.join(dir, "tenants/3/media/a.txt"), "mine");
    fs.writeFileSync(path.join(dir, "tenants/4/media/b.txt"), "theirs");
    const local = { dataDir: dir, localFiles: true };
    expect((await readMedia(plugin, ref, { path: "tenants/3/media/a.txt", mimeType: "text/plain" }, local))!.toString()).toBe("mine");
    await expect(readMedia(plugin, ref, { path: "tenants/4/media/b.txt", mimeType: "text/plain" }, local)).rejects.toThrow(/outside the tenant/);
    await expect(readMedia(plugin, ref, { path: "tenants/3/../4/media/b.txt", mimeType: "text/plain" }, local)).rejects.toThrow(/outside the tenant/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the plugin context reaches the service but never leaves its process", async () => {
    const svc = plugin.getLocalService({ name: "channel-x", version: 1 })!;
    const ctx: PluginContext = pluginContext(svc as never);
    expect(ctx).toMatchObject({ namespace, external: true, localFiles: false, redisUrl: "redis://secret:pw@127.0.0.1:6379" });
    // What the core's node knows of the plugin's service: its settings, without the context.
    const seen = (core.registry.getServiceList({ onlyLocal: false, withActions: false }) as Array<{ fullName: string; nodeID: string; settings: Record<string, unknown> }>).find(
      (s) => s.fullName === "v1.channel-x" && s.nodeID === "plugin",
    )!;
    expect(seen.settings).toEqual({ rest: "/" });
    expect(() => pluginContext({ name: "bare", settings: {} })).toThrow(PluginContextMissingError);
  });
});
