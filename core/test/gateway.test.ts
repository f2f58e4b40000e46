/**
 * The HTTP gateway itself (spec §7, §8): unknown routes, the error shape, security headers,
 * the same-origin rule, the front-end configuration loader, the error catalogue and health.
 */
import { startCore, createTenant, createSuper, TestCore, TenantFixture, Auth, Res } from "./helpers";
import { LOCALES } from "../src/errors/catalogue";
import { ERROR_CODES } from "../src/errors/codes";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(r.body.message.length).toBeGreaterThan(0);
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
  expect(r.headers.get("content-type")).toMatch(/^application\/json/);
}

/** A raw request outside the ApiClient (any path, not only under /api). */
async function raw(t: TestCore, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Res> {
  const res = await fetch(t.url + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed as any, headers: res.headers };
}

function expectSecurityHeaders(r: Res) {
  const h = r.headers;
  expect(h.get("x-content-type-options")).toBe("nosniff");
  const csp = h.get("content-security-policy") ?? "";
  const frameOptions = h.get("x-frame-options");
  expect(frameOptions !== null || /frame-ancestors/.test(csp)).toBe(true);
  if (frameOptions !== null) expect(frameOptions.toUpperCase()).toMatch(/^(DENY|SAMEORIGIN)$/);
  // A strict CSP: nothing beyond our own origin, no plugins, no inline or eval'd scripts.
  const directives = Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...values] = d.split(/\s+/);
        return [name!.toLowerCase(), values];
      }),
  ) as Record<string, string[]>;
  // default-src 'none' (a pure API) or 'self'; anything broader is not strict.
  expect([["'none'"], ["'self'"]]).toContainEqual(directives["default-src"]);
  const fallback = (name: string) => directives[name] ?? directives["default-src"]!;
  expect(fallback("object-src")).toEqual(["'none'"]);
  const scripts = fallback("script-src");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).not.toContain("*");
  expect(directives["frame-ancestors"]).toBeDefined();
  expect(directives["frame-ancestors"]).not.toContain("*");
}

