/**
 * The fake Graph API's template management (WHATSAPP.md §2.4), added to a running FakeGraph:
 *
 *   GET    /<ver>/<WABA id>/message_templates?fields=…&limit=&after=&status=&name=
 *          → { data:[…], paging:{ cursors:{ before, after }, next? } }  (next only when more follow)
 *   POST   /<ver>/<WABA id>/message_templates  { name, language, category, components }
 *          → { id, status:"PENDING", category }
 *   DELETE /<ver>/<WABA id>/message_templates?name=…[&hsm_id=…]  → { success:true }
 *
 * Every call needs the Bearer token of a number of that business account (else 190). A media
 * header (IMAGE, VIDEO, DOCUMENT) needs `example.header_handle` naming a file of its kind
 * uploaded through the Resumable Upload API (fake-graph-uploads.ts) with a token of that
 * account (else Meta's 100 "Invalid parameter").
 * `statusWebhook` changes a template's status here and POSTs Meta's signed
 * `message_template_status_update` change to a connection's webhook.
 */
import { randomBytes } from "node:crypto";
import type * as http from "node:http";
import { envelope } from "./meta-payloads";
import { FakeGraph, TOKEN_EXPIRED } from "./fake-graph";
import { FakeUploads } from "./fake-graph-uploads";

/** The files Meta takes as a media header's sample, by format. */
const SAMPLE_TYPES: Record<string, string[]> = { IMAGE: ["image/jpeg", "image/png"], VIDEO: ["video/mp4", "video/3gpp"], DOCUMENT: ["application/pdf"] };

export interface FakeTemplate {
  id: string;
  wabaId: string;
  name: string;
  language: string;
  category: string;
  status: string;
  rejected_reason?: string;
  components: Array<Record<string, unknown>>;
}

type Send = (status: number, body: unknown) => void;
const metaError = (httpStatus: number, code: number, message: string) => ({ error: { message: `(#${code}) ${message}`, type: "OAuthException", code, error_data: { messaging_product: "whatsapp", details: message }, fbtrace_id: `A${randomBytes(6).toString("hex")}` } });

export class FakeTemplates {
  readonly templates: FakeTemplate[] = [];
  /** Every template call, in order (method, WABA id, query, body). */
  readonly calls: Array<{ method: string; wabaId: string; query: Record<string, string>; body?: unknown }> = [];
  /** The Resumable Upload API the media headers' samples come through. */
  readonly uploads: FakeUploads;

  /** Wraps `graph`'s request handler: template paths are answered here, everything else as before. */
  constructor(private readonly graph: FakeGraph) {
    this.uploads = new FakeUploads(graph);
    const g = graph as unknown as { handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> };
    const inner = g.handle.bind(graph);
    g.handle = async (req, res) => {
      const u = new URL(req.url ?? "/", graph.url);
      const m = /^\/v\d+\.\d+\/(\d+)\/message_templates$/.exec(u.pathname);
      if (!m) return inner(req, res);
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const send: Send = (status, body) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      this.handle(req.method ?? "GET", m[1], u.searchParams, Buffer.concat(chunks).toString("utf8"), (req.headers.authorization ?? "").replace(/^Bearer /, ""), send);
    };
  }

  /** A template already at Meta (a previous session's), APPROVED unless told. */
  add(wabaId: string, t: Partial<FakeTemplate> & { name: string }): FakeTemplate {
    const full: FakeTemplate = { id: newId(), wabaId, language: "pt_BR", category: "UTILITY", status: "APPROVED", components: [{ type: "BODY", text: `Olá, ${t.name}` }], ...t };
    this.templates.push(full);
    return full;
  }

  /** Meta's review: the template's status changes here and the signed webhook change goes to `webhook`. */
  async statusWebhook(webhook: string, appSecret: string, t: FakeTemplate, event: string, extra: Record<string, unknown> = {}, wabaId = t.wabaId): Promise<{ status: number; body: any }> {
    t.status = event;
    const value = { event, message_template_id: Number(t.id), message_template_name: t.name, message_template_language: t.language, reason: "NONE", ...extra };
    return FakeGraph.deliver(webhook, envelope([{ wabaId, changes: [{ field: "message_template_status_update", value }] }]), appSecret);
  }

  private handle(method: string, wabaId: string, q: URLSearchParams, raw: string, bearer: string, send: Send): void {
    const query = Object.fromEntries(q.entries());
    if (![...this.graph.numbers.values()].some((n) => n.wabaId === wabaId && n.token === bearer)) return send(401, { error: { ...metaError(401, 190, TOKEN_EXPIRED.message).error, error_subcode: 463 } });
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    this.calls.push({ method, wabaId, query, ...(body ? { body } : {}) });
    const mine = this.templates.filter((t) => t.wabaId === wabaId);
    if (method === "GET") {
      const found = mine.filter((t) => (!query.status || t.status === query.status) && (!query.name || t.name.includes(query.name)));
      const limit = Math.min(Number(query.limit) || 25, 1000);
      const start = query.after ? Number(Buffer.from(query.after, "base64").toString("utf8").replace("pos:", "")) : 0;
      const page = found.slice(start, start + limit);
      const cursor = (n: number) => Buffer.from(`pos:${n}`).toString("base64");
      const more = start + limit < found.length;
      return send(200, {
        data: page.map(({ wabaId: _w, ...t }) => ({ ...t, ...(t.rejected_reason ? {} : { rejected_reason: "NONE" }) })),
        paging: { cursors: { before: cursor(start), after: cursor(start + page.length) }, ...(more ? { next: `${this.graph.url}/v23.0/${wabaId}/message_templates?after=${cursor(start + page.length)}` } : {}) },
      });
    }
    if (method === "POST") {
      const b = body ?? {};
      if (typeof b.name !== "string" || !/^[a-z0-9_]{1,512}$/.test(b.name) || typeof b.language !== "string" || !["MARKETING", "UTILITY", "AUTHENTICATION"].includes(String(b.category))) {
        return send(400, metaError(400, 100, "Invalid parameter"));
      }
      if (!Array.isArray(b.components) || !b.components.some((c: { type?: unknown }) => c.type === "BODY")) return send(400, metaError(400, 100, "Invalid parameter"));
      const header = (b.components as Array<Record<string, any>>).find((c) => c.type === "HEADER");
      if (header && SAMPLE_TYPES[header.format]) {
        const tokens = [...this.graph.numbers.values()].filter((n) => n.wabaId === wabaId).map((n) => n.token);
        const handles = header.example?.header_handle;
        if (!Array.isArray(handles) || handles.length !== 1 || !this.uploads.valid(handles[0], tokens, SAMPLE_TYPES[header.format])) return send(400, metaError(400, 100, "Invalid parameter: header_handle"));
      }
      if (mine.some((t) => t.name === b.name && t.language === b.language)) return send(400, metaError(400, 100, "Content in this language already exists"));
      const t = this.add(wabaId, { name: b.name, language: b.language, category: String(b.category), status: "PENDING", components: b.components as Array<Record<string, unknown>> });
      return send(200, { id: t.id, status: "PENDING", category: t.category });
    }
    if (method === "DELETE") {
      const gone = mine.filter((t) => t.name === query.name && (!query.hsm_id || t.id === query.hsm_id));
      if (!gone.length) return send(400, metaError(400, 100, "Invalid parameter"));
      for (const t of gone) this.templates.splice(this.templates.indexOf(t), 1);
      return send(200, { success: true });
    }
    return send(400, metaError(400, 100, "Unsupported request"));
  }
}

const newId = () => String(1_000_000_000_000_000 + Math.floor(Math.random() * 8e15));
