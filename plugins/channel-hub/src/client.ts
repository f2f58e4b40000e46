/**
 * NotificaMe's HTTP API (INTEGRATIONS.md §2; Zenvia v2-shaped): header X-API-Token on every
 * call, JSON bodies.
 *
 * - POST {base}/channels/{variant}/messages { from: <channel token>, to, contents: [...] }
 *   answers the message with its `id`.
 * - POST {base}/subscriptions { webhook: { url }, criteria: { channel: <channel token> } }
 *   makes the hub post that channel's MESSAGE and MESSAGE_STATUS events to the url.
 * - GET {base}/channels lists the account's channels (channels are connected in the hub's
 *   panel, never through the API).
 *
 * Every call goes through the platform's outbound URL policy (safeFetch) and never follows a
 * redirect: the token header would go along to wherever it points.
 */
import { safeFetch, OutboundUrlError, type OutboundPolicy } from "@openatende/plugin-sdk";
import type { HubVariant } from "./settings";

export type HubErrorKind = "unauthorized" | "rejected" | "unavailable";

export class HubError extends Error {
  constructor(
    readonly kind: HubErrorKind,
    readonly status: number,
    message: string,
    /** No answer came after the request went out (a timeout, a reset): the hub may have sent it. */
    readonly uncertain = false,
  ) {
    super(message);
    this.name = "HubError";
  }
}

export interface HubContent {
  type: string;
  [k: string]: unknown;
}

export interface HubClientOptions {
  timeoutMs?: number;
  policy?: OutboundPolicy;
}

/** The hub's words in an error answer: Zenvia-style { code, message, details } or { error }. */
function reasonOf(body: unknown, status: number): string {
  const b = (body ?? {}) as Record<string, unknown>;
  const details = Array.isArray(b.details) ? b.details.map((d) => (d as { message?: string }).message).filter(Boolean) : [];
  const text = [b.message, b.error, ...details].filter((x) => typeof x === "string" && x).join("; ");
  return (text || `HTTP ${status}`).slice(0, 300);
}

export class HubClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiToken: string,
    private readonly opts: HubClientOptions = {},
  ) {}

  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await safeFetch(
        `${this.baseUrl}${path}`,
        {
          method,
          headers: { "X-API-Token": this.apiToken, accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
          redirect: "error",
        },
        this.opts.policy,
      );
    } catch (err) {
      if (err instanceof OutboundUrlError) throw new HubError("rejected", 400, `the hub's address is not allowed: ${err.message}`);
      const e = err as Error & { code?: string; cause?: { code?: string } };
      const code = e.code ?? e.cause?.code ?? "";
      const refused = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"].includes(code);
      throw new HubError("unavailable", 0, `the hub is unreachable: ${e.message}`, !refused);
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { message: text.slice(0, 200) };
    }
    if (res.status === 401 || res.status === 403) throw new HubError("unauthorized", res.status, reasonOf(parsed, res.status));
    if (res.status >= 500 || res.status === 429) throw new HubError("unavailable", res.status, reasonOf(parsed, res.status));
    if (!res.ok) throw new HubError("rejected", res.status, reasonOf(parsed, res.status));
    return parsed as T;
  }

  /** Sends one message; answers the hub's id for it. */
  async send(variant: HubVariant, from: string, to: string, contents: HubContent[]): Promise<{ id: string }> {
    const r = await this.request<{ id?: unknown }>("POST", `/channels/${variant}/messages`, { from, to, contents });
    if (typeof r?.id !== "string" || !r.id) throw new HubError("rejected", 502, "the hub answered the send without a message id");
    return { id: r.id };
  }

  /** Asks the hub to post the channel's events to `url`; answers the subscription's id when it gives one. */
  async subscribe(channelToken: string, url: string): Promise<{ id?: string }> {
    const r = await this.request<{ id?: unknown }>("POST", "/subscriptions", { webhook: { url }, criteria: { channel: channelToken } });
    return typeof r?.id === "string" ? { id: r.id } : {};
  }

  async unsubscribe(id: string): Promise<void> {
    await this.request("DELETE", `/subscriptions/${encodeURIComponent(id)}`);
  }

  /** The account's channels (ids only: the rest of the shape is not relied on). */
  async channels(): Promise<string[]> {
    const r = await this.request<unknown>("GET", "/channels");
    const list = Array.isArray(r) ? r : Array.isArray((r as { data?: unknown })?.data) ? (r as { data: unknown[] }).data : [];
    return list.map((c) => String((c as { id?: unknown }).id ?? "")).filter(Boolean);
  }
}
