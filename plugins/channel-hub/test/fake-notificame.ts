/**
 * A local server that speaks NotificaMe's hub API as its open-source clients use it
 * (INTEGRATIONS.md §2; Zenvia v2 shapes), for tests:
 *
 * - every call needs the account's `X-API-Token` (any case), else 401 `{ code, message }`;
 * - POST /v1/channels/:variant/messages `{ from: <channel token>, to, contents }` answers the
 *   message echo with its `id`; `from` must be one of the account's channels, of that variant;
 * - POST /v1/subscriptions `{ webhook: { url }, criteria: { channel } }`, DELETE /v1/subscriptions/:id;
 * - GET /v1/channels lists the account's channels.
 *
 * It posts webhooks as the hub does: MESSAGE events with the visitor, the odd
 * "YYYY-MM-DD hh:mm:ss am" timestamps (Brasília time) and isGroup as a string, and
 * MESSAGE_STATUS events, to the subscribed URL (its origin swapped for the test core's: the
 * core's PUBLIC_URL is not where it listens). No signature: the hub signs nothing.
 */
import * as http from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";

export interface FakeChannel {
  id: string;
  variant: string;
  name: string;
  apiToken: string;
}

export interface FakeSend {
  id: string;
  variant: string;
  apiToken: string;
  from: string;
  to: string;
  contents: Array<Record<string, any>>;
}

export interface FakeSubscription {
  id: string;
  url: string;
  channel: string;
  apiToken: string;
  deleted: boolean;
}

export interface InboundSpec {
  id?: string;
  from: string;
  name?: string;
  contents?: Array<Record<string, unknown>>;
  text?: string;
  group?: { id: string; name: string };
  direction?: "IN" | "OUT";
  at?: Date;
}

/** The hub's own timestamp: "2024-03-29 10:38:07 pm", Brasília time (UTC−3). */
export function hubTime(d: Date = new Date()): string {
  const b = new Date(d.getTime() - 3 * 3600_000);
  const h = b.getUTCHours();
  const p = (n: number) => String(n).padStart(2, "0");
  return `${b.getUTCFullYear()}-${p(b.getUTCMonth() + 1)}-${p(b.getUTCDate())} ${p(h % 12 === 0 ? 12 : h % 12)}:${p(b.getUTCMinutes())}:${p(b.getUTCSeconds())} ${h < 12 ? "am" : "pm"}`;
}

export class FakeNotificaMe {
  readonly channels = new Map<string, FakeChannel>();
  readonly sends: FakeSend[] = [];
  readonly subscriptions: FakeSubscription[] = [];
  readonly requests: Array<{ method: string; path: string; status: number }> = [];
  private programmed: Array<{ status: number; message: string }> = [];
  /** Answers of sends held back this long (ms): a lost answer, for the idempotency tests. */
  sendDelayMs = 0;
  private server: http.Server;

