/**
 * A local server that speaks wuzapi's REST API and posts its webhooks, for tests. It follows
 * asternic/wuzapi (handlers.go, routes.go, helpers.go, wmiau.go; see the plugin's README):
 * user endpoints take the header `Token` (401 otherwise), admin ones `Authorization`; answers
 * are `{ code, data, success }` or `{ code, error, success: false }` with wuzapi's own error
 * texts and statuses ("No session" 500, "Already Connected" 500, "Missing Phone in Payload"
 * 400…). A user's WhatsApp client (whatsmeow) is modelled as connected / logged in, with QR
 * codes as data:image/png URLs until the "phone" scans one (`scan`). Webhooks go out as wuzapi
 * sends them: JSON (WEBHOOK_FORMAT=json) or form-encoded (jsonData, userID, instanceName),
 * with the x-hmac-signature of the exact body, or a wrong or missing one when a test asks.
 * Tests read every request (`requests`, `sends`).
 */
import * as http from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { goFormEncode, goJson, hmacHex, qrDataUrl } from "./wire";
import { messageEvent, type MessageSpec } from "./events";

export interface FakeClient {
  connected: boolean;
  loggedIn: boolean;
  qr: string;
  qrRound: number;
}

export interface FakeUser {
  id: number;
  name: string;
  token: string;
  webhook: string;
  events: string[];
  hmacKey: string;
  /** The phone linked the device (whatsmeow's store holds a JID). */
  linked: boolean;
  jid: string;
  client: FakeClient | null;
  pairCodes: Array<{ phone: string; code: string }>;
}

export interface FakeRequest {
  method: string;
  path: string;
  token?: string;
  authorization?: string;
  body: Record<string, any>;
  status: number;
  answer: Record<string, unknown>;
  at: number;
}

export type SignatureMode = "right" | "wrong" | "missing";

const SEND_PATHS = ["/chat/send/text", "/chat/send/image", "/chat/send/audio", "/chat/send/video", "/chat/send/document", "/chat/send/sticker", "/chat/react", "/chat/delete"];

class Fail extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class FakeWuzapi {
  readonly users = new Map<string, FakeUser>();
  readonly requests: FakeRequest[] = [];
  private server: http.Server;
  private port = 0;
  private nextUserId = 1;
  private programmed: Array<{ path: string; status: number; error: string }> = [];

  private constructor(readonly adminToken: string) {
    this.server = this.makeServer();
  }

