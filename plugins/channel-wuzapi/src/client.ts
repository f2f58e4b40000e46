/**
 * wuzapi's REST API as this plugin uses it (checked against asternic/wuzapi's handlers.go,
 * routes.go and API.md; see the README): user endpoints authenticate with the header `Token`,
 * the admin endpoints with `Authorization: <admin token>`; every answer is the envelope
 * `{ code, data, success }`, or `{ code, error, success: false }`. Failures are sorted here by
 * what the caller should do about them.
 *
 * The server's URL is the tenant's: every call goes through the platform's outbound URL policy
 * (safeFetch), so it never reaches an internal address the operator did not allow.
 */
import { OutboundUrlError, safeFetch, type OutboundPolicy } from "@openatende/plugin-sdk";

export type FailureKind =
  /** Network error, timeout, or a proxy's 502/503/504: try again later. */
  | "unreachable"
  /** 401: wuzapi does not know the token. */
  | "unauthorized"
  /** wuzapi holds no live WhatsApp client for the user, or it is not logged in ("No session", "not connected"). */
  | "no-session"
  /** Any other refusal (4xx, or wuzapi's 500 with its reason), or an address the platform does not allow. */
  | "refused";

export class WuzapiError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "WuzapiError";
  }
}

export interface SessionStatus {
  connected: boolean;
  loggedIn: boolean;
  /** The account's JID, when this wuzapi version says it. */
  jid?: string;
}

export interface SendAnswer {
  id: string;
  /** ms since the epoch. */
  timestamp: number;
}

/** Events the plugin subscribes to: messages, receipts and the session's life. */
export const SUBSCRIBED_EVENTS = [
  "Message",
  "ReadReceipt",
  "Connected",
  "PairSuccess",
  "QR",
  "QRTimeout",
  "LoggedOut",
  "Disconnected",
  "ConnectFailure",
  "KeepAliveTimeout",
  "KeepAliveRestored",
  "TemporaryBan",
  "ClientOutdated",
  "StreamError",
] as const;

const NO_SESSION = /no session|not connected|not logged ?in|websocket not connected|not paired/i;

function pick(o: Record<string, unknown> | undefined, ...names: string[]): unknown {
  if (!o) return undefined;
  for (const n of names) if (o[n] !== undefined) return o[n];
  return undefined;
}

export interface ClientOptions {
  timeoutMs?: number;
  /** The platform's outbound URL policy (its allow-list: the plugin context's outboundAllow). */
  policy?: OutboundPolicy;
}

export class WuzapiClient {
  private readonly timeoutMs: number;
  private readonly policy: OutboundPolicy;

  constructor(
    readonly apiUrl: string,
    private readonly token: string,
    opts: ClientOptions = {},
  ) {
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.policy = opts.policy ?? {};
  }

