/**
 * A local stand-in for 360dialog's WhatsApp API (waba-v2.360dialog.io), speaking its protocol
 * (WHATSAPP.md §3) for the plugin's tests:
 *
 *   POST /messages                      Meta's body → { messaging_product, contacts, messages:[{id}] }
 *   POST /media                         multipart upload → { id }
 *   GET  /<media id>                    → { url: Meta's lookaside URL, mime_type, sha256, file_size, id }
 *   GET  /whatsapp_business/attachments/?mid=…   the file: Meta's URL path asked on this host
 *   GET|POST /v1/configs/webhook        the number's webhook { url, headers }
 *   GET|POST /v1/configs/templates      { waba_templates[], count, offset, limit, total } / a new one "submitted"
 *   DELETE /v1/configs/templates/<name> every language of the name
 *   POST /uploads?file_name=&file_length=&file_type=   a Resumable Upload session → { id } (no "upload:"
 *                                       prefix, as 360dialog's reference shows it)
 *   POST /upload:<id>                   `file_offset: 0`, exactly file_length bytes → { h } (a media
 *                                       header's sample; a template's media header must name one of the key's)
 *
 * Every call needs `D360-API-KEY: <the number's key>` (no Bearer: a Bearer header or a wrong key
 * answers 401 with 360dialog's own error body); paths carry no phone-number id. `deliver` POSTs a
 * Meta envelope to the URL the plugin registered, with the headers it registered (and a partner
 * signature when asked).
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { metaJson } from "../../channel-waba/test/meta-payloads";

export interface D360Number {
  apiKey: string;
  /** The digits of the number. */
  phone: string;
  /** Meta's ids behind it (webhooks name them). */
  pnid: string;
  wabaId: string;
  webhook: { url: string; headers: Record<string, string> } | null;
}

export interface D360Template {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string;
  components: Array<Record<string, unknown>>;
}

const noKey = { meta: { success: false, http_code: 401, developer_message: "Invalid api key" } };
const metaErr = (code: number, message: string) => ({ error: { message: `(#${code}) ${message}`, type: "OAuthException", code, error_data: { messaging_product: "whatsapp", details: message }, fbtrace_id: `A${randomBytes(6).toString("hex")}` } });

export class Fake360 {
  readonly numbers = new Map<string, D360Number>();
  readonly sent: Array<{ apiKey: string; body: Record<string, unknown> }> = [];
  readonly uploads = new Map<string, { apiKey: string; data: Buffer; mimeType: string; fileName: string }>();
  readonly media = new Map<string, { data: Buffer; mimeType: string; apiKey: string }>();
  readonly templates = new Map<string, D360Template[]>();
  readonly windowClosed = new Set<string>();
  /** Open Resumable Upload sessions, and the samples uploaded (by handle). */
  readonly uploadSessions = new Map<string, { apiKey: string; fileName: string; fileType: string; fileLength: number }>();
  readonly samples = new Map<string, { apiKey: string; fileName: string; fileType: string; data: Buffer }>();
  /** Every request as it came (method, path, the key header, whether a Bearer came too). */
  readonly calls: Array<{ method: string; path: string; key: string | undefined; bearer: boolean }> = [];
  private server!: http.Server;
  url = "";

