/**
 * A local stand-in for Meta's Graph API (Cloud API surface), for the plugin's tests:
 *
 *   GET  /<ver>/<phone-number id>               the number (credentials check)
 *   POST /<ver>/<phone-number id>/messages      sends and "read" statuses → { messages:[{id}] }
 *   POST /<ver>/<phone-number id>/media         multipart upload → { id }
 *   GET  /<ver>/<media id>                      → { url, mime_type, sha256, file_size, id }
 *   GET  /lookaside/<media id>?exp=…            the file, with the same Bearer token; a stale URL answers 404
 *
 * Every call needs `Authorization: Bearer <the number's token>` (else Meta's 190 OAuthException).
 * Errors are injected per number (`failNext`), a recipient outside the 24-hour window answers
 * 131047, and `deliver` POSTs a webhook signed the way Meta signs it.
 */
import { createHash, randomBytes } from "node:crypto";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { metaJson, metaSignature } from "./meta-payloads";

export interface FakeNumber {
  pnid: string;
  token: string;
  wabaId: string;
}

export interface Injected {
  httpStatus: number;
  code: number;
  message: string;
  subcode?: number;
}

export interface Recorded {
  pnid: string;
  body: Record<string, unknown>;
  at: number;
}

const err = (e: Injected) => ({ error: { message: `(#${e.code}) ${e.message}`, type: "OAuthException", code: e.code, ...(e.subcode ? { error_subcode: e.subcode } : {}), error_data: { messaging_product: "whatsapp", details: e.message }, fbtrace_id: `A${randomBytes(6).toString("hex")}` } });
export const TOKEN_EXPIRED: Injected = { httpStatus: 401, code: 190, subcode: 463, message: "Error validating access token: Session has expired" };

export class FakeGraph {
  readonly numbers = new Map<string, FakeNumber>();
  /** Every message POST that Meta accepted (read statuses included), in order. */
  readonly sent: Recorded[] = [];
  /** Every message POST, refused ones too. */
  readonly attempts: Recorded[] = [];
  readonly uploads = new Map<string, { pnid: string; data: Buffer; mimeType: string; fileName: string }>();
  readonly media = new Map<string, { data: Buffer; mimeType: string; token: string }>();
  /** Recipients whose 24-hour window is closed: free-form sends answer 131047. */
  readonly windowClosed = new Set<string>();
  /** Media ids whose next download URL is already stale (the plugin must look the id up again). */
  readonly staleNextUrl = new Set<string>();
  mediaLookups = 0;
  /** Runs before a send is answered, with the wamid it will answer (Meta may post a status before the send's answer arrives). */
  beforeAnswer: ((wamid: string) => Promise<void>) | null = null;
  private readonly queued = new Map<string, Injected[]>();
  private server!: http.Server;
  url = "";

