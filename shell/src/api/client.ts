import type { UiApi, UiApiError, UiRequestOptions } from "@openatende/plugin-sdk/ui";
import type { SessionStore } from "../stores/session";
import type { UiStore } from "../stores/ui";
import { CONTACT_LIMIT_BANNER_MS, LOGIN_REDIRECT_MS, REQUEST_TIMEOUT_MS } from "../ui/constants";

/** An error answered by the API (or the network), with the catalogue code and translated texts. */
export class ApiError extends Error implements UiApiError {
  constructor(
    public status: number,
    public code: string,
    public title: string,
    public detail: string,
    public data: Record<string, unknown> = {},
  ) {
    super(`${code}: ${detail || title}`);
    this.name = "ApiError";
  }
}

export interface ApiClientDeps {
  session: SessionStore;
  ui: UiStore;
  /** Translation of the shell's own texts (fallback notices). */
  t: (key: string, vars?: Record<string, unknown>) => string;
  /** Goes to a hash route. */
  navigate: (path: string) => void;
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

interface ErrorBody {
  error?: string;
  msg?: string;
  message?: string;
  title?: string;
  data?: Record<string, unknown>;
}

const LOGOUT_PATH = "/auth/logout";
const REFRESH_PATH = "/auth/refresh_token";

function queryString(query: UiRequestOptions["query"]): string {
  if (!query) return "";
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v)) {
      if (v.length) q.set(k, JSON.stringify(v));
    } else q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * The one client of the API (spec §7/§8): 120 s timeout; bearer token + session id + locale
 * headers; on 403 with an expired token one refresh and one retry; on 401 the storage is
 * cleared and the app goes to /login after 2 s (not for logout itself); errors shown as the
 * catalogue's translated title + detail, "Não identificado" when the answer carries no code;
 * the contact-limit 410 as a 10-second banner; a timeout shows nothing.
 */