  private constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
  }

  static async start(): Promise<FakeNotificaMe> {
    const f = new FakeNotificaMe();
    await new Promise<void>((ok) => f.server.listen(0, "127.0.0.1", ok));
    return f;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((ok) => this.server.close(() => ok()));
  }

  /** A channel connected in the hub's panel (channels cannot be made through the API). */
  addChannel(variant: string, apiToken = `acct-${randomUUID()}`): FakeChannel {
    const c = { id: randomUUID(), variant, name: `${variant} test`, apiToken };
    this.channels.set(c.id, c);
    return c;
  }

  /** The next send answers this error. */
  failNextSend(status: number, message: string): void {
    this.programmed.push({ status, message });
  }

  subscriptionOf(channelId: string): FakeSubscription | undefined {
    return [...this.subscriptions].reverse().find((s) => s.channel === channelId && !s.deleted);
  }

  /** Posts an event to the channel's subscription (or `url`), its origin replaced by `origin`. */
  async post(channelId: string, event: unknown, opts: { origin: string; url?: string }): Promise<{ status: number; body: any }> {
    const sub = this.subscriptionOf(channelId);
    const target = opts.url ?? sub?.url;
    if (!target) throw new Error(`no subscription for channel ${channelId}`);
    const u = new URL(target);
    const res = await fetch(`${opts.origin}${u.pathname}${u.search}`, { method: "POST", headers: { "content-type": "application/json", "user-agent": "NotificaMe-Hub" }, body: JSON.stringify(event) });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }

  messageEvent(channelId: string, spec: InboundSpec): Record<string, unknown> {
    const c = this.channels.get(channelId);
    const id = spec.id ?? randomUUID();
    const at = hubTime(spec.at);
    const [firstName, ...rest] = (spec.name ?? "").split(" ");
    const direction = spec.direction ?? "IN";
    return {
      type: "MESSAGE",
      id: randomUUID(),
      timestamp: at,
      subscriptionId: channelId,
      channel: c?.variant ?? "facebook",
      direction,
      message: {
        id,
        from: direction === "IN" ? spec.from : channelId,
        to: direction === "IN" ? channelId : spec.from,
        direction,
        channel: c?.variant ?? "facebook",
        visitor: { name: spec.name ?? "", firstName, lastName: rest.join(" "), picture: "" },
        ...(spec.group ? { group: spec.group } : {}),
        isGroup: spec.group ? "true" : "false",
        contents: spec.contents ?? [{ type: "text", text: spec.text ?? "" }],
        timestamp: at,
      },
    };
  }

  statusEvent(channelId: string, messageId: string, code: string, description = code): Record<string, unknown> {
    const at = hubTime();
    return {
      type: "MESSAGE_STATUS",
      timestamp: at,
      subscriptionId: channelId,
      channel: this.channels.get(channelId)?.variant ?? "facebook",
      messageId,
      contentIndex: 0,
      messageStatus: { timestamp: at, code, description, ...(code === "REJECTED" || code === "ERROR" ? { error: { message: description } } : {}) },
    };
  }

  // --- the API --------------------------------------------------------------------------------

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = (req.url ?? "").split("?")[0];
    const answer = (status: number, body: unknown) => {
      this.requests.push({ method: req.method ?? "", path, status });
      res.writeHead(status, { "content-type": "application/json" });
      res.end(body === undefined ? "" : JSON.stringify(body));
    };
    const token = String(req.headers["x-api-token"] ?? "");
    const mine = [...this.channels.values()].filter((c) => c.apiToken === token);
    if (!token || !mine.length) return answer(401, { code: "UNAUTHORIZED", message: "Invalid API token" });
    let body: any = {};
    try {
      body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
    } catch {
      return answer(400, { code: "VALIDATION_ERROR", message: "Malformed JSON" });
    }
    const send = /^\/v1\/channels\/([a-z_]+)\/messages$/.exec(path);
    if (req.method === "POST" && send) return this.onSend(send[1], token, body, answer);
    if (req.method === "POST" && path === "/v1/subscriptions") {
      const channel = this.channels.get(String(body?.criteria?.channel ?? ""));
      if (!channel || channel.apiToken !== token) return answer(400, { code: "VALIDATION_ERROR", message: "criteria.channel: channel not found" });
      if (typeof body?.webhook?.url !== "string" || !/^https?:\/\//.test(body.webhook.url)) return answer(400, { code: "VALIDATION_ERROR", message: "webhook.url is required" });
      const sub = { id: randomUUID(), url: body.webhook.url, channel: channel.id, apiToken: token, deleted: false };
      this.subscriptions.push(sub);
      return answer(200, { id: sub.id, webhook: { url: sub.url }, criteria: { channel: sub.channel }, status: "ACTIVE" });
    }
    const del = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (req.method === "DELETE" && del) {
      const sub = this.subscriptions.find((s) => s.id === decodeURIComponent(del[1]) && s.apiToken === token);
      if (!sub) return answer(404, { code: "NOT_FOUND", message: "Subscription not found" });
      sub.deleted = true;
      return answer(204, undefined);
    }
    if (req.method === "GET" && path === "/v1/channels") return answer(200, mine.map((c) => ({ id: c.id, channel: c.variant, name: c.name })));
    return answer(404, { code: "NOT_FOUND", message: `Cannot ${req.method} ${path}` });
  }

  private async onSend(variant: string, token: string, body: any, answer: (s: number, b: unknown) => void) {
    const channel = this.channels.get(String(body?.from ?? ""));
    if (!channel || channel.apiToken !== token) return answer(400, { code: "VALIDATION_ERROR", message: "from: channel not found" });
    if (channel.variant !== variant) return answer(400, { code: "VALIDATION_ERROR", message: `from: the channel is not a ${variant} channel` });
    if (typeof body.to !== "string" || !body.to) return answer(400, { code: "VALIDATION_ERROR", message: "to is required" });
    const contents = Array.isArray(body.contents) ? body.contents : [];
    if (!contents.length) return answer(400, { code: "VALIDATION_ERROR", message: "contents must not be empty" });
    for (const c of contents) {
      const ok =
        (c.type === "text" && typeof c.text === "string" && c.text.length > 0) ||
        (c.type === "file" && typeof c.fileUrl === "string" && typeof c.fileMimeType === "string") ||
        (c.type === "email" && variant === "email" && typeof c.subject === "string" && typeof c.html === "string");
      if (!ok) return answer(400, { code: "VALIDATION_ERROR", message: `contents: invalid ${c?.type ?? "content"}` });
    }
    const fail = this.programmed.shift();
    if (fail) return answer(fail.status, { code: "ERROR", message: fail.message });
    const sent: FakeSend = { id: randomUUID(), variant, apiToken: token, from: body.from, to: body.to, contents };
    this.sends.push(sent);
    if (this.sendDelayMs) await new Promise((ok) => setTimeout(ok, this.sendDelayMs));
    return answer(200, { id: sent.id, from: sent.from, to: sent.to, direction: "OUT", channel: variant, contents });
  }
}
