/**
 * The Graph API as this channel uses it (either flavour, settings.ts): JSON calls through the
 * platform's outbound URL policy with the connection's token as a Bearer header, Meta's error
 * body read into a GraphError, and the back-off of throttled calls.
 *
 * Only answers that say "not done, slow down" are retried: HTTP 429, code 4 (app), 17 (user),
 * 32 (page) and 613 (calls within one hour). Meta did not take those messages, so sending again
 * cannot send twice. A timeout or a 5xx may have sent it: never retried here.
 */
import { safeFetch, type OutboundPolicy } from "@openatende/plugin-sdk";
import { senderIdOf, type InstagramSettings } from "./settings";

export const THROTTLE_CODES = new Set([4, 17, 32, 613]);
/** The access token is expired, revoked or not this app's. */
export const CREDENTIAL_CODES = new Set([190]);
/** Waits before each retry of a throttled call (ms); its length is the number of retries. */
export const DEFAULT_RETRY_MS = [1000, 4000, 16_000];

export class GraphError extends Error {
  constructor(
    message: string,
    /** HTTP status (0: no answer). */
    readonly httpStatus: number,
    /** Meta's error code (0 when there was none). */
    readonly code: number,
    readonly title: string,
    readonly subcode = 0,
  ) {
    super(message);
    this.name = "GraphError";
  }

  get unreachable(): boolean {
    return this.httpStatus === 0;
  }

  get throttled(): boolean {
    return this.httpStatus === 429 || THROTTLE_CODES.has(this.code);
  }

  get credentials(): boolean {
    return CREDENTIAL_CODES.has(this.code) || (this.httpStatus === 401 && !this.code);
  }
}

/** Meta's `{error:{message, type, code, error_subcode, fbtrace_id}}` as a GraphError. */
export function graphErrorOf(httpStatus: number, body: unknown): GraphError {
  const e = (body && typeof body === "object" ? (body as { error?: Record<string, unknown> }).error : undefined) ?? {};
  const code = Number(e.code) || 0;
  const raw = typeof e.message === "string" ? e.message : `HTTP ${httpStatus}`;
  const title = ((typeof e.error_user_title === "string" && e.error_user_title) || raw.replace(/^\(#\d+\)\s*/, "")).slice(0, 200);
  return new GraphError(`${code ? `(#${code}) ` : ""}${title}`, httpStatus, code, title, Number(e.error_subcode) || 0);
}

export interface GraphOptions {
  policy: OutboundPolicy;
  timeoutMs?: number;
  /** Read at each call (a test shortens them on a running service). */
  retryMs?: () => number[];
  sleep?: (ms: number) => Promise<void>;
}

export interface SendAnswer {
  message_id?: string;
  recipient_id?: string;
}

export interface Profile {
  name?: string;
  username?: string;
  profile_pic?: string;
}

const sleeper = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export class GraphClient {
  constructor(
    private readonly settings: InstagramSettings,
    private readonly opts: GraphOptions,
  ) {}

  private url(path: string): string {
    return `${this.settings.graphUrl}/${this.settings.apiVersion}${path}`;
  }

  /** One message (the body of POST /{sender}/messages); answers Meta's message id. */
  async send(body: Record<string, unknown>): Promise<string> {
    const res = await this.call<SendAnswer>("POST", `/${senderIdOf(this.settings)}/messages`, body);
    if (typeof res.message_id !== "string" || !res.message_id) throw new GraphError("the send answered no message id", 502, 0, "No message id");
    return res.message_id;
  }

  /** The customer's name, username and picture (an IGSID's profile). */
  profile(igsid: string): Promise<Profile> {
    return this.call<Profile>("GET", `/${encodeURIComponent(igsid)}?fields=name,username,profile_pic`);
  }

  /** Who the token is: the Instagram account ("instagram") or the Page with its Instagram account ("page"). */
  async probe(): Promise<{ id: string; name: string; igAccountId?: string }> {
    if (this.settings.flavour === "page") {
      const r = await this.call<{ id?: string; name?: string; instagram_business_account?: { id?: string } }>("GET", `/${this.settings.pageId}?fields=id,name,instagram_business_account`);
      return { id: String(r.id ?? ""), name: String(r.name ?? ""), igAccountId: r.instagram_business_account?.id ? String(r.instagram_business_account.id) : undefined };
    }
    const r = await this.call<{ id?: string; user_id?: string; username?: string; name?: string }>("GET", "/me?fields=id,user_id,username,name");
    return { id: String(r.id ?? ""), name: String(r.username ?? r.name ?? ""), igAccountId: String(r.user_id ?? r.id ?? "") || undefined };
  }

  async call<T>(method: "GET" | "POST", path: string, json?: unknown): Promise<T> {
    const delays = this.opts.retryMs?.() ?? DEFAULT_RETRY_MS;
    for (let i = 0; ; i++) {
      try {
        return await this.once<T>(method, path, json);
      } catch (err) {
        if (!(err instanceof GraphError) || !err.throttled || i >= delays.length) throw err;
        await (this.opts.sleep ?? sleeper)(delays[i]);
      }
    }
  }

  private async once<T>(method: string, path: string, json?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.settings.accessToken}`, accept: "application/json" };
    if (json !== undefined) headers["content-type"] = "application/json";
    let res: Response;
    try {
      res = await safeFetch(
        this.url(path),
        { method, headers, body: json === undefined ? undefined : JSON.stringify(json), signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000), redirect: "error" },
        this.opts.policy,
      );
    } catch (err) {
      throw new GraphError(`the API could not be reached: ${(err as Error).message}`, 0, 0, "Unreachable");
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = null;
    }
    if (!res.ok) throw graphErrorOf(res.status, parsed);
    if (parsed === null || typeof parsed !== "object") throw new GraphError(`the API answered something that is not JSON (HTTP ${res.status})`, 502, 0, "Not JSON");
    return parsed as T;
  }
}
