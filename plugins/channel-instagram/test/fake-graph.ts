/**
 * A local server that speaks the Graph API as Instagram messaging uses it (WHATSAPP.md §5),
 * for tests, in both flavours:
 *
 * - every call needs an account's token (`Authorization: Bearer` or `access_token`), else
 *   400 `{error:{code:190, type:"OAuthException"}}` (an expired token answers the same);
 * - GET /{ver}/me?fields=… (Business Login for Instagram) and GET /{ver}/{page id}?fields=…
 *   (the Page flow) say who the token is;
 * - POST /{ver}/{IG account id}/messages (an Instagram token) or /{ver}/{page id}/messages (a
 *   page token) `{recipient:{id}, messaging_type, tag?, message:{text | attachment}}` answers
 *   `{recipient_id, message_id}`; text over 1000 bytes, an unknown recipient, a tag other than
 *   HUMAN_AGENT are refused; a reply more than 24 hours after the customer's last message
 *   (the events this fake made) is refused with code 10 / subcode 2534022 unless tagged
 *   HUMAN_AGENT within 7 days;
 * - GET /{ver}/{IGSID}?fields=name,username,profile_pic answers the customer's profile.
 *
 * It posts webhooks as Meta does: the `instagram` envelope, signed with X-Hub-Signature-256
 * over the exact bytes with the app's secret.
 */
import * as http from "node:http";
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { hmacSignatureOf } from "@openatende/plugin-sdk";

export interface FakeAccount {
  flavour: "instagram" | "page";
  igAccountId: string;
  pageId: string;
  token: string;
  username: string;
  expired: boolean;
}

export interface FakeSend {
  path: string;
  account: FakeAccount;
  body: any;
  mid: string;
}

let seq = 0;
const digits = (n: number) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10))).join("");
export const newIgsid = () => digits(16);
export const newMid = () => `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOjE3ODQx${randomBytes(12).toString("base64url")}${++seq}`;

export class FakeGraph {
  readonly accounts: FakeAccount[] = [];
  readonly users = new Map<string, { name: string; username: string; profile_pic: string }>();
  readonly sends: FakeSend[] = [];
  readonly requests: Array<{ method: string; path: string; status: number }> = [];
  /** The customer's last message time, from the events this fake made. */
  readonly lastFrom = new Map<string, number>();
  /** Answers of sends held back this long (ms): Meta's echo then overtakes the answer. */
  sendDelayMs = 0;
  private readonly files = new Map<string, { data: Buffer; mimeType: string }>();
  private programmed: Array<{ status: number; code: number; subcode?: number; message: string }> = [];
  private server: http.Server;

  private constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<FakeGraph> {
    const f = new FakeGraph();
    await new Promise<void>((ok) => f.server.listen(0, "127.0.0.1", ok));
    return f;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }

  addAccount(flavour: "instagram" | "page" = "instagram"): FakeAccount {
    const a = { flavour, igAccountId: `17841${digits(12)}`, pageId: digits(15), token: `${flavour === "page" ? "EAAG" : "IGAA"}${randomBytes(24).toString("base64url")}`, username: `loja_${digits(4)}`, expired: false };
    this.accounts.push(a);
    return a;
  }

  addUser(name: string, igsid = newIgsid()): string {
    this.users.set(igsid, { name, username: name.toLowerCase().replace(/\W+/g, "_"), profile_pic: `https://scontent.cdninstagram.com/v/${igsid}.jpg` });
    return igsid;
  }

  /** A file on the fake CDN; answers its URL. */
  addFile(name: string, data: Buffer, mimeType: string): string {
    this.files.set(name, { data, mimeType });
    return `${this.url}/cdn/${name}`;
  }

  /** The next calls answer these errors, in order. */
  fail(...errors: Array<{ status: number; code: number; subcode?: number; message: string }>): void {
    this.programmed.push(...errors);
  }

  profileCalls(igsid: string): number {
    return this.requests.filter((r) => r.method === "GET" && r.path.endsWith(`/${igsid}`)).length;
  }

  // --- webhooks -----------------------------------------------------------------------------

  envelope(account: FakeAccount, messaging: unknown[]): string {
    return JSON.stringify({ object: "instagram", entry: [{ id: account.igAccountId, time: Date.now(), messaging }] });
  }

  /** A customer's message (text, attachments) or, with `echo`, one the account sent. */
  message(account: FakeAccount, igsid: string, m: { mid?: string; text?: string; attachments?: unknown[]; at?: number; echo?: boolean; replyTo?: string }): Record<string, unknown> {
    const at = m.at ?? Date.now();
    if (!m.echo) this.lastFrom.set(igsid, Math.max(this.lastFrom.get(igsid) ?? 0, at));
    const [sender, recipient] = m.echo ? [account.igAccountId, igsid] : [igsid, account.igAccountId];
    const message = { mid: m.mid ?? newMid(), ...(m.text !== undefined ? { text: m.text } : {}), ...(m.attachments ? { attachments: m.attachments } : {}), ...(m.echo ? { is_echo: true } : {}), ...(m.replyTo ? { reply_to: { mid: m.replyTo } } : {}) };
    return { sender: { id: sender }, recipient: { id: recipient }, timestamp: at, message };
  }

