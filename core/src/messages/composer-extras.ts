import type { Service } from "moleculer";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { MAX_FILE_BYTES, storeFiles } from "../files/store";
import { hit } from "../lib/rate-limit";
import { getGlobal } from "../settings/contract";
import type { TicketRow } from "../tickets/model";
import { GiphyProvider } from "./gifs/giphy";
import { GifProviderError, type GifProvider } from "./gifs/provider";
import { makeSticker } from "./sticker";
import { signatureOf } from "./signature";
import type { outgoingMessages } from "./outgoing";

/** GIF searches an agent may make a minute (GIPHY's beta key allows 100 calls an hour for the whole installation). */
export const GIF_SEARCHES_PER_MINUTE = 20;
export const GIF_PAGE_SIZE = 24;

const ticketIdParam = { ticketId: { type: "number", integer: true, positive: true, convert: true } };
const imageParam = {
  type: "object",
  strict: "remove",
  props: { fileName: { type: "string", min: 1, max: 255 }, mimeType: { type: "string", min: 3, max: 120 }, data: { type: "string", min: 1 } },
};

/**
 * The composer's extras (spec §2: GIF search and sticker creation in the message pane; spec
 * §6: the signature): each ends in the one send road (outgoing.sendOne), so channels get a
 * GIF as a media message like any other and a sticker as the contract's sticker kind, and the
 * outbox and failure handling are the same.
 */