describe("gateway (mariadb)", () => {
  let t: TestCore;
  let sup: Auth;
  let f: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect: "mariadb" });
    sup = await createSuper(t);
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("unknown routes", () => {
    it("an unknown path under /api answers 404 ERR_ROUTE_NOT_FOUND", async () => {
      expectError(await t.api.get("/no-such-route"), 404, "ERR_ROUTE_NOT_FOUND");
      expectError(await t.api.get("/no-such-route", f.admin), 404, "ERR_ROUTE_NOT_FOUND");
      expectError(await t.api.post("/users/1/no-such-thing", {}, f.admin), 404, "ERR_ROUTE_NOT_FOUND");
    });

    it("a known path with a wrong method answers 404 ERR_ROUTE_NOT_FOUND", async () => {
      expectError(await t.api.call("DELETE", "/load-config"), 404, "ERR_ROUTE_NOT_FOUND");
      expectError(await t.api.call("PATCH", "/users", {}, f.admin), 404, "ERR_ROUTE_NOT_FOUND");
      expectError(await t.api.post("/health", {}), 404, "ERR_ROUTE_NOT_FOUND");
    });

    it("a path outside /api answers 404 ERR_ROUTE_NOT_FOUND in the same shape", async () => {
      // ("/" is the shell's index.html: core/test/static.test.ts)
      for (const p of ["/no-such-route", "/apix/users", "/api/no/such/thing"]) {
        expectError(await raw(t, "GET", p), 404, "ERR_ROUTE_NOT_FOUND");
      }
    });

    it("internal actions are not reachable by their names", async () => {
      for (const p of ["/list-aliases", "/api/list-aliases", "/api/listAliases", "/tenants.getInternal", "/users.findForLogin", "/~node/health", "/$node/list", "/$node/services"]) {
        expectError(await t.api.get(p, sup), 404, "ERR_ROUTE_NOT_FOUND");
      }
      // A name that falls into a parametrised route is just a bad id there.
      const byId = await t.api.get("/users/createInternal", sup);
      expectError(byId, 400, "ERR_VALIDATION");
      expect(byId.body.data.field).toBe("id");
      expect((await t.api.post("/users.createInternal", { tenantId: f.tenantId, name: "X", email: "x@x.test", password: "Secret123", profile: "admin" }, sup)).status).toBe(404);
    });

    it("errors speak the caller's language", async () => {
      const pt = await t.api.get("/no-such-route", null, { "accept-language": "pt-BR" });
      const en = await t.api.get("/no-such-route", null, { "accept-language": "en-US,en;q=0.9" });
      expectError(en, 404, "ERR_ROUTE_NOT_FOUND");
      expect(en.body.message).not.toBe(pt.body.message);
      expect(en.body.title).not.toBe(pt.body.title);
    });
  });

  describe("security headers", () => {
    it("are present on successful answers", async () => {
      const r = await t.api.get("/load-config");
      expect(r.status).toBe(200);
      expectSecurityHeaders(r);
      expect(r.headers.get("x-powered-by")).toBeNull();
    });

    it("are present on error answers under /api", async () => {
      expectSecurityHeaders(await t.api.get("/no-such-route"));
      expectSecurityHeaders(await t.api.get("/users"));
      expectSecurityHeaders(await t.api.post("/queues", { name: "x" }, f.admin, { origin: "http://evil.example" }));
    });

    it("are present on answers outside /api too", async () => {
      expectSecurityHeaders(await raw(t, "GET", "/no-such-route"));
    });

    it("are present when the body parser refuses the request", async () => {
      const r = await t.api.post("/queues", "{not json", f.admin);
      expectError(r, 400, "ERR_INVALID_JSON");
      expectSecurityHeaders(r);
    });
  });

  describe("same-origin rule", () => {
    async function queueCount(): Promise<number> {
      const r = await t.api.get("/queues", f.admin);
      expect(r.status).toBe(200);
      return r.body.length;
    }
    async function userCount(): Promise<number> {
      const r = await t.api.get("/users", f.admin);
      expect(r.status).toBe(200);
      return r.body.count;
    }

    it("a POST from another origin is refused with 403 ERR_ORIGIN_NOT_ALLOWED and writes nothing", async () => {
      const queues = await queueCount();
      const users = await userCount();
      const evil = { origin: "http://evil.example" };
      expectError(await t.api.post("/queues", { name: "Evil queue", active: false }, f.admin, evil), 403, "ERR_ORIGIN_NOT_ALLOWED");
      const u = await t.api.post("/users", { name: "Evil", email: "evil@evil.example", password: "Secret123", profile: "admin" }, f.admin, evil);
      expectError(u, 403, "ERR_ORIGIN_NOT_ALLOWED");
      // Neither an origin that only looks like ours nor another scheme or port of a foreign host.
      for (const origin of [`http://${new URL(t.url).hostname}.evil.example`, "https://evil.example", "http://evil.example:80", "http://atende.test.evil.example"]) {
        expectError(await t.api.post("/queues", { name: "Evil queue", active: false }, f.admin, { origin }), 403, "ERR_ORIGIN_NOT_ALLOWED");
      }
      // Nor a login, nor a public action.
      expectError(await t.api.post("/auth/login", { email: f.emails.admin, password: "Secret123" }, null, evil), 403, "ERR_ORIGIN_NOT_ALLOWED");
      expect(await queueCount()).toBe(queues);
      expect(await userCount()).toBe(users);
      const names = (await t.api.get("/queues", f.admin)).body.map((q: { name: string }) => q.name);
      expect(names).not.toContain("Evil queue");
    });

    it("the origin rule is applied before the body is read", async () => {
      expectError(await t.api.post("/queues", "{not json", f.admin, { origin: "http://evil.example" }), 403, "ERR_ORIGIN_NOT_ALLOWED");
    });

    it("a POST from the same origin (or the installation's public URL) works", async () => {
      const before = await queueCount();
      const same = await t.api.post("/queues", { name: "Same origin queue", active: false }, f.admin, { origin: t.url });
      expect(same.status).toBe(201);
      expect(same.body.name).toBe("Same origin queue");
      const pub = await t.api.post("/queues", { name: "Public URL queue", active: false }, f.admin, { origin: t.config.publicUrl });
      expect(pub.status).toBe(201);
      const none = await t.api.post("/queues", { name: "No origin queue", active: false }, f.admin);
      expect(none.status).toBe(201);
      expect(await queueCount()).toBe(before + 3);
    });
  });

  describe("GET /api/load-config", () => {
    it("returns the front-end configuration without a token", async () => {
      const r = await t.api.get("/load-config");
      expect(r.status).toBe(200);
      for (const k of ["applicationName", "logoUrl", "recaptchaKey", "pageUrl", "builderUrl", "videoList"]) expect(r.body).toHaveProperty(k);
      expect(typeof r.body.applicationName).toBe("string");
      expect(r.body.applicationName.length).toBeGreaterThan(0);
      expect(Array.isArray(r.body.videoList)).toBe(true);
    });

    it("reflects PUT /settings/global/frontend and /typebot by the master super", async () => {
      const value = {
        name: "Atende Teste",
        logo: "https://cdn.atende.test/logo.png",
        recaptchaKey: "6LeTestKey",
        pageUrl: "https://www.atende.test",
        videoList: [{ title: "Intro", url: "https://videos.atende.test/intro" }],
        loginPosition: "left",
      };
      const put = await t.api.put("/settings/global/frontend", { value }, sup);
      expect(put.status).toBe(200);
      const tb = await t.api.put("/settings/global/typebot", { value: { builderUrl: "https://builder.atende.test", apiToken: "secret-token" } }, sup);
      expect(tb.status).toBe(200);
      expect(tb.body.value.apiToken).toBe("********");
      const r = await t.api.get("/load-config");
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        applicationName: "Atende Teste",
        logoUrl: "https://cdn.atende.test/logo.png",
        recaptchaKey: "6LeTestKey",
        pageUrl: "https://www.atende.test",
        builderUrl: "https://builder.atende.test",
        videoList: value.videoList,
        loginPosition: "left",
      });
      // The public loader never carries the builder's secret.
      expect(JSON.stringify(r.body)).not.toContain("secret-token");
    });

    it("refuses the change from anyone but the master super, and bad values", async () => {
      const before = (await t.api.get("/load-config")).body;
      expectError(await t.api.put("/settings/global/frontend", { value: { name: "Hacked" } }, f.admin), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put("/settings/global/frontend", { value: { name: "Hacked" } }), 401, "ERR_SESSION_REQUIRED");
      const bad = await t.api.put("/settings/global/frontend", { value: { name: "Hacked", loginPosition: "top" } }, sup);
      expectError(bad, 400, "ERR_VALIDATION");
      expect(bad.body.data.field).toBe("loginPosition");
      const unknown = await t.api.put("/settings/global/frontend", { value: { name: "Hacked", script: "<script>" } }, sup);
      expectError(unknown, 400, "ERR_VALIDATION");
      expectError(await t.api.put("/settings/global/nope", { value: {} }, sup), 400, "ERR_VALIDATION");
      expect((await t.api.get("/load-config")).body).toEqual(before);
    });
  });

  describe("GET /api/errors/catalogue", () => {
    it("returns the catalogue in the four locales, without a token", async () => {
      const r = await t.api.get("/errors/catalogue");
      expect(r.status).toBe(200);
      expect([...r.body.locales].sort()).toEqual(["en", "es", "pt-BR", "ru"]);
      expect(r.body.defaultLocale).toBe("pt-BR");
      expect(Object.keys(r.body.errors).sort()).toEqual([...LOCALES].sort());
      for (const locale of LOCALES) {
        // The core's codes, and those the loaded plugins declare in their manifests (ERR_KANBAN_…).
        const core = Object.keys(r.body.errors[locale]).filter((c) => c in ERROR_CODES);
        expect(core.sort()).toEqual(Object.keys(ERROR_CODES).sort());
        expect(r.body.errors[locale].ERR_KANBAN_COLUMN_NOT_EMPTY).toEqual({ title: expect.any(String), detail: expect.any(String) });
        expect(r.body.errors[locale].ERR_ROUTE_NOT_FOUND).toEqual({ title: expect.any(String), detail: expect.any(String) });
      }
      expect(r.body.statuses.ERR_ORIGIN_NOT_ALLOWED).toBe(403);
      expect(r.body.statuses.ERR_PAYLOAD_TOO_LARGE).toBe(413);
      expect(r.body.statuses.ERR_KANBAN_COLUMN_NOT_EMPTY).toBe(409);
    });
  });

  describe("GET /api/health", () => {
    it("answers without a token with the state of the database and Redis", async () => {
      const r = await t.api.get("/health");
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: "ok", database: "ok", redis: "ok" });
      expect(typeof r.body.uptimeSeconds).toBe("number");
    });
  });
});

describe("request timeout", () => {
  let t: TestCore;
  beforeAll(async () => {
    t = await startCore({
      env: { REQUEST_TIMEOUT_MS: "1500" },
      services: [
        {
          name: "slowprobe",
          settings: { rest: "/" },
          actions: {
            slow: { rest: "GET /slow-probe", access: "public", handler: () => new Promise((r) => setTimeout(() => r({ late: true }), 4000)) },
            quick: { rest: "GET /quick-probe", access: "public", handler: () => ({ ok: true }) },
          },
        },
      ],
    });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("answers 504 ERR_REQUEST_TIMEOUT with the error shape when an action outlives the timeout", async () => {
    const t0 = Date.now();
    const r = await t.api.get("/slow-probe");
    const took = Date.now() - t0;
    expect(r.status).toBe(504);
    expect(r.body.error).toBe("ERR_REQUEST_TIMEOUT");
    expect(typeof r.body.message).toBe("string");
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(3500);
    // The gateway keeps serving.
    expect((await t.api.get("/quick-probe")).status).toBe(200);
  });
});