  event(account: FakeAccount, igsid: string, extra: Record<string, unknown>, at = Date.now()): Record<string, unknown> {
    return { sender: { id: igsid }, recipient: { id: account.igAccountId }, timestamp: at, ...extra };
  }

  /** Posts a body to a webhook URL, signed with `appSecret` (or as told). */
  async post(url: string, body: string, appSecret: string, opts: { signature?: string | null } = {}): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "facebookexternalua" };
    const sig = opts.signature === undefined ? hmacSignatureOf(body, appSecret) : opts.signature;
    if (sig !== null) headers["x-hub-signature-256"] = sig;
    const res = await fetch(url, { method: "POST", headers, body });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  }

  // --- the API --------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const u = new URL(req.url ?? "/", "http://x");
    const path = u.pathname;
    const answer = (status: number, body: unknown) => {
      this.requests.push({ method: req.method ?? "", path, status });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string, subcode?: number) =>
      answer(status, { error: { message, type: code === 190 ? "OAuthException" : "IGApiException", code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: "AbCdEf" } });
    // Meta's CDN: attachment files, by URL, no token.
    const file = path.startsWith("/cdn/") ? this.files.get(path.slice(5)) : undefined;
    if (file) {
      this.requests.push({ method: req.method ?? "", path, status: 200 });
      res.writeHead(200, { "content-type": file.mimeType, "content-length": String(file.data.length) });
      return res.end(file.data);
    }
    const auth = String(req.headers.authorization ?? "");
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : (u.searchParams.get("access_token") ?? "");
    const account = this.accounts.find((a) => a.token === token);
    if (!account || account.expired) return error(400, 190, "Error validating access token: Session has expired");
    const fail = this.programmed.shift();
    if (fail) return error(fail.status, fail.code, fail.message, fail.subcode);
    const m = /^\/v\d+\.\d+\/([^/]+)(\/messages)?$/.exec(path);
    if (!m) return error(400, 100, `Unknown path components: ${path}`);
    const [, id, messages] = m;
    if (req.method === "POST" && messages) {
      const own = account.flavour === "page" ? account.pageId : account.igAccountId;
      if (id !== own) return error(400, 100, "Unsupported post request. Object does not exist or cannot be loaded due to missing permissions");
      let body: any;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return error(400, 100, "Invalid JSON");
      }
      return this.onSend(path, account, body, answer, error);
    }
    if (req.method !== "GET") return error(400, 100, "Unsupported request");
    if (id === "me" && account.flavour === "instagram") return answer(200, { id: `9${account.igAccountId.slice(1)}`, user_id: account.igAccountId, username: account.username });
    if (id === account.pageId && account.flavour === "page") return answer(200, { id: account.pageId, name: `Página ${account.username}`, instagram_business_account: { id: account.igAccountId } });
    const user = this.users.get(id);
    if (user) return answer(200, { ...user, id });
    return error(400, 100, `Unsupported get request. Object with ID '${id}' does not exist`);
  }

  private async onSend(path: string, account: FakeAccount, body: any, answer: (s: number, b: unknown) => void, error: (s: number, c: number, m: string, sub?: number) => void) {
    const to = String(body?.recipient?.id ?? "");
    if (!to) return error(400, 100, "(#100) The parameter recipient is required");
    if (!this.users.has(to)) return error(400, 100, "No matching user found", 2534014);
    const msg = body.message ?? {};
    if (typeof msg.text === "string") {
      if (!msg.text) return error(400, 100, "(#100) Param message[text] must be non-empty");
      if (Buffer.byteLength(msg.text, "utf8") > 1000) return error(400, 100, "(#100) Length of param message[text] must be less than or equal to 1000");
    } else if (msg.attachment) {
      if (!["image", "video", "audio", "file"].includes(msg.attachment.type) || !/^https?:\/\//.test(String(msg.attachment.payload?.url ?? ""))) return error(400, 100, "(#100) Invalid attachment");
    } else return error(400, 100, "(#100) Must send either message or sender action");
    const tagged = body.messaging_type === "MESSAGE_TAG";
    if (tagged && body.tag !== "HUMAN_AGENT") return error(400, 100, "(#100) Tag is not supported on Instagram");
    if (!tagged && body.messaging_type !== undefined && body.messaging_type !== "RESPONSE" && body.messaging_type !== "UPDATE") return error(400, 100, "(#100) Invalid messaging_type");
    const last = this.lastFrom.get(to);
    const age = last === undefined ? 0 : Date.now() - last;
    if (age > 24 * 3600_000 && !(tagged && age <= 7 * 24 * 3600_000)) return error(400, 10, "(#10) This message is sent outside of allowed window.", 2534022);
    const mid = newMid();
    this.sends.push({ path, account, body, mid });
    if (this.sendDelayMs) await new Promise((ok) => setTimeout(ok, this.sendDelayMs));
    return answer(200, { recipient_id: to, message_id: mid });
  }
}
