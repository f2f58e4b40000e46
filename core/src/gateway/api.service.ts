import type { IncomingMessage, ServerResponse } from "node:http";
import ApiGateway from "moleculer-web";
import bodyParser from "body-parser";
import type { ServiceSchema } from "moleculer";
import { call, defineService } from "../bus/call";
import type { CoreDeps } from "../deps";
import { pluginOfAction } from "./plugin-routes";
import { rateLimitAction } from "./rate-limit-action";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import { resolveLocale, Locale } from "../errors/catalogue";
import { toHttpError } from "./errors";
import { verifyAccessToken } from "../auth/tokens";
import { readSessionState } from "../auth/session-store";
import type { Access, AuthUser, Meta } from "../types";
import { hasAccess } from "../middlewares/access.middleware";
import { pluginRemotePath, sendShellFile, sendStatic } from "./static";
import type { GatewayMethods, GatewayService, GatewaySettings, GatewayVars, Req } from "./types";

export const SESSION_HEADER = "x-session-id";
export const MAX_BODY = "50mb";

function localeOf(req: IncomingMessage): Locale {
  const explicit = req.headers["x-locale"];
  return resolveLocale((Array.isArray(explicit) ? explicit[0] : explicit) || req.headers["accept-language"] || null);
}

function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const fwd = req.headers["x-forwarded-for"];
    const first = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(",")[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? "?";
}

/** moleculer-web's warning for an answer without `ctx.meta.$location` (its own words, for 201 only). */
const NO_LOCATION_201 = "The 'ctx.meta.$location' is missing for status code '201'";

/**
 * moleculer-web warns on every 201 that sets no Location header. Our 201 answers carry the
 * created row (with its id) in the body, which is what every client reads, and RFC 9110
 * §15.3.2 lets a 201 go without Location; the warning said nothing an operator could act on
 * and was most of a busy node's log (1,466 lines in a short run). Only that line is dropped:
 * a 3xx without a Location still warns.
 */
export function quietCreated(logger: { warn: (...args: unknown[]) => void }) {
  const warn = logger.warn.bind(logger);
  logger.warn = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].startsWith(NO_LOCATION_201)) return;
    warn(...args);
  };
}

/**
 * The HTTP API (moleculer-web) under /api. Routes come from the `rest` of each service's
 * actions (auto aliases), so a route is declared beside its handler. This service owns
 * authentication (bearer token + session id), the error shape, body limits, security
 * headers and the same-origin rule.
 */