  private async request(method: "GET" | "POST" | "DELETE", path: string, body?: unknown, opts: { admin?: string; timeoutMs?: number } = {}): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (opts.admin) headers.authorization = opts.admin;
    else headers.token = this.token;
    if (body !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await safeFetch(
        `${this.apiUrl}${path}`,
        {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs ?? this.timeoutMs),
          // wuzapi's API never redirects; the session token must not follow one elsewhere.
          redirect: "error",
        },
        this.policy,
      );
    } catch (err) {
      if (err instanceof OutboundUrlError) throw new WuzapiError("refused", `wuzapi's URL is not allowed: ${err.message}`);
      const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
      const why = e.name === "TimeoutError" ? `no answer in ${Math.round((opts.timeoutMs ?? this.timeoutMs) / 1000)} s` : (e.code ?? e.cause?.code ?? e.cause?.message ?? e.message ?? String(err));
      throw new WuzapiError("unreachable", `wuzapi unreachable at ${this.apiUrl} (${method} ${path}: ${why})`);
    }
    const text = await res.text().catch(() => "");
    let parsed: Record<string, unknown> | null = null;
    try {
      const j = JSON.parse(text) as unknown;
      if (j && typeof j === "object" && !Array.isArray(j)) parsed = j as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    if (res.ok && parsed && parsed.success !== false) {
      const data = parsed.data;
      return data && typeof data === "object" && !Array.isArray(data) ? (data as Record<string, unknown>) : parsed;
    }
    const reason = typeof parsed?.error === "string" ? parsed.error : text.trim().slice(0, 200) || res.statusText;
    const said = `wuzapi answered ${res.status} to ${method} ${path}: ${reason}`;
    if (!parsed && [502, 503, 504].includes(res.status)) throw new WuzapiError("unreachable", said, res.status);
    if (res.status === 401) throw new WuzapiError("unauthorized", said, 401);
    if (NO_SESSION.test(reason)) throw new WuzapiError("no-session", said, res.status);
    throw new WuzapiError("refused", said, res.status);
  }

  async status(): Promise<SessionStatus> {
    const d = await this.request("GET", "/session/status");
    const jid = pick(d, "Jid", "jid", "JID");
    return { connected: pick(d, "Connected", "connected") === true, loggedIn: pick(d, "LoggedIn", "loggedIn", "Loggedin") === true, ...(typeof jid === "string" && jid ? { jid } : {}) };
  }

  /** Starts the user's WhatsApp client; a client that is already running is no failure. */
  async connect(): Promise<{ jid?: string }> {
    try {
      const d = await this.request("POST", "/session/connect", { Subscribe: [...SUBSCRIBED_EVENTS], Immediate: true });
      const jid = pick(d, "jid", "Jid");
      return typeof jid === "string" && jid ? { jid } : {};
    } catch (err) {
      if (err instanceof WuzapiError && err.kind === "refused" && /already connected/i.test(err.message)) return {};
      throw err;
    }
  }

  /** The QR code to scan (a data:image/png URL), or null when there is none yet or it is already logged in. */
  async qr(): Promise<string | null> {
    try {
      const d = await this.request("GET", "/session/qr");
      const code = pick(d, "QRCode", "qrcode", "QRcode");
      return typeof code === "string" && code ? code : null;
    } catch (err) {
      if (err instanceof WuzapiError && err.kind === "refused" && /already logged ?in/i.test(err.message)) return null;
      throw err;
    }
  }

  async pairPhone(phone: string): Promise<string> {
    const d = await this.request("POST", "/session/pairphone", { Phone: phone });
    const code = pick(d, "LinkingCode", "linkingCode");
    if (typeof code !== "string" || !code) throw new WuzapiError("refused", "wuzapi answered no LinkingCode");
    return code;
  }

  async disconnect(): Promise<void> {
    await this.request("POST", "/session/disconnect");
  }

  async logout(): Promise<void> {
    await this.request("POST", "/session/logout");
  }

  async setWebhook(url: string): Promise<void> {
    await this.request("POST", "/webhook", { webhookURL: url, events: [...SUBSCRIBED_EVENTS] });
  }

  async setHmacKey(key: string): Promise<void> {
    await this.request("POST", "/session/hmac/config", { hmac_key: key });
  }

  /** Creates the user (the session) with the admin token. */
  async createUser(adminToken: string, name: string): Promise<void> {
    await this.request("POST", "/admin/users", { name, token: this.token, events: SUBSCRIBED_EVENTS.join(",") }, { admin: adminToken });
  }

  /** A /chat/... call that sends a message; answers the message id and time wuzapi reports. */
  async send(path: string, body: Record<string, unknown>, timeoutMs?: number): Promise<SendAnswer> {
    const d = await this.request("POST", path, body, { timeoutMs });
    const id = pick(d, "Id", "id", "ID");
    const ts = pick(d, "Timestamp", "timestamp");
    const parsed = typeof ts === "number" ? (ts < 1e12 ? ts * 1000 : ts) : typeof ts === "string" ? Date.parse(ts) : NaN;
    return { id: typeof id === "string" ? id : String(body.Id ?? ""), timestamp: Number.isFinite(parsed) && parsed > 0 ? parsed : Date.now() };
  }

  async markRead(chat: string, ids: string[], sender?: string): Promise<void> {
    await this.request("POST", "/chat/markread", { Id: ids, Chat: chat, ...(sender ? { Sender: sender } : {}) });
  }
}
