/**
 * The transport to the Cloud API (or a BSP in front of it, see profile.ts): JSON and multipart
 * calls through the platform's outbound URL policy, Meta's error body read into a GraphError,
 * and the back-off of throttled calls.
 *
 * Only answers that say "not done, slow down" are retried: 130429 (throughput), 131056 (pair
 * rate: one message per ~6 s to one user), 80007 and 4 (account/app rate limits) and HTTP 429.
 * Meta did not take those messages, so sending again cannot send twice. A timeout or a 5xx may
 * have sent it: never retried here (see channel.ts on what the core then does).
 */
import { safeFetch, type OutboundPolicy } from "@openatende/plugin-sdk";
import type { ProviderProfile } from "./profile";

/** Meta's codes for "throttled, try later". */
export const THROTTLE_CODES = new Set([130429, 131056, 80007, 4]);
/** 4^n seconds, as Meta suggests for the pair rate (WHATSAPP.md §2.5). */
export const DEFAULT_RETRY_MS = [1000, 4000, 16_000];

export class GraphError extends Error {
  constructor(
    message: string,
    /** HTTP status (0: no answer). */
    readonly httpStatus: number,
    /** Meta's error code (0 when there was none). */
    readonly code: number,
    /** Meta's short title of the error ("Re-engagement message"). */
    readonly title: string,
    readonly extra: { subcode?: number; details?: string; fbtraceId?: string; type?: string } = {},
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
}

/** Meta's `{error:{message, type, code, error_subcode, error_data:{details}, fbtrace_id}}` as a GraphError. */
export function graphErrorOf(httpStatus: number, body: unknown): GraphError {
  const e = (body && typeof body === "object" ? (body as { error?: Record<string, unknown> }).error : undefined) ?? {};
  const code = Number(e.code) || 0;
  // 360dialog's own endpoints (configs) answer `{meta:{developer_message}}` instead of Meta's error.
  const bsp = (body && typeof body === "object" ? (body as { meta?: { developer_message?: unknown } }).meta?.developer_message : undefined);
  const raw = typeof e.message === "string" ? e.message : typeof bsp === "string" && bsp ? bsp : `HTTP ${httpStatus}`;
  // Meta writes "(#131047) Re-engagement message": the title is what follows the code.
  const title = (typeof e.error_user_title === "string" && e.error_user_title) || raw.replace(/^\(#\d+\)\s*/, "");
  const data = (e.error_data ?? {}) as { details?: unknown };
  return new GraphError(`${code ? `(#${code}) ` : ""}${title}`, httpStatus, code, title, {
    subcode: Number(e.error_subcode) || undefined,
    details: typeof data.details === "string" ? data.details : undefined,
    fbtraceId: typeof e.fbtrace_id === "string" ? e.fbtrace_id : undefined,
    type: typeof e.type === "string" ? e.type : undefined,
  });
}

export interface GraphOptions {
  policy: OutboundPolicy;
  timeoutMs?: number;
  /** Waits before each retry of a throttled call; its length is the number of retries. */
  retryMs?: number[];
  sleep?: (ms: number) => Promise<void>;
}

export interface FilePart {
  data: Buffer;
  mimeType: string;
  fileName: string;
}

const sleeper = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export class GraphClient {
  constructor(
    readonly profile: ProviderProfile,
    private readonly opts: GraphOptions,
  ) {}

  /** A JSON call, retried while throttled. */
  async call<T = Record<string, unknown>>(method: "GET" | "POST" | "DELETE", path: string, json?: unknown): Promise<T> {
    return this.throttled(() => this.once<T>(this.profile.baseUrl + path, { method, ...(json === undefined ? {} : { json }) }));
  }

  /** Uploads a file (multipart: file, type, messaging_product); answers Meta's media id. */
  async upload(file: FilePart): Promise<string> {
    const boundary = `----openatende${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
    const field = (name: string, value: string) => Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const safeName = file.fileName.replace(/["\r\n]/g, "_");
    const body = Buffer.concat([
      field("messaging_product", "whatsapp"),
      field("type", file.mimeType),
      Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${safeName}"\r\ncontent-type: ${file.mimeType}\r\n\r\n`),
      file.data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await this.throttled(() =>
      this.once<{ id?: string }>(this.profile.baseUrl + this.profile.mediaUploadPath, { method: "POST", raw: body, contentType: `multipart/form-data; boundary=${boundary}` }, 120_000),
    );
    if (typeof res.id !== "string" || !res.id) throw new GraphError("the upload answered no media id", 502, 0, "No media id");
    return res.id;
  }

  /**
   * Raw bytes POSTed to `path` with `headers` over the profile's (the Resumable Upload API's
   * second step, whose credentials Meta takes as `OAuth <token>`); answers the JSON.
   */
  async postBytes<T = Record<string, unknown>>(path: string, data: Buffer, headers: Record<string, string>): Promise<T> {
    return this.throttled(() => this.once<T>(this.profile.baseUrl + path, { method: "POST", raw: data, contentType: "application/octet-stream", headers }, 120_000));
  }

  /** The bytes of a received file: its short-lived URL looked up, fetched with the same credentials; looked up once more when it expired. */
  async download(mediaId: string, maxBytes: number): Promise<{ data: Buffer; mimeType: string; sha256?: string }> {
    for (let attempt = 0; ; attempt++) {
      const info = await this.call<{ url?: string; mime_type?: string; sha256?: string; file_size?: number }>("GET", this.profile.mediaInfoPath(mediaId));
      if (typeof info.url !== "string") throw new GraphError(`media ${mediaId} has no URL`, 502, 0, "No media URL");
      if (Number(info.file_size) > maxBytes) throw new GraphError(`media ${mediaId} is larger than ${maxBytes} bytes`, 413, 0, "File too large");
      const res = await this.fetch(this.profile.downloadUrl(info.url), { method: "GET", headers: { ...this.profile.headers } }, 120_000);
      // The URL lives 5 minutes: an expired one answers 401/403/404, and a new lookup gives a fresh one.
      if ((res.status === 401 || res.status === 403 || res.status === 404) && attempt === 0) continue;
      if (!res.ok) throw new GraphError(`media ${mediaId} could not be downloaded (HTTP ${res.status})`, res.status, 0, "Media download failed");
      const data = Buffer.from(await res.arrayBuffer());
      if (data.length > maxBytes) throw new GraphError(`media ${mediaId} is larger than ${maxBytes} bytes`, 413, 0, "File too large");
      return { data, mimeType: info.mime_type || res.headers.get("content-type") || "application/octet-stream", sha256: info.sha256 };
    }
  }

  private async throttled<T>(fn: () => Promise<T>): Promise<T> {
    const delays = this.opts.retryMs ?? DEFAULT_RETRY_MS;
    for (let i = 0; ; i++) {
      try {
        return await fn();
      } catch (err) {
        if (!(err instanceof GraphError) || !err.throttled || i >= delays.length) throw err;
        await (this.opts.sleep ?? sleeper)(delays[i]);
      }
    }
  }

  private async once<T>(url: string, req: { method: string; json?: unknown; raw?: Buffer; contentType?: string; headers?: Record<string, string> }, timeoutMs?: number): Promise<T> {
    const headers: Record<string, string> = { ...this.profile.headers, accept: "application/json", ...req.headers };
    let body: string | Uint8Array | undefined;
    if (req.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(req.json);
    } else if (req.raw) {
      headers["content-type"] = req.contentType ?? "application/octet-stream";
      body = req.raw;
    }
    const res = await this.fetch(url, { method: req.method, headers, body }, timeoutMs);
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

  private async fetch(url: string, init: { method: string; headers: Record<string, string>; body?: string | Uint8Array }, timeoutMs?: number): Promise<Response> {
    try {
      return await safeFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs ?? this.opts.timeoutMs ?? 30_000), redirect: "follow" }, this.opts.policy);
    } catch (err) {
      throw new GraphError(`the API could not be reached: ${(err as Error).message}`, 0, 0, "Unreachable");
    }
  }
}