  static async start(): Promise<Fake360> {
    const f = new Fake360();
    f.server = http.createServer((req, res) => void f.handle(req, res));
    await new Promise<void>((ok) => f.server.listen(0, "127.0.0.1", ok));
    f.url = `http://127.0.0.1:${(f.server.address() as AddressInfo).port}`;
    return f;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  addNumber(): D360Number {
    const n: D360Number = {
      apiKey: randomBytes(16).toString("hex").toUpperCase(),
      phone: `5511${3_000_000_00 + Math.floor(Math.random() * 6_000_000_00)}`,
      pnid: String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)),
      wabaId: String(200_000_000_000_000 + Math.floor(Math.random() * 1e12)),
      webhook: null,
    };
    this.numbers.set(n.apiKey, n);
    this.templates.set(n.apiKey, []);
    return n;
  }

  addMedia(n: D360Number, data: Buffer, mimeType: string): string {
    const id = String(900_000_000_000_000 + Math.floor(Math.random() * 1e12));
    this.media.set(id, { data, mimeType, apiKey: n.apiKey });
    return id;
  }

  addTemplate(n: D360Number, t: Omit<D360Template, "id">): D360Template {
    const full = { id: String(Math.floor(1e15 + Math.random() * 1e15)), ...t };
    this.templates.get(n.apiKey)!.push(full);
    return full;
  }

  sentBy(n: D360Number): Array<Record<string, unknown>> {
    return this.sent.filter((s) => s.apiKey === n.apiKey).map((s) => s.body);
  }

  /**
   * POSTs `payload` to the number's registered webhook, the way 360dialog does. `origin` stands
   * for the DNS of the registered URL's host (the test core's public URL is not resolvable).
   */
  async deliver(n: D360Number, payload: unknown, opts: { origin?: string; partnerSecret?: string; headers?: Record<string, string>; skipRegistered?: boolean } = {}): Promise<{ status: number; body: any }> {
    if (!n.webhook) throw new Error(`number ${n.phone} has no webhook registered`);
    const registered = new URL(n.webhook.url);
    const url = opts.origin ? `${opts.origin}${registered.pathname}${registered.search}` : n.webhook.url;
    const body = metaJson(payload);
    const headers: Record<string, string> = { "content-type": "application/json", ...(opts.skipRegistered ? {} : n.webhook.headers), ...(opts.headers ?? {}) };
    if (opts.partnerSecret) headers["x-360dialog-signature"] = createHmac("sha256", opts.partnerSecret).update(body).digest("hex");
    const res = await fetch(url, { method: "POST", headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks);
    const u = new URL(req.url ?? "/", this.url);
    const send = (status: number, body: unknown, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    const key = req.headers["d360-api-key"] as string | undefined;
    const bearer = typeof req.headers.authorization === "string";
    this.calls.push({ method: req.method ?? "", path: u.pathname, key, bearer });
    const n = key ? this.numbers.get(key) : undefined;
    if (!n || bearer) return send(401, noKey);
    const parts = u.pathname.split("/").filter(Boolean);
    const json = () => JSON.parse(raw.toString("utf8") || "{}") as Record<string, unknown>;

    if (parts[0] === "whatsapp_business" && parts[1] === "attachments") {
      const m = this.media.get(u.searchParams.get("mid") ?? "");
      if (!m || m.apiKey !== n.apiKey) return send(404, "not found", "text/plain");
      return send(200, m.data, m.mimeType);
    }
    if (parts[0] === "v1" && parts[1] === "configs" && parts[2] === "webhook") {
      if (req.method === "GET") return send(200, { url: n.webhook?.url ?? "" });
      const b = json();
      if (typeof b.url !== "string" || !/^https?:\/\//.test(b.url) || b.url.includes("_")) return send(400, { meta: { success: false, http_code: 400, developer_message: "Invalid url" } });
      n.webhook = { url: b.url, headers: (b.headers ?? {}) as Record<string, string> };
      return send(200, { url: b.url });
    }
    if (parts[0] === "v1" && parts[1] === "configs" && parts[2] === "templates") return this.templatesCall(n, req.method ?? "", parts[3], u, json, send);
    if (req.method === "POST" && parts.length === 1 && parts[0] === "messages") {
      const body = json();
      if (body.messaging_product !== "whatsapp") return send(400, metaErr(100, "The parameter messaging_product is required."));
      if (body.status === "read") {
        this.sent.push({ apiKey: n.apiKey, body });
        return send(200, { success: true });
      }
      const freeForm = ["text", "image", "video", "audio", "document", "sticker", "interactive"].includes(String(body.type));
      if (freeForm && this.windowClosed.has(String(body.to))) return send(400, metaErr(131047, "Re-engagement message"));
      this.sent.push({ apiKey: n.apiKey, body });
      return send(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.HBgN${randomBytes(16).toString("base64url")}` }] });
    }
    if (req.method === "POST" && parts.length === 1 && parts[0] === "media") return this.upload(n, req, raw, send);
    if (req.method === "POST" && parts.length === 1 && parts[0] === "uploads") {
      const fileLength = Number(u.searchParams.get("file_length"));
      const fileType = u.searchParams.get("file_type") ?? "";
      if (!Number.isInteger(fileLength) || fileLength <= 0 || !fileType) return send(400, { meta: { success: false, http_code: 400, developer_message: "file_length and file_type are required" } });
      const id = randomBytes(16).toString("hex");
      this.uploadSessions.set(id, { apiKey: n.apiKey, fileName: u.searchParams.get("file_name") ?? "", fileType, fileLength });
      return send(200, { id });
    }
    if (req.method === "POST" && parts.length === 1 && parts[0].startsWith("upload")) {
      const session = parts[0].startsWith("upload:") ? this.uploadSessions.get(parts[0].slice("upload:".length)) : undefined;
      if (!parts[0].startsWith("upload:")) return send(400, { meta: { success: false, http_code: 400, developer_message: "missing 'upload:' prefix" } });
      if (!session || session.apiKey !== n.apiKey) return send(400, { meta: { success: false, http_code: 400, developer_message: "Unknown upload session" } });
      if (req.headers.file_offset !== "0" || raw.length !== session.fileLength) return send(400, { meta: { success: false, http_code: 400, developer_message: "file_offset must be 0 and the body file_length bytes" } });
      this.uploadSessions.delete(parts[0].slice("upload:".length));
      const h = `2:${randomBytes(24).toString("base64")}`;
      this.samples.set(h, { apiKey: n.apiKey, fileName: session.fileName, fileType: session.fileType, data: raw });
      return send(200, { h });
    }
    if (req.method === "GET" && parts.length === 1) {
      const m = this.media.get(parts[0]);
      if (!m || m.apiKey !== n.apiKey) return send(404, metaErr(100, "Media not found"));
      const url = `https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=${parts[0]}&ext=${Date.now()}&hash=${randomBytes(6).toString("hex")}`;
      return send(200, { url, mime_type: m.mimeType, sha256: createHash("sha256").update(m.data).digest("hex"), file_size: m.data.length, id: parts[0], messaging_product: "whatsapp" });
    }
    return send(404, { meta: { success: false, http_code: 404, developer_message: "Not found" } });
  }

  private templatesCall(n: D360Number, method: string, name: string | undefined, u: URL, json: () => Record<string, unknown>, send: (s: number, b: unknown) => void): void {
    const list = this.templates.get(n.apiKey)!;
    if (method === "GET" && !name) {
      const limit = Number(u.searchParams.get("limit") ?? 1000);
      const offset = Number(u.searchParams.get("offset") ?? 0);
      const page = list.slice(offset, offset + limit);
      return send(200, { count: page.length, filters: {}, limit, offset, sort: ["id"], total: list.length, waba_templates: page });
    }
    if (method === "POST" && !name) {
      const b = json();
      const header = ((b.components ?? []) as Array<Record<string, any>>).find((c) => c.type === "HEADER");
      const kinds: Record<string, string> = { IMAGE: "image/", VIDEO: "video/", DOCUMENT: "application/pdf" };
      if (header && kinds[header.format]) {
        const sample = this.samples.get(String(header.example?.header_handle?.[0]));
        if (!sample || sample.apiKey !== n.apiKey || !sample.fileType.startsWith(kinds[header.format])) return send(400, metaErr(100, "Invalid parameter: header_handle"));
      }
      if (list.some((t) => t.name === b.name && t.language === b.language)) return send(400, metaErr(100, "Template name already exists in this language"));
      const t = this.addTemplate(n, { name: String(b.name), language: String(b.language), category: String(b.category), status: "submitted", components: (b.components ?? []) as Array<Record<string, unknown>> });
      return send(201, { ...t, namespace: "d360_ns" });
    }
    if (method === "DELETE" && name) {
      const left = list.filter((t) => t.name !== decodeURIComponent(name));
      if (left.length === list.length) return send(404, { meta: { success: false, http_code: 404, developer_message: "Template not found" } });
      this.templates.set(n.apiKey, left);
      return send(200, { meta: { success: true, http_code: 200 } });
    }
    return send(405, { meta: { success: false, http_code: 405, developer_message: "Method not allowed" } });
  }

  private upload(n: D360Number, req: http.IncomingMessage, raw: Buffer, send: (s: number, b: unknown) => void): void {
    const boundary = /boundary=([^;]+)/.exec(String(req.headers["content-type"]))?.[1];
    if (!boundary) return send(400, metaErr(100, "multipart/form-data expected"));
    const fields: Record<string, string> = {};
    let file: { data: Buffer; fileName: string } | null = null;
    for (const part of raw.toString("latin1").split(`--${boundary}`).slice(1, -1)) {
      const [head, ...rest] = part.replace(/^\r\n/, "").split("\r\n\r\n");
      const content = rest.join("\r\n\r\n").replace(/\r\n$/, "");
      const fileName = /filename="([^"]*)"/.exec(head)?.[1];
      if (fileName !== undefined) file = { data: Buffer.from(content, "latin1"), fileName };
      else fields[/name="([^"]+)"/.exec(head)?.[1] ?? ""] = Buffer.from(content, "latin1").toString("utf8");
    }
    if (fields.messaging_product !== "whatsapp" || !file || !fields.type) return send(400, metaErr(100, "messaging_product, type and file are required"));
    const id = String(700_000_000_000_000 + Math.floor(Math.random() * 1e12));
    this.uploads.set(id, { apiKey: n.apiKey, data: file.data, mimeType: fields.type, fileName: file.fileName });
    return send(200, { id });
  }
}