export class ApiClient implements UiApi {
  private refreshing: Promise<boolean> | null = null;
  private redirecting = false;
  private readonly base: string;
  private readonly doFetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private deps: ApiClientDeps) {
    this.base = (deps.baseUrl ?? "/api").replace(/\/$/, "");
    this.doFetch = deps.fetch ?? ((...a) => fetch(...a));
    this.timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;
  }

  get<T = unknown>(path: string, opts?: UiRequestOptions) {
    return this.request<T>("GET", path, undefined, opts);
  }
  post<T = unknown>(path: string, body?: unknown, opts?: UiRequestOptions) {
    return this.request<T>("POST", path, body, opts);
  }
  put<T = unknown>(path: string, body?: unknown, opts?: UiRequestOptions) {
    return this.request<T>("PUT", path, body, opts);
  }
  patch<T = unknown>(path: string, body?: unknown, opts?: UiRequestOptions) {
    return this.request<T>("PATCH", path, body, opts);
  }
  delete<T = unknown>(path: string, opts?: UiRequestOptions) {
    return this.request<T>("DELETE", path, undefined, opts);
  }

  async request<T>(method: string, path: string, body?: unknown, opts: UiRequestOptions = {}): Promise<T> {
    const { ui } = this.deps;
    ui.requestStarted();
    try {
      let res = await this.send(method, path, body, opts);
      if (res.status === 403 && path !== REFRESH_PATH) {
        const err = await this.errorOf(res);
        if (err.code !== "ERR_TOKEN_EXPIRED") return this.fail(err, path, opts);
        if (await this.refresh()) res = await this.send(method, path, body, opts);
        else {
          const { t } = this.deps;
          return this.fail(new ApiError(401, "ERR_SESSION_EXPIRED", t("errors.sessionExpired.title"), t("errors.sessionExpired.detail")), path, opts);
        }
      }
      if (!res.ok) return this.fail(await this.errorOf(res), path, opts);
      if (opts.successNotice) ui.notify({ kind: "success", title: typeof opts.successNotice === "string" ? opts.successNotice : this.deps.t("common.success") });
      if (res.status === 204) return undefined as T;
      const type = res.headers.get("content-type") ?? "";
      return (type.includes("application/json") ? await res.json() : await res.text()) as T;
    } finally {
      ui.requestEnded();
    }
  }

  /** multipart/form-data upload (media, CSV import); same rules as request(). */
  async upload<T>(path: string, form: FormData, opts: UiRequestOptions = {}): Promise<T> {
    return this.request<T>("POST", path, form, opts);
  }

  private async send(method: string, path: string, body: unknown, opts: UiRequestOptions): Promise<Response> {
    const { session } = this.deps;
    const headers: Record<string, string> = { Accept: "application/json", "X-Locale": session.locale };
    if (session.token) headers.Authorization = `Bearer ${session.token}`;
    if (session.sessionId) headers["X-Session-Id"] = session.sessionId;
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const ctrl = new AbortController();
    const timer = setTimeout(() => ctrl.abort(new DOMException("timeout", "TimeoutError")), this.timeoutMs);
    const onAbort = () => ctrl.abort(opts.signal?.reason);
    opts.signal?.addEventListener("abort", onAbort);
    try {
      return await this.doFetch(`${this.base}${path}${queryString(opts.query)}`, { method, headers, body: payload, signal: ctrl.signal });
    } catch (e) {
      const timedOut = ctrl.signal.aborted && !opts.signal?.aborted;
      if (timedOut) throw new ApiError(0, "ERR_REQUEST_TIMEOUT", "", "");
      if (opts.signal?.aborted) throw e;
      const err = new ApiError(0, "ERR_NETWORK", this.deps.t("errors.network.title"), this.deps.t("errors.network.detail"));
      if (!opts.silent) this.deps.ui.notify({ kind: "error", title: err.title, detail: err.detail });
      throw err;
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
    }
  }

  private async errorOf(res: Response): Promise<ApiError> {
    let b: ErrorBody = {};
    try {
      b = (await res.json()) as ErrorBody;
    } catch {
      /* not JSON */
    }
    const code = b.error ?? b.msg;
    if (code && /^[A-Z0-9_]+$/.test(code) && b.title) return new ApiError(res.status, code, b.title, b.message ?? "", b.data ?? {});
    // Spec §8: no known code → generic message with the raw error as detail, or "Não identificado".
    const raw = b.message ?? b.msg ?? b.error ?? "";
    return new ApiError(res.status, code ?? "ERR_UNIDENTIFIED", this.deps.t("errors.generic.title"), raw || this.deps.t("errors.unidentified"), b.data ?? {});
  }

  private fail(err: ApiError, path: string, opts: UiRequestOptions): never {
    const { ui, session } = this.deps;
    if (err.status === 401) {
      if (path !== LOGOUT_PATH) {
        const wasLoggedIn = session.loggedIn;
        session.clear();
        if (!opts.silent || wasLoggedIn) ui.notify({ kind: "error", title: err.title, detail: err.detail });
        if (wasLoggedIn && !this.redirecting) {
          this.redirecting = true;
          setTimeout(() => {
            this.redirecting = false;
            this.deps.navigate("/login");
          }, LOGIN_REDIRECT_MS);
        }
      }
      throw err;
    }
    if (err.status === 410 && err.code === "ERR_CONTACT_LIMIT") {
      ui.notify({ kind: "warning", title: err.title, detail: err.detail, banner: true, durationMs: CONTACT_LIMIT_BANNER_MS });
      throw err;
    }
    if (err.code === "ERR_REQUEST_TIMEOUT") throw err;
    if (!opts.silent) ui.notify({ kind: "error", title: err.title, detail: err.detail });
    throw err;
  }

  /** One refresh for all the calls that found the token expired at the same time. */
  private refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = (async () => {
        const { session } = this.deps;
        if (session.userId === null) return false;
        try {
          const res = await this.send("POST", REFRESH_PATH, { userId: session.userId, ...(session.refreshToken ? { refreshToken: session.refreshToken } : {}) }, {});
          if (!res.ok) return false;
          const body = (await res.json()) as { token: string };
          session.setToken(body.token);
          return true;
        } catch {
          return false;
        }
      })().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }
}
