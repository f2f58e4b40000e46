/**
 * A local GIPHY (developers.giphy.com): GET /v1/gifs/search and /v1/gifs/{id} with api_key,
 * answering GIPHY's response shape ({data, pagination, meta}), and the GIF files the
 * renditions point at. `synthetic` makes the search answer GIPHY's "synthetic response".
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** A real 1x1 transparent GIF (GIF89a). */
export const TINY_GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

export interface FakeGif {
  id: string;
  title: string;
}

export class FakeGiphy {
  url = "";
  readonly searches: Array<{ q: string; api_key: string | null; offset: string | null; limit: string | null; rating: string | null }> = [];
  synthetic = false;
  /** Previews as this data: URL (a page whose CSP allows https: images only cannot show them from this http server). */
  previewDataUrl: string | null = null;
  gifs: FakeGif[] = [
    { id: "cat1", title: "Happy cat" },
    { id: "cat2", title: "Cat dance" },
    { id: "dog1", title: "Dog wave" },
  ];
  private server: http.Server;

  constructor(private readonly key: string) {
    this.server = http.createServer((req, res) => this.route(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private object(g: FakeGif) {
    const r = (name: string, w: number, h: number) => ({ url: `${this.url}/media/${g.id}/${name}.gif`, width: String(w), height: String(h), size: String(TINY_GIF.length) });
    const preview = (w: number, h: number) => (this.previewDataUrl ? { ...r("200w", w, h), url: this.previewDataUrl } : r("200w", w, h));
    return {
      type: "gif",
      id: g.id,
      url: `https://giphy.com/gifs/${g.id}`,
      title: g.title,
      rating: "g",
      images: { original: r("giphy", 480, 270), downsized: r("giphy-downsized", 480, 270), fixed_width: preview(200, 113), fixed_height: r("200", 355, 200), preview_gif: r("giphy-preview", 120, 68) },
    };
  }

  private route(req: http.IncomingMessage, res: http.ServerResponse) {
    const u = new URL(req.url ?? "/", this.url);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const media = /^\/media\/([\w-]+)\/[\w-]+\.gif$/.exec(u.pathname);
    if (media) {
      res.writeHead(200, { "content-type": "image/gif", "content-length": String(TINY_GIF.length) });
      return res.end(TINY_GIF);
    }
    if (u.searchParams.get("api_key") !== this.key) return json(401, { message: "Unauthorized", meta: { status: 401, msg: "Unauthorized", response_id: "r-401" } });
    if (u.pathname === "/v1/gifs/search") {
      const q = u.searchParams.get("q") ?? "";
      this.searches.push({ q, api_key: u.searchParams.get("api_key"), offset: u.searchParams.get("offset"), limit: u.searchParams.get("limit"), rating: u.searchParams.get("rating") });
      if (this.synthetic) return json(200, { data: [], pagination: { total_count: 0, count: 0, offset: 0 }, meta: { status: 200, msg: "OK", response_id: "" } });
      const all = this.gifs.filter((g) => g.title.toLowerCase().includes(q.toLowerCase()));
      const offset = Number(u.searchParams.get("offset") ?? 0);
      const limit = Number(u.searchParams.get("limit") ?? 25);
      const page = all.slice(offset, offset + limit);
      return json(200, { data: page.map((g) => this.object(g)), pagination: { total_count: all.length, count: page.length, offset }, meta: { status: 200, msg: "OK", response_id: `r-${Date.now()}` } });
    }
    const one = /^\/v1\/gifs\/([\w-]+)$/.exec(u.pathname);
    if (one) {
      const g = this.gifs.find((x) => x.id === one[1]);
      if (!g) return json(404, { data: [], meta: { status: 404, msg: "Not Found", response_id: "r-404" } });
      return json(200, { data: this.object(g), meta: { status: 200, msg: "OK", response_id: "r-one" } });
    }
    json(404, { meta: { status: 404, msg: "Not Found", response_id: "r-404" } });
  }
}
