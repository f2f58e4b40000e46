/**
 * uploadPlatformFile across a transporter: a plugin on a node of its own streams a file to the
 * core's platform.files.upload in base64 chunks (each within a transporter's packet), with the
 * file's names in the params and the calling plugin in $caller, from its service as from the
 * Context of one of its actions; the core's refusal comes back as the plugin's error.
 */
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { ServiceBroker, Errors, type Context } from "moleculer";
import { collectMedia, MEDIA_CHUNK_BYTES } from "./media-transfer";
import { uploadPlatformFile } from "./platform-files";
import { coreApi } from "./core-api/client";
import type { PlatformFile } from "./core-api/contract";

describe("uploadPlatformFile", () => {
  const namespace = `pfiles-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const core = new ServiceBroker({ nodeID: "core", namespace, transporter: "Fake", logger: false });
  const node = new ServiceBroker({ nodeID: "plugin", namespace, transporter: "Fake", logger: false });
  const seen: Array<{ params: Record<string, unknown>; caller: unknown; chunks: number[]; bytes: Buffer }> = [];

  beforeAll(async () => {
    core.createService({
      name: "platform",
      actions: {
        "files.upload": async (ctx: Context<Record<string, unknown>, { $caller?: unknown }>): Promise<PlatformFile> => {
          const stream = (ctx as unknown as { stream: AsyncIterable<unknown> }).stream;
          const chunks: string[] = [];
          for await (const c of stream) chunks.push(String(c));
          const bytes = await collectMedia(Readable.from(chunks));
          seen.push({ params: ctx.params, caller: ctx.meta.$caller, chunks: chunks.map((c) => c.length), bytes });
          const max = (ctx.params.maxBytes as number | undefined) ?? 10 * 1024 * 1024;
          if (bytes.length > max) throw new Errors.MoleculerClientError("too large", 413, "ERR_MEDIA_TOO_LARGE", { size: bytes.length, max });
          const p = `tenants/${ctx.params.tenantId}/plugin-files/x/${ctx.params.fileName}`;
          return { path: p, url: `/api/files/${encodeURIComponent(p)}`, mimeType: String(ctx.params.mimeType), fileName: String(ctx.params.fileName), size: bytes.length };
        },
      },
    });
    node.createService({
      name: "chatbot-probe",
      version: 1,
      metadata: { plugin: { id: "chatbot-probe" } },
      actions: {
        send(ctx: Context<{ size: number }>) {
          return uploadPlatformFile(ctx, { tenantId: 4, data: Buffer.alloc(ctx.params.size, 7), mimeType: "application/pdf", fileName: "menu.pdf", maxBytes: 1000 });
        },
      },
    });
    await Promise.all([core.start(), node.start()]);
    await node.waitForServices(["platform"]);
    await core.waitForServices([{ name: "chatbot-probe", version: 1 }]);
  });
  afterAll(() => Promise.all([node.stop(), core.stop()]));
  beforeEach(() => (seen.length = 0));

  it("streams the bytes in base64 chunks of at most 256 KiB of text, the names in the params, the plugin as caller", async () => {
    const data = randomBytes(MEDIA_CHUNK_BYTES * 2 + 5);
    const svc = node.getLocalService({ name: "chatbot-probe", version: 1 }) as unknown as Parameters<typeof coreApi>[0];
    const file = await uploadPlatformFile(svc, { tenantId: 3, data, mimeType: "image/png", fileName: "menu.png" });
    expect(file).toEqual({ path: "tenants/3/plugin-files/x/menu.png", url: "/api/files/tenants%2F3%2Fplugin-files%2Fx%2Fmenu.png", mimeType: "image/png", fileName: "menu.png", size: data.length });
    expect(seen).toHaveLength(1);
    expect(seen[0].params).toEqual({ tenantId: 3, fileName: "menu.png", mimeType: "image/png" });
    expect(seen[0].caller).toEqual({ plugin: "chatbot-probe" });
    expect(seen[0].chunks).toEqual([256 * 1024, 256 * 1024, 8]);
    expect(seen[0].bytes.equals(data)).toBe(true);
  });

  it("from an action's Context, with maxBytes; the core's refusal is the caller's error", async () => {
    expect(await node.call("v1.chatbot-probe.send", { size: 1000 })).toMatchObject({ fileName: "menu.pdf", size: 1000 });
    expect(seen[0].params).toEqual({ tenantId: 4, fileName: "menu.pdf", mimeType: "application/pdf", maxBytes: 1000 });
    expect(seen[0].caller).toEqual({ plugin: "chatbot-probe" });
    await expect(node.call("v1.chatbot-probe.send", { size: 1001 })).rejects.toMatchObject({ type: "ERR_MEDIA_TOO_LARGE", code: 413 });
  });

  it("the typed client has it too: coreApi(x).files.upload", async () => {
    const svc = node.getLocalService({ name: "chatbot-probe", version: 1 }) as unknown as Parameters<typeof coreApi>[0];
    const file = await coreApi(svc).files.upload({ tenantId: 5, data: Buffer.from("hello"), mimeType: "text/plain", fileName: "a.txt" });
    expect(file.size).toBe(5);
    expect(seen[0].bytes.toString()).toBe("hello");
  });
});