export function createApiService(deps: CoreDeps): ServiceSchema {
  const cfg = deps.config;

  /**
   * Security headers of a JSON API, computed once: nothing here is rendered as a document,
   * so the page-level set (CSP for scripts, DNS prefetch, …) belongs to the shell's static
   * files, not to every API answer.
   */
  const API_HEADERS: Array<[string, string]> = [
    ["X-Content-Type-Options", "nosniff"],
    ["X-Frame-Options", "DENY"],
    ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
    ["Referrer-Policy", "no-referrer"],
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Cache-Control", "no-store"],
    ...(cfg.publicUrl.startsWith("https:") ? ([["Strict-Transport-Security", "max-age=31536000; includeSubDomains"]] as Array<[string, string]>) : []),
  ];

  function sendError(this: GatewayService, req: Req, res: ServerResponse, err: unknown) {
    const locale = req.$ctx?.meta.locale ?? localeOf(req);
    const { status, body, internal } = toHttpError(err, locale);
    if (internal) this.logger.error(`${req.method} ${req.originalUrl ?? req.url} failed:`, err);
    if (res.headersSent) return res.end();
    for (const [k, v] of API_HEADERS) if (!res.hasHeader(k)) res.setHeader(k, v);
    const retryAfter = (body.data as { retryAfter?: number }).retryAfter;
    if (retryAfter) res.setHeader("Retry-After", String(retryAfter));
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.writeHead(status);
    res.end(JSON.stringify(body));
  }


  function setPublicCors(res: ServerResponse) {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
  }

  /** Whether the route at url/method is an action declared `cors: "public"` (and anonymous). */
  function isPublicCors(svc: GatewayService, url: string, method: string): boolean {
    const found = svc.resolveAlias(url, method);
    if (!found || !found.alias.action) return false;
    const list = svc.broker.registry.getActionEndpoints(found.alias.action) as { endpoints?: Array<{ action: { cors?: string; access?: string } }> } | undefined;
    const action = list?.endpoints?.[0]?.action;
    return action?.cors === "public" && action.access === "public";
  }

  /** Same origin by default: a browser request from another origin is refused unless listed. */
  function originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (!origin || origin === "null") return true;
    let sameHost = false;
    try {
      sameHost = new URL(origin).host === req.headers.host;
    } catch {
      sameHost = false;
    }
    return sameHost || cfg.corsOrigins.includes(origin) || origin === cfg.publicUrl;
  }

  const jsonBody = bodyParser.json({ strict: true, limit: MAX_BODY });
  /** How much of a refused body is read and thrown away before the connection is cut. */
  const DRAIN_MAX = 100 * 1024 * 1024;
  const formBody = bodyParser.urlencoded({ extended: true, limit: MAX_BODY });
  /**
   * The four request steps in one route middleware: moleculer-web chains route middlewares
   * through promises, one hop each, and this path runs on every call.
   */
  function requestPipeline(this: GatewayService, req: IncomingMessage & { parsedUrl?: string }, res: ServerResponse, done: (err?: unknown) => void) {
    for (let i = 0; i < API_HEADERS.length; i++) res.setHeader(API_HEADERS[i][0], API_HEADERS[i][1]);
    if (req.headers.origin !== undefined && !originAllowed(req)) {
      // Another site may call only actions that declare `cors: "public"` (anonymous, no
      // credentials: a web-chat widget embedded on a customer's site).
      const method = req.method === "OPTIONS" ? String(req.headers["access-control-request-method"] ?? "") : req.method;
      if (!isPublicCors(this, req.parsedUrl ?? req.url ?? "", method ?? "GET")) {
        return done(new AppError("ERR_ORIGIN_NOT_ALLOWED", { origin: req.headers.origin }));
      }
      setPublicCors(res);
      if (req.method === "OPTIONS") {
        res.setHeader("Access-Control-Allow-Methods", "GET, POST");
        res.setHeader("Access-Control-Allow-Headers", "Content-Type");
        res.setHeader("Access-Control-Max-Age", "600");
        res.writeHead(204);
        return res.end();
      }
    }
    if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) return done();
    // A stream route takes the body as it came, unread: its action gets it as ctx.stream (a
    // webhook whose signature covers the exact bytes; a body too large for one packet).
    if ((req as { $streamBody?: boolean }).$streamBody) return done();
    const parsed = (err?: unknown) => {
      if (err && (err as { type?: string }).type === "entity.too.large") drainRefused(req, res, () => done(err));
      else done(err);
    };
    jsonBody(req, res, (err?: unknown) => (err ? parsed(err) : formBody(req, res, parsed)));
  }

  /**
   * A body refused for its size (the parser stops reading at once when Content-Length says
   * too much) is read to its end and thrown away, up to a cap, and only then answered: a 413
   * sent while the client is still uploading, on a connection the server then closes, reaches
   * the client as a reset mid-upload rather than as the answer. Past the cap the connection
   * is cut.
   */
  function drainRefused(req: IncomingMessage, res: ServerResponse, answer: () => void) {
    // Never reused: a client that stops uploading once it has the answer leaves the rest of
    // this body where its next request would start.
    res.setHeader("Connection", "close");
    let seen = 0;
    let answered = false;
    const once = () => {
      if (answered) return;
      answered = true;
      answer();
    };
    if (req.readableEnded || req.complete) return once();
    req.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX) req.destroy();
    });
    req.once("end", once);
    req.once("close", once);
    req.resume();
  }

  return defineService<GatewayMethods & GatewayVars, GatewaySettings>({
    name: "api",
    mixins: [ApiGateway as unknown as Partial<ServiceSchema>],
    settings: <GatewaySettings>{
      port: cfg.port,
      ip: cfg.host,
      path: "/api",
      requestTimeout: cfg.requestTimeoutMs,
      httpServerTimeout: cfg.requestTimeoutMs,
      use: [],
      cors: cfg.corsOrigins.length
        ? {
            origin: cfg.corsOrigins,
            methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
            allowedHeaders: ["Authorization", "Content-Type", "X-Session-Id", "X-Locale", "Accept-Language"],
            credentials: true,
            maxAge: 3600,
          }
        : undefined,
      log4XXResponses: false,
      logRequest: null,
      logResponse: null,
      routes: [
        {
          path: "/",
          autoAliases: true,
          mappingPolicy: "restrict",
          logging: false,
          authentication: true,
          authorization: true,
          blacklist: [/^api\./, /^\$node\./],
          // Headers and the origin rule come before the body is read: a foreign origin's
          // 50 MB never gets parsed, and every refusal carries the security headers.
          bodyParsers: false,
          use: [requestPipeline],
          // The request deadline is the socket timeout (see started); calls to other nodes are bounded by CoarseTimeout.
          callOptions: { timeout: 0 },
          onBeforeCall(ctx: { meta: Meta & Record<string, unknown> }, _route: unknown, req: Req, res: ServerResponse) {
            ctx.meta.$api = true;
            // Public widget routes can be loaded by other sites (a <script> sends no Origin).
            if ((req.$action as { cors?: string } | undefined)?.cors === "public" && req.$action?.access === "public") setPublicCors(res);
            ctx.meta.locale = localeOf(req);
            ctx.meta.ip = clientIp(req, cfg.trustProxy);
            const ua = req.headers["user-agent"];
            ctx.meta.userAgent = typeof ua === "string" ? ua : undefined;
            const auth = req.headers.authorization;
            ctx.meta.rawToken = auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined;
            const sid = req.headers[SESSION_HEADER];
            ctx.meta.sessionHeader = typeof sid === "string" ? sid : undefined;
            // Headers an action declared it needs (a webhook's signature), and only those.
            const wanted = (req.$action as { headers?: unknown } | undefined)?.headers;
            if (Array.isArray(wanted) && wanted.length) {
              const picked: Record<string, string> = {};
              for (const name of wanted) {
                const v = typeof name === "string" ? req.headers[name.toLowerCase()] : undefined;
                if (typeof v === "string") picked[name.toLowerCase()] = v;
              }
              ctx.meta.headers = picked;
            }
          },
          onError(this: GatewayService, req: Req, res: ServerResponse, err: unknown) {
            sendError.call(this, req, res, err);
          },
        },
      ],
      onError(this: GatewayService, req: Req, res: ServerResponse, err: unknown) {
        sendError.call(this, req, res, err);
      },
    },
    /**
     * The 120 s request timeout rides on the socket's own inactivity timer (armed by
     * httpServerTimeout): a request that got no answer in that time is answered 504 with
     * the API's error shape, then its connection closes. No timer per request.
     */
    /**
     * What no API route matched: a plugin's UI remote file (`/api/plugins/<id>/remote/…`,
     * from the plugin's UI build) or a file of the built shell (`/` is index.html).
     * Anything else under /api is the API's 404.
     */
    actions: {
      rateLimit: rateLimitAction(deps),
    },
    events: {
      // A plugin installed, upgraded, rolled back or removed: its UI folder moved.
      "plugins.installs.changed": {
        group: `api-plugins-${process.pid}-${Math.random().toString(36).slice(2, 10)}`,
        handler() {
          this.uiDirs?.clear();
        },
      },
    },
    created() {
      quietCreated(this.logger);
      const uiDirs = new Map<string, { dir: string | null; at: number }>();
      this.uiDirs = uiDirs;
      const uiDirOf = async (id: string): Promise<string | null> => {
        const hit = uiDirs.get(id);
        if (hit && Date.now() - hit.at < 10_000) return hit.dir;
        let dir: string | null = null;
        try {
          dir = await call(this.broker, "plugins.uiDir", { id });
        } catch {
          dir = null;
        }
        uiDirs.set(id, { dir, at: Date.now() });
        return dir;
      };
      this.serve = (req: Req, res: ServerResponse, next: (err?: unknown) => void) => {
        if (req.method !== "GET" && req.method !== "HEAD") return next();
        let urlPath: string;
        try {
          urlPath = decodeURIComponent(new URL(req.originalUrl ?? req.url ?? "/", "http://local").pathname);
        } catch {
          return next();
        }
        const remote = pluginRemotePath(urlPath);
        if (remote) {
          uiDirOf(remote.id).then(
            (dir) => {
              if (!dir || !sendStatic(req, res, dir, remote.file, [["X-Content-Type-Options", "nosniff"], ["Cross-Origin-Resource-Policy", "same-origin"]])) next();
            },
            () => next(),
          );
          return;
        }
        if (urlPath === "/api" || urlPath.startsWith("/api/")) return next();
        if (!sendShellFile(req, res, cfg.shellDir, urlPath)) next();
      };
    },
    started() {
      this.server?.on("timeout", (socket: import("node:net").Socket & { _httpMessage?: ServerResponse & { req?: Req } }) => {
        const res = socket._httpMessage;
        if (res && !res.headersSent && res.req) {
          sendError.call(this, res.req, res, new AppError("ERR_REQUEST_TIMEOUT"));
          res.once("finish", () => socket.destroy());
          setTimeout(() => socket.destroy(), 1000).unref();
        } else socket.destroy();
      });
    },
    methods: {
      /**
       * moleculer-web finds a request's route before running the route's middlewares, but tells
       * them nothing of it: the body step must know whether the route is a stream alias
       * (`rest: { method, path, type: "stream" }`), whose body it must leave unread.
       */
      routeHandler(ctx: unknown, route: unknown, req: Req & { $streamBody?: boolean }, res: ServerResponse, found?: { alias?: { type?: string } }) {
        if (found?.alias?.type === "stream") req.$streamBody = true;
        return (ApiGateway as unknown as { methods: Record<string, (...a: unknown[]) => unknown> }).methods.routeHandler.call(this, ctx, route, req, res, found);
      },
      /**
       * Every call carries `Authorization: Bearer <token>` and `X-Session-Id`. Public actions
       * accept anonymous calls; when credentials are sent to a protected action they must be
       * valid: an expired access token answers 403 (the client refreshes once and retries),
       * an ended session 401 with the reason's code.
       */
      async authenticate(ctx: { meta: Meta & { rawToken?: string; sessionHeader?: string } }, _route: unknown, req: Req): Promise<AuthUser | null> {
        const access = req.$action?.access ?? "user";
        const token = ctx.meta.rawToken;
        if (access === "public") return null;
        if (!token) throw new AppError("ERR_SESSION_REQUIRED");
        const v = verifyAccessToken(token, cfg.jwtSecret);
        if (!v.ok) throw new AppError(v.reason === "expired" ? "ERR_TOKEN_EXPIRED" : "ERR_TOKEN_INVALID");
        const c = v.claims;
        const sid = ctx.meta.sessionHeader;
        if (!sid) throw new AppError("ERR_SESSION_REQUIRED");
        if (sid !== c.sid) throw new AppError("ERR_TOKEN_INVALID", { reason: "session-mismatch" });
        const state = await this.sessionState(ctx, sid);
        if (!state.active) throw new AppError(state.code ?? "ERR_SESSION_EXPIRED");
        return { id: c.sub, tenantId: c.tid, profile: c.prf, isMaster: c.mst, isSupport: c.sup, sessionId: c.sid };
      },
      /**
       * Access before validation: a caller without the right profile learns nothing about the
       * params. A plugin's route ("v<major>.<id>.…") is also the tenant's plugin: refused here,
       * in the core, when the plugin is not available to the caller's tenant (not allowed,
       * switched off, or below its tier: ERR_LICENSE_TIER_REQUIRED naming it), whatever the
       * plugin's own node checks.
       */
      async authorize(ctx: { meta: Meta }, _route: unknown, req: Req) {
        const access = (req.$action?.access ?? "user") as Access;
        if (!hasAccess(access, ctx.meta)) throw new AppError("ERR_NO_PERMISSION", { required: access });
        const plugin = pluginOfAction(req.$action?.name);
        const user = ctx.meta.user;
        if (!plugin) return;
        if (user) await call(this.broker, "plugins.availability", { tenantId: user.tenantId, id: plugin.id, major: plugin.major, assert: true });
        // The user's credentials stay in the core: a plugin gets who is calling (meta.user), never their token.
        const meta = ctx.meta as Meta & { rawToken?: string; sessionHeader?: string };
        delete meta.rawToken;
        delete meta.sessionHeader;
      },
      /** Redis first (one round trip, shared by every gateway node), the auth service when the key is missing. */
      async sessionState(_ctx: unknown, sid: string): Promise<{ active: boolean; code?: ErrorCode }> {
        try {
          const s = await readSessionState(deps.redis(), sid);
          if (s) return s;
        } catch (err) {
          this.logger.warn(`session store unavailable, asking the auth service: ${(err as Error).message}`);
        }
        const state = await call(this.broker, "auth.sessionState", { sessionId: sid });
        return state as { active: boolean; code?: ErrorCode };
      },
    },
  });
}