  static async start(): Promise<FakeGraph> {
    const g = new FakeGraph();
    g.server = http.createServer((req, res) => void g.handle(req, res));
    await new Promise<void>((ok) => g.server.listen(0, "127.0.0.1", ok));
    g.url = `http://127.0.0.1:${(g.server.address() as AddressInfo).port}`;
    return g;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  addNumber(): FakeNumber {
    const n = { pnid: String(100_000_000_000_000 + Math.floor(Math.random() * 899_999_999_999_999)), token: `EAAG${randomBytes(24).toString("hex")}`, wabaId: String(200_000_000_000_000 + Math.floor(Math.random() * 1e12)) };
    this.numbers.set(n.pnid, n);
    return n;
  }

  /** The next message POSTs of this number answer these errors, one each. */
  failNext(pnid: string, ...errors: Injected[]): void {
    this.queued.set(pnid, [...(this.queued.get(pnid) ?? []), ...errors]);
  }

  /** A received file the plugin will download by this id. */
  addMedia(n: FakeNumber, data: Buffer, mimeType: string): string {
    const id = String(900_000_000_000_000 + Math.floor(Math.random() * 1e12));
    this.media.set(id, { data, mimeType, token: n.token });
    return id;
  }

  sentTo(pnid: string, to?: string): Array<Record<string, unknown>> {
    return this.sent.filter((s) => s.pnid === pnid && (to === undefined || s.body.to === to)).map((s) => s.body);
  }

  /** POSTs a webhook body the way Meta does (signed with `appSecret` unless told otherwise). */
  static async deliver(url: string, payload: unknown, appSecret: string, opts: { signature?: "wrong" | "missing"; raw?: string } = {}): Promise<{ status: number; body: any }> {
    const body = opts.raw ?? metaJson(payload);
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "facebookexternalua" };
    if (opts.signature === "wrong") headers["x-hub-signature-256"] = metaSignature(body, `${appSecret}x`);
    else if (opts.signature !== "missing") headers["x-hub-signature-256"] = metaSignature(body, appSecret);
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
    const bearer = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const parts = u.pathname.split("/").filter(Boolean);
    if (parts[0] === "lookaside") {
      const m = this.media.get(parts[1] ?? "");
      if (!m) return send(404, "not found", "text/plain");
      if (bearer !== m.token) return send(401, "unauthorized", "text/plain");
      if (Number(u.searchParams.get("exp")) < Date.now()) return send(404, "URL signature expired", "text/plain");
      return send(200, m.data, m.mimeType);
    }
    if (!/^v\d+\.\d+$/.test(parts[0] ?? "")) return send(404, err({ httpStatus: 404, code: 100, message: "Unknown path components" }));
    const [, id, edge] = parts;
    const media = this.media.get(id ?? "");
    if (media && req.method === "GET" && !edge) {
      if (bearer !== media.token) return send(401, err(TOKEN_EXPIRED));
      this.mediaLookups++;
      const stale = this.staleNextUrl.delete(id);
      const exp = stale ? Date.now() - 1000 : Date.now() + 5 * 60_000;
      return send(200, { url: `${this.url}/lookaside/${id}?exp=${exp}`, mime_type: media.mimeType, sha256: createHash("sha256").update(media.data).digest("hex"), file_size: media.data.length, id, messaging_product: "whatsapp" });
    }
    const n = this.numbers.get(id ?? "");
    if (!n) return send(400, err({ httpStatus: 400, code: 100, message: `Unsupported request - object with ID '${id}' does not exist` }));
    if (bearer !== n.token) return send(401, err(TOKEN_EXPIRED));
    if (req.method === "GET" && !edge) return send(200, { display_phone_number: `+1 555 ${n.pnid.slice(-7)}`, verified_name: "Loja Teste", id: n.pnid });
    if (req.method === "POST" && edge === "media") return this.upload(n, req, raw, send);
    if (req.method === "POST" && edge === "messages") {
      const body = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
      const rec = { pnid: n.pnid, body, at: Date.now() };
      this.attempts.push(rec);
      const injected = this.queued.get(n.pnid)?.shift();
      if (injected) return send(injected.httpStatus, err(injected));
      if (body.messaging_product !== "whatsapp") return send(400, err({ httpStatus: 400, code: 100, message: "The parameter messaging_product is required." }));
      if (body.status === "read") {
        this.sent.push(rec);
        return send(200, { success: true });
      }
      const freeForm = ["text", "image", "video", "audio", "document", "sticker", "interactive"].includes(String(body.type));
      if (freeForm && this.windowClosed.has(String(body.to))) return send(400, err({ httpStatus: 400, code: 131047, message: "Re-engagement message" }));
      this.sent.push(rec);
      const wamid = `wamid.HBgN${randomBytes(16).toString("base64url")}`;
      if (this.beforeAnswer) await this.beforeAnswer(wamid);
      return send(200, { messaging_product: "whatsapp", contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: wamid }] });
    }
    return send(400, err({ httpStatus: 400, code: 100, message: "Unsupported request" }));
  }

  private upload(n: FakeNumber, req: http.IncomingMessage, raw: Buffer, send: (s: number, b: unknown) => void): void {
    const boundary = /boundary=([^;]+)/.exec(String(req.headers["content-type"]))?.[1];
    if (!boundary) return send(400, err({ httpStatus: 400, code: 100, message: "multipart/form-data expected" }));
    const fields: Record<string, string> = {};
    let file: { data: Buffer; fileName: string; mimeType: string } | null = null;
    const text = raw.toString("latin1");
    for (const part of text.split(`--${boundary}`).slice(1, -1)) {
      const [head, ...rest] = part.replace(/^\r\n/, "").split("\r\n\r\n");
      const content = rest.join("\r\n\r\n").replace(/\r\n$/, "");
      const name = /name="([^"]+)"/.exec(head)?.[1] ?? "";
      const fileName = /filename="([^"]*)"/.exec(head)?.[1];
      if (fileName !== undefined) file = { data: Buffer.from(content, "latin1"), fileName, mimeType: /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? "" };
      else fields[name] = Buffer.from(content, "latin1").toString("utf8");
    }
    if (fields.messaging_product !== "whatsapp" || !file || !fields.type) return send(400, err({ httpStatus: 400, code: 100, message: "messaging_product, type and file are required" }));
    const id = String(700_000_000_000_000 + Math.floor(Math.random() * 1e12));
    this.uploads.set(id, { pnid: n.pnid, data: file.data, mimeType: fields.type, fileName: file.fileName });
    return send(200, { id });
  }
}