  static async start(opts: { adminToken?: string } = {}): Promise<FakeWuzapi> {
    const f = new FakeWuzapi(opts.adminToken ?? `admin-${randomBytes(6).toString("hex")}`);
    await f.listen();
    return f;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** A wuzapi user (one WhatsApp session); `linked` as if its phone had scanned a QR code before. */
  addUser(opts: { token?: string; name?: string; linked?: boolean; phone?: string } = {}): FakeUser {
    const token = opts.token ?? `tok-${randomBytes(8).toString("hex")}`;
    const phone = opts.phone ?? `55119${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
    const u: FakeUser = { id: this.nextUserId++, name: opts.name ?? `user${this.nextUserId}`, token, webhook: "", events: [], hmacKey: "", linked: !!opts.linked, jid: `${phone}@s.whatsapp.net`, client: null, pairCodes: [] };
    this.users.set(token, u);
    return u;
  }

  user(token: string): FakeUser {
    const u = this.users.get(token);
    if (!u) throw new Error(`fake wuzapi: no user ${token}`);
    return u;
  }

  /** The next request to `path` fails with this status and wuzapi error text. */
  failNext(path: string, status: number, error: string): void {
    this.programmed.push({ path, status, error });
  }

  /** Sends of a user (to /chat/...), optionally of one path. */
  sends(token: string, path?: string): FakeRequest[] {
    return this.requests.filter((r) => r.token === token && SEND_PATHS.includes(r.path) && (!path || r.path === path));
  }

  // --- the server going away and coming back -----------------------------------------------------

  async down(): Promise<void> {
    await new Promise<void>((ok) => {
      this.server.close(() => ok());
      this.server.closeAllConnections();
    });
  }

  async up(): Promise<void> {
    this.server = this.makeServer();
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    if (this.server.listening) await this.down();
  }

  // --- the phone -----------------------------------------------------------------------------------

  /** The phone scans the current QR code (or enters the pairing code): linked, logged in, PairSuccess and Connected posted. */
  async scan(token: string, origin: string): Promise<void> {
    const u = this.user(token);
    if (!u.client || u.client.loggedIn) throw new Error("fake wuzapi: nothing to scan");
    u.linked = true;
    u.client = { ...u.client, loggedIn: true, connected: true, qr: "" };
    await this.post(token, { type: "PairSuccess", event: { ID: u.jid.replace("@", ".0:7@"), LID: "", BusinessName: "", Platform: "android" } }, { origin });
    await this.post(token, { type: "Connected", event: {} }, { origin });
  }

  /**
   * The QR codes ran out (whatsmeow's "timeout"): QRTimeout posted, the client killed. `silent`:
   * nothing posted (wuzapi versions whose subscription list lacks QRTimeout only send it to "All").
   */
  async qrTimeout(token: string, origin: string, opts: { silent?: boolean } = {}): Promise<void> {
    const u = this.user(token);
    if (!opts.silent) await this.post(token, { type: "QRTimeout", event: "timeout" }, { origin });
    u.client = null;
  }

  /** A new QR round (whatsmeow emits a new code every 20 s): QR posted. */
  async nextQr(token: string, origin: string): Promise<string> {
    const u = this.user(token);
    if (!u.client || u.client.loggedIn) throw new Error("fake wuzapi: no QR rounds while logged in");
    u.client.qrRound++;
    u.client.qr = qrDataUrl(`${u.token}:${u.client.qrRound}`);
    await this.post(token, { type: "QR", event: "code", qrCodeBase64: u.client.qr }, { origin });
    return u.client.qr;
  }

  /** The device is removed on the phone: LoggedOut posted, the session unlinked and the client killed. */
  async logoutFromPhone(token: string, origin: string): Promise<void> {
    const u = this.user(token);
    u.linked = false;
    await this.post(token, { type: "LoggedOut", event: { OnConnect: false, Reason: 401 } }, { origin });
    u.client = null;
  }

  // --- webhooks ------------------------------------------------------------------------------------

  /**
   * Posts one event to the user's webhook as wuzapi would (format and signature may be chosen),
   * at `origin` instead of the registered host (the tests' core listens on a random port).
   */
  async post(
    token: string,
    postmap: Record<string, unknown>,
    opts: { origin: string; format?: "json" | "form"; signature?: SignatureMode; contentType?: string },
  ): Promise<{ status: number; body: any }> {
    const u = this.user(token);
    if (!u.webhook) return { status: 0, body: "no webhook set" };
    const type = String(postmap.type);
    if (u.events.length && !u.events.includes(type) && !u.events.includes("All")) return { status: 0, body: `not subscribed to ${type}` };
    const { body, contentType } = this.encode(u, postmap, opts.format ?? "json");
    const headers: Record<string, string> = { "content-type": opts.contentType ?? contentType, "user-agent": "go-resty/2.16.5 (https://github.com/go-resty/resty)" };
    const mode = opts.signature ?? "right";
    if (mode === "right" && u.hmacKey) headers["x-hmac-signature"] = hmacHex(body, u.hmacKey);
    if (mode === "wrong") headers["x-hmac-signature"] = hmacHex(body, `${u.hmacKey}-not-the-key`);
    const target = new URL(u.webhook);
    const res = await fetch(`${opts.origin}${target.pathname}${target.search}`, { method: "POST", headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* text */
    }
    return { status: res.status, body: parsed };
  }

  /** The body wuzapi posts for an event, and its content type. */
  encode(u: FakeUser, postmap: Record<string, unknown>, format: "json" | "form"): { body: string; contentType: string } {
    if (format === "json") return { body: goJson({ ...postmap, userID: String(u.id), instanceName: u.name }), contentType: "application/json" };
    return { body: goFormEncode({ jsonData: goJson(postmap), userID: String(u.id), instanceName: u.name }), contentType: "application/x-www-form-urlencoded" };
  }

  /** A customer's (or the phone's own) message, posted as a Message event. */
  async message(token: string, spec: MessageSpec, opts: { origin: string; format?: "json" | "form"; signature?: SignatureMode }): Promise<{ status: number; body: any; id: string }> {
    const postmap = messageEvent(spec);
    const res = await this.post(token, postmap, opts);
    return { ...res, id: (postmap.event as { Info: { ID: string } }).Info.ID };
  }

  // --- the HTTP API ----------------------------------------------------------------------------------

  private makeServer(): http.Server {
    return http.createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on("data", (c: Buffer) => parts.push(c));
      req.on("end", () => {
        const path = new URL(req.url ?? "/", "http://fake").pathname;
        let body: Record<string, any> = {};
        const raw = Buffer.concat(parts).toString("utf8");
        const rec: FakeRequest = { method: req.method ?? "GET", path, token: (req.headers.token as string) || undefined, authorization: req.headers.authorization, body, status: 200, answer: {}, at: Date.now() };
        const reply = (status: number, answer: Record<string, unknown>) => {
          rec.status = status;
          rec.answer = answer;
          this.requests.push(rec);
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(answer) + "\n");
        };
        try {
          if (raw) {
            try {
              body = JSON.parse(raw);
              rec.body = body;
            } catch {
              throw new Fail(400, "Could not decode Payload");
            }
          }
          const programmed = this.programmed.findIndex((p) => p.path === path);
          if (programmed >= 0) {
            const p = this.programmed.splice(programmed, 1)[0];
            throw new Fail(p.status, p.error);
          }
          const data = this.route(req.method ?? "GET", path, rec, body);
          reply(200, { code: 200, data, success: true });
        } catch (err) {
          const f = err instanceof Fail ? err : new Fail(500, (err as Error).message);
          reply(f.status, { code: f.status, error: f.message, success: false });
        }
      });
    });
  }

  private async listen(port = 0): Promise<void> {
    await new Promise<void>((ok) => this.server.listen(port, "127.0.0.1", () => ok()));
    this.port = (this.server.address() as AddressInfo).port;
  }

  private route(method: string, path: string, rec: FakeRequest, b: Record<string, any>): Record<string, unknown> {
    if (path === "/admin/users" && method === "POST") {
      if (rec.authorization !== this.adminToken) throw new Fail(401, "unauthorized");
      if (typeof b.token !== "string" || !b.token || typeof b.name !== "string" || !b.name) throw new Fail(400, "missing name or token");
      if (this.users.has(b.token)) throw new Fail(409, "user with this token already exists");
      const u = this.addUser({ token: b.token, name: b.name });
      if (typeof b.events === "string") u.events = b.events.split(",").filter(Boolean);
      return { id: u.id, name: u.name, token: u.token };
    }
    const u = rec.token ? this.users.get(rec.token) : undefined;
    if (!u) throw new Fail(401, "Unauthorized");
    const client = () => {
      if (!u.client) throw new Fail(500, "No session");
      return u.client;
    };
    switch (`${method} ${path}`) {
      case "POST /webhook":
        u.webhook = String(b.webhookURL ?? b.webhookurl ?? "");
        if (Array.isArray(b.events) && b.events.length) u.events = b.events.map(String);
        return { webhook: u.webhook };
      case "POST /session/hmac/config":
        if (typeof b.hmac_key !== "string" || b.hmac_key.length < 32) throw new Fail(400, "HMAC key must be at least 32 characters long");
        u.hmacKey = b.hmac_key;
        return { Details: "HMAC key configured successfully" };
      case "POST /session/connect": {
        if (u.client) throw new Fail(500, "Already Connected");
        u.client = { connected: true, loggedIn: u.linked, qr: u.linked ? "" : qrDataUrl(`${u.token}:1`), qrRound: 1 };
        if (Array.isArray(b.Subscribe) && b.Subscribe.length) u.events = b.Subscribe.map(String);
        return { details: "Connected!", events: u.events.join(","), jid: u.linked ? u.jid.replace("@", ".0:7@") : "", webhook: u.webhook };
      }
      case "GET /session/status": {
        const c = client();
        return { Connected: c.connected, LoggedIn: c.loggedIn };
      }
      case "GET /session/qr": {
        const c = client();
        if (!c.connected) throw new Fail(500, "Not connected");
        if (c.loggedIn) throw new Fail(500, "Already Loggedin");
        return { QRCode: c.qr };
      }
      case "POST /session/pairphone": {
        const c = client();
        if (!b.Phone) throw new Fail(400, "Missing Phone in Payload");
        if (c.loggedIn) throw new Fail(400, "Already paired");
        const code = `${randomBytes(2).toString("hex")}-${randomBytes(2).toString("hex")}`.toUpperCase();
        u.pairCodes.push({ phone: String(b.Phone), code });
        return { LinkingCode: code };
      }
      case "POST /session/disconnect": {
        const c = client();
        if (!(c.connected && c.loggedIn)) throw new Fail(500, "Cannot disconnect because it is not logged in");
        u.client = null;
        return { Details: "Disconnected" };
      }
      case "POST /session/logout": {
        const c = client();
        if (!(c.connected && c.loggedIn)) throw new Fail(500, c.connected ? "Could not logout as it was not logged in" : "Could not disconnect as it was not connected");
        u.linked = false;
        u.client = null;
        return { Details: "Logged out" };
      }
      case "POST /chat/markread":
        client();
        if (!b.Chat) throw new Fail(400, "Missing Chat in Payload");
        if (!Array.isArray(b.Id) || !b.Id.length) throw new Fail(400, "Missing Id in Payload");
        return { Details: "Message(s) marked as read" };
      default:
        if (method === "POST" && SEND_PATHS.includes(path)) return this.send(u, path, b);
        throw new Fail(404, "404 page not found");
    }
  }

  private send(u: FakeUser, path: string, b: Record<string, any>): Record<string, unknown> {
    const c = u.client;
    if (!c) throw new Fail(500, "No session");
    if (!b.Phone) throw new Fail(400, "Missing Phone in Payload");
    if (!/^\+?\d+(@[a-z.]+)?$/.test(String(b.Phone).replace(/[:.]\d+@/, "@"))) throw new Fail(400, "Could not parse Phone");
    const ctx = (b.ContextInfo ?? {}) as Record<string, unknown>;
    const stanza = ctx.StanzaId ?? ctx.StanzaID ?? ctx.stanzaId;
    if (stanza !== undefined && ctx.Participant === undefined) throw new Fail(400, "Missing Participant in ContextInfo");
    if (ctx.Participant !== undefined && stanza === undefined) throw new Fail(400, "Missing StanzaID in ContextInfo");
    const need = (field: string, prefix: string) => {
      if (typeof b[field] !== "string" || !b[field]) throw new Fail(400, `Missing ${field} in Payload`);
      if (!b[field].startsWith(prefix)) throw new Fail(400, `${field} data should start with "${prefix}"`);
    };
    switch (path) {
      case "/chat/send/text":
        if (!b.Body) throw new Fail(400, "Missing Body in Payload");
        break;
      case "/chat/send/image":
        need("Image", "data:image");
        break;
      case "/chat/send/audio":
        need("Audio", "data:audio/ogg");
        break;
      case "/chat/send/video":
      case "/chat/send/sticker":
        need(path.endsWith("video") ? "Video" : "Sticker", "data");
        break;
      case "/chat/send/document":
        need("Document", "data:application/octet-stream");
        if (!b.FileName) throw new Fail(400, "Missing FileName in Payload");
        break;
      case "/chat/react":
      case "/chat/delete":
        if (!b.Id) throw new Fail(400, "Missing Id in Payload");
        if (path === "/chat/react" && !b.Body) throw new Fail(400, "Missing Body in Payload");
        break;
    }
    if (!c.connected) throw new Fail(500, "Error sending message: websocket not connected");
    if (!c.loggedIn) throw new Fail(500, "Error sending message: the store doesn't contain a device JID");
    const id = path === "/chat/react" ? String(b.Id).replace(/^me:/, "") : b.Id ? String(b.Id) : `3EB0${randomBytes(10).toString("hex").toUpperCase()}`;
    return { Details: path === "/chat/delete" ? "Deleted" : "Sent", Timestamp: new Date().toISOString(), Id: id };
  }
}

export { messageEvent };
