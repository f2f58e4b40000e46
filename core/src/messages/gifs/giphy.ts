import { GifProviderError, type GifItem, type GifPage, type GifProvider, type GifRendition, type GifSearch } from "./provider";

export const GIPHY_BASE_URL = "https://api.giphy.com";
const TIMEOUT_MS = 8000;

type Rendition = { url?: string; width?: string | number; height?: string | number; size?: string | number };
interface GiphyGif {
  id?: string;
  title?: string;
  images?: Record<string, Rendition | undefined>;
}
interface GiphyMeta {
  status?: number;
  msg?: string;
  response_id?: string;
}

const num = (x: unknown): number => (Number.isFinite(Number(x)) ? Number(x) : 0);
const rendition = (r: Rendition | undefined): GifRendition | null => (r?.url ? { url: r.url, width: num(r.width), height: num(r.height), ...(r.size ? { size: num(r.size) } : {}) } : null);

/** A GIPHY object as the picker shows it: fixed_width for the grid; downsized (under 2 MB) sent, else the original. */
function item(g: GiphyGif): GifItem | null {
  const im = g.images ?? {};
  const gif = rendition(im.downsized) ?? rendition(im.original);
  const preview = rendition(im.fixed_width) ?? rendition(im.fixed_width_downsampled) ?? rendition(im.preview_gif) ?? gif;
  if (!g.id || !gif || !preview) return null;
  return { id: String(g.id), title: g.title ?? "", preview, gif };
}

/**
 * GIPHY's API (developers.giphy.com): GET /v1/gifs/search and /v1/gifs/{id}, the key in
 * api_key. A "synthetic response" (meta.status 200, empty response_id, no data) is what GIPHY
 * answers when it cannot serve the request: treated as an error, never as "no results".
 */
export class GiphyProvider implements GifProvider {
  readonly name = "giphy";
  constructor(private readonly o: { apiKey: string; baseUrl?: string; rating?: string }) {}

  private async request(path: string, query: Record<string, string | number | undefined>): Promise<{ data: unknown; pagination?: { offset?: number; count?: number; total_count?: number }; meta?: GiphyMeta }> {
    const base = (this.o.baseUrl || GIPHY_BASE_URL).replace(/\/+$/, "");
    const url = new URL(base + path);
    url.searchParams.set("api_key", this.o.apiKey);
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") url.searchParams.set(k, String(v));
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "application/json" } });
    } catch (err) {
      throw new GifProviderError(`GIPHY unreachable: ${(err as Error).message}`);
    }
    const body = (await res.json().catch(() => null)) as { data: unknown; pagination?: object; meta?: GiphyMeta } | null;
    if (!res.ok || !body) throw new GifProviderError(`GIPHY answered ${res.status}${body?.meta?.msg ? `: ${body.meta.msg}` : ""}`, res.status);
    const empty = body.data === null || body.data === undefined || (Array.isArray(body.data) && body.data.length === 0);
    if (body.meta && body.meta.response_id === "" && empty) throw new GifProviderError("GIPHY answered a synthetic response", res.status);
    return body as never;
  }

  async search(s: GifSearch): Promise<GifPage> {
    const r = await this.request("/v1/gifs/search", { q: s.q, limit: s.limit, offset: s.offset, rating: this.o.rating ?? "g", lang: s.lang });
    if (!Array.isArray(r.data)) throw new GifProviderError("GIPHY search answered no data list");
    const results = (r.data as GiphyGif[]).map(item).filter((x): x is GifItem => !!x);
    const p = r.pagination ?? {};
    const offset = num(p.offset ?? s.offset);
    const count = num(p.count ?? (r.data as unknown[]).length);
    const next = p.total_count !== undefined && offset + count < num(p.total_count) && count > 0 ? offset + count : null;
    return { results, next, attribution: "Powered By GIPHY" };
  }

  async get(id: string): Promise<GifItem | null> {
    try {
      const r = await this.request(`/v1/gifs/${encodeURIComponent(id)}`, {});
      return r.data && !Array.isArray(r.data) ? item(r.data as GiphyGif) : null;
    } catch (err) {
      if (err instanceof GifProviderError && (err.status === 404 || err.status === 400)) return null;
      throw err;
    }
  }
}