export function composerExtraActions(deps: CoreDeps, outgoing: ReturnType<typeof outgoingMessages>, logger: () => Service["logger"]) {
  /** The platform's GIF provider (GIPHY with the key of the global settings); ERR_GIF_SEARCH_NOT_CONFIGURED without a key. */
  async function gifProvider(ctx: Ctx): Promise<GifProvider> {
    const s = await getGlobal(ctx, "giphy");
    if (!s?.apiKey) throw new AppError("ERR_GIF_SEARCH_NOT_CONFIGURED");
    return new GiphyProvider({ apiKey: s.apiKey, baseUrl: s.baseUrl, rating: s.rating });
  }

  function providerFailed(err: unknown): never {
    if (err instanceof GifProviderError) {
      logger().warn(`GIF provider: ${err.message}`);
      throw new AppError("ERR_GIF_SEARCH_FAILED", { status: err.status ?? null });
    }
    throw err;
  }

  /** A ticket the caller may write in now: visible, not closed, its connection usable. */
  async function writable(ctx: Ctx, ticketId: number): Promise<{ ticket: TicketRow; capabilities: readonly string[] }> {
    const ticket = await call(ctx, "tickets.visible", { id: ticketId });
    if (ticket.status === "closed") throw new AppError("ERR_TICKET_NOT_FOUND", { reason: "closed" });
    const { capabilities } = await outgoing.channelService(ctx, ticket.connectionId);
    return { ticket, capabilities };
  }

  async function download(url: string): Promise<Buffer> {
    if (!/^https?:\/\//i.test(url)) throw new AppError("ERR_MEDIA_DOWNLOAD_FAILED");
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(15000) });
      if (!res.ok) throw new Error(`status ${res.status}`);
      if (Number(res.headers.get("content-length") ?? 0) > MAX_FILE_BYTES) throw new AppError("ERR_MEDIA_TOO_LARGE", { size: Number(res.headers.get("content-length")), max: MAX_FILE_BYTES });
      const buf = Buffer.from(await res.arrayBuffer());
      if (buf.length > MAX_FILE_BYTES) throw new AppError("ERR_MEDIA_TOO_LARGE", { size: buf.length, max: MAX_FILE_BYTES });
      return buf;
    } catch (err) {
      if (err instanceof AppError) throw err;
      logger().warn(`GIF download failed: ${(err as Error).message}`);
      throw new AppError("ERR_MEDIA_DOWNLOAD_FAILED");
    }
  }

  return {
    signature: {
      rest: "GET /signature",
      access: "user" as const,
      async handler(ctx: Ctx) {
        const s = await signatureOf(ctx, ctx.meta.user!.tenantId);
        return { mode: s.mode, enabled: s.enabled };
      },
    },

    gifSearch: {
      rest: "GET /gifs/search",
      access: "user" as const,
      params: {
        q: { type: "string", trim: true, min: 1, max: 50 },
        offset: { type: "number", integer: true, min: 0, max: 4999, optional: true, convert: true },
        lang: { type: "string", max: 10, optional: true },
      },
      async handler(ctx: Ctx<{ q: string; offset?: number; lang?: string }>) {
        const me = ctx.meta.user!;
        const provider = await gifProvider(ctx);
        try {
          const r = await hit(deps.redis(), `gifs:${me.tenantId}:${me.id}`, GIF_SEARCHES_PER_MINUTE, 60);
          if (!r.allowed) throw new AppError("ERR_RATE_LIMITED", { retryAfter: r.retryAfter });
        } catch (err) {
          if (err instanceof AppError) throw err;
          logger().warn(`GIF search rate limiter unavailable (Redis): ${(err as Error).message}`);
        }
        const lang = ctx.params.lang?.slice(0, 2);
        return provider.search({ q: ctx.params.q, limit: GIF_PAGE_SIZE, offset: ctx.params.offset ?? 0, lang }).catch(providerFailed);
      },
    },

    /** A GIF chosen in the picker: fetched by its id from the provider, downloaded by the core, sent as an animated image. */
    sendGif: {
      rest: "POST /messages/:ticketId/gif",
      access: "user" as const,
      resource: "tickets",
      params: { ...ticketIdParam, gifId: { type: "string", min: 1, max: 64, pattern: /^[A-Za-z0-9_-]+$/ } },
      async handler(ctx: Ctx<{ ticketId: number; gifId: string }>) {
        const { ticket, capabilities } = await writable(ctx, ctx.params.ticketId);
        if (!capabilities.includes("media")) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { kind: "media" });
        const provider = await gifProvider(ctx);
        const gif = await provider.get(ctx.params.gifId).catch(providerFailed);
        if (!gif) throw new AppError("ERR_NOT_FOUND", { field: "gifId" });
        const data = await download(gif.gif.url);
        const [stored] = storeFiles(deps.config.dataDir, ticket.tenantId, [{ fileName: `giphy-${gif.id}.gif`, mimeType: "image/gif", data: data.toString("base64") }]);
        ctx.meta.$statusCode = 201;
        return outgoing.sendOne(ctx, ticket, { body: "", media: stored });
      },
    },

    /** The sticker a picture makes (for the composer's preview): 512x512 WebP as base64. */
    stickerPreview: {
      rest: "POST /stickers/preview",
      access: "user" as const,
      params: { media: imageParam },
      async handler(ctx: Ctx<{ media: { fileName: string; mimeType: string; data: string } }>) {
        const webp = await makeSticker(Buffer.from(ctx.params.media.data, "base64"));
        return { mimeType: "image/webp", width: 512, height: 512, size: webp.length, data: webp.toString("base64") };
      },
    },

    /**
     * A picture sent as a sticker, on channels that declare the "sticker" capability (stored
     * with mediaType "sticker" and handed over as the contract's `{ kind: "sticker" }` with the
     * 512x512 WebP); others answer ERR_CHANNEL_UNSUPPORTED before anything is made or stored.
     */
    sendSticker: {
      rest: "POST /messages/:ticketId/sticker",
      access: "user" as const,
      resource: "tickets",
      params: { ...ticketIdParam, media: imageParam },
      async handler(ctx: Ctx<{ ticketId: number; media: { fileName: string; mimeType: string; data: string } }>) {
        const { ticket, capabilities } = await writable(ctx, ctx.params.ticketId);
        if (!capabilities.includes("sticker")) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { kind: "sticker", supported: [...capabilities] });
        const webp = await makeSticker(Buffer.from(ctx.params.media.data, "base64"));
        const name = ctx.params.media.fileName.replace(/\.[^.]*$/, "") || "sticker";
        const [stored] = storeFiles(deps.config.dataDir, ticket.tenantId, [{ fileName: `${name}.webp`, mimeType: "image/webp", data: webp.toString("base64") }]);
        ctx.meta.$statusCode = 201;
        return outgoing.sendOne(ctx, ticket, { body: "", media: stored, sticker: true });
      },
    },
  };
}
