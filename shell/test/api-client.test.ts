/**
 * The shell's API client against a real core (MariaDB, Redis): headers, the token refresh on
 * an expired token, 401 handling, translated errors; and against small local HTTP servers for
 * what the core does not produce on demand (an unidentified error, a timeout, the 410 banner).
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { ApiClient, ApiError } from "../src/api/client";
import { SessionStore, type LoginResponse } from "../src/stores/session";
import { UiStore } from "../src/stores/ui";
import { SettingsStore } from "../src/stores/settings";
import { createI18n, translate } from "../src/i18n";
import ptBR from "../src/i18n/locales/pt-BR";
import en from "../src/i18n/locales/en";
import { startCore, createTenant, signAccessToken, TestCore, TenantFixture, PASSWORD } from "@openatende/core/testkit";
import { MemoryStorage } from "./memory-storage";

function client(base: string, opts: { locale?: "pt-BR" | "en"; timeoutMs?: number; fetch?: typeof fetch } = {}) {
  const storage = new MemoryStorage();
  const session = new SessionStore(storage, opts.locale ?? "pt-BR");
  const ui = new UiStore();
  // The shell fetches a language's texts as a chunk; here they are imported.
  const i18n = createI18n(session.locale, { "pt-BR": ptBR, en }[session.locale as "pt-BR" | "en"]);
  const navigations: string[] = [];
  const api = new ApiClient({
    session,
    ui,
    t: (k, v) => translate(i18n, k, v),
    navigate: (p) => navigations.push(p),
    baseUrl: `${base}/api`,
    timeoutMs: opts.timeoutMs,
    fetch: opts.fetch,
  });
  return { api, session, ui, storage, navigations };
}

async function localServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe("shell API client against the core", () => {
  let t: TestCore;
  let f: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function signedIn(email: string, opts: Parameters<typeof client>[1] = {}) {
    const c = client(t.url, opts);
    const r = await c.api.post<LoginResponse>("/auth/login", { email, password: PASSWORD });
    c.session.signIn(r);
    return { ...c, login: r };
  }

  it("logs in, stores the spec's session keys, and sends bearer + session id on later calls", async () => {
    const c = await signedIn(f.emails.agent);
    for (const k of ["token", "sessionId", "userId", "profile", "tenantId", "isMaster", "username", "usuario", "queues", "tenant"]) {
      expect(c.storage.getItem(k)).not.toBeNull();
    }
    expect(JSON.parse(c.storage.getItem("usuario")!).email).toBe(f.emails.agent);
    const me = await c.api.get<{ userId: number; sessionId: string }>("/auth/me");
    expect(me).toMatchObject({ userId: c.login.userId, sessionId: c.login.sessionId });
  });

  it("refreshes an expired token once for calls made together, and retries them", async () => {
    const calls: string[] = [];
    const counting: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    const c = await signedIn(f.emails.supervisor, { fetch: counting });
    const expired = signAccessToken(
      { sub: c.login.userId, tid: c.login.tenantId, sid: c.login.sessionId, prf: c.login.profile as any, mst: false, sup: false },
      t.config.jwtSecret,
      -30,
    );
    c.session.setToken(expired);
    calls.length = 0;
    const [a, b] = await Promise.all([c.api.get<{ userId: number }>("/auth/me"), c.api.get<unknown[]>("/queues")]);
    expect(a.userId).toBe(c.login.userId);
    expect(Array.isArray(b)).toBe(true);
    expect(calls.filter((u) => u.endsWith("/auth/refresh_token"))).toHaveLength(1);
    expect(c.session.token).not.toBe(expired);
    expect(c.storage.getItem("token")).toBe(c.session.token);
    expect(c.ui.history).toEqual([]);
  });

  it("on 401 clears the stored session, shows the reason and goes to /login after 2 s", async () => {
    const c = await signedIn(f.emails.admin, { locale: "en" });
    // Logging in elsewhere ends this session.
    await t.api.login(f.emails.admin);
    const t0 = Date.now();
    const err = (await c.api.get("/auth/me").catch((e) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(401);
    expect(err.code).toBe("ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE");
    expect(c.storage.getItem("token")).toBeNull();
    expect(c.session.loggedIn).toBe(false);
    expect(c.ui.history.at(-1)).toMatchObject({ kind: "error", title: err.title });
    expect(err.title).toMatch(/[a-z]/i);
    expect(c.navigations).toEqual([]);
    while (!c.navigations.length && Date.now() - t0 < 4000) await new Promise((r) => setTimeout(r, 50));
    expect(c.navigations).toEqual(["/login"]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
  });

  it("a 401 on logout neither shows a notice nor redirects", async () => {
    const c = await signedIn(f.emails.agent);
    await t.api.login(f.emails.agent);
    await expect(c.api.post("/auth/logout", {}, { silent: true })).rejects.toMatchObject({ status: 401 });
    await new Promise((r) => setTimeout(r, 2200));
    expect(c.navigations).toEqual([]);
    expect(c.ui.history).toEqual([]);
  });

  it("shows the catalogue's title and detail in the user's language", async () => {
    const pt = client(t.url, { locale: "pt-BR" });
    const en = client(t.url, { locale: "en" });
    const a = (await pt.api.post("/auth/login", { email: f.emails.agent, password: "wrong-password" }).catch((e) => e)) as ApiError;
    const b = (await en.api.post("/auth/login", { email: f.emails.agent, password: "wrong-password" }).catch((e) => e)) as ApiError;
    expect(a.code).toBe("ERR_INVALID_CREDENTIALS");
    expect(b.code).toBe("ERR_INVALID_CREDENTIALS");
    expect(a.title).not.toBe(b.title);
    expect(pt.ui.history).toEqual([{ kind: "error", title: a.title, detail: a.detail, banner: undefined }]);
    expect(en.ui.history[0].title).toBe(b.title);
    // silent: the caller shows it
    const c = client(t.url);
    await c.api.post("/auth/login", { email: f.emails.agent, password: "x" }, { silent: true }).catch(() => undefined);
    expect(c.ui.history).toEqual([]);
  });

  it("a success notice when asked", async () => {
    const c = await signedIn(f.emails.admin);
    await c.api.post("/tags", { name: `VIP ${Date.now()}`, color: "#ff0000" }, { successNotice: true });
    expect(c.ui.history.at(-1)).toMatchObject({ kind: "success", title: "Tudo certo..." });
  });
});

describe("settings store against the core", () => {
  let t: TestCore;
  let f: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("loads the tenant's settings once, saves as admin, and an agent's save is refused without changing them", async () => {
    const admin = client(t.url);
    admin.session.signIn(await admin.api.post<LoginResponse>("/auth/login", { email: f.emails.admin, password: PASSWORD }));
    const store = new SettingsStore(admin.api);
    await Promise.all([store.load(), store.load()]);
    expect(store.loaded).toBe(true);
    expect(store.flag("hideContactInfo")).toBe(false);
    await store.save("hideContactInfo", true);
    expect(store.flag("hideContactInfo")).toBe(true);
    expect(admin.ui.history.at(-1)).toMatchObject({ kind: "success" });

    const agent = client(t.url);
    agent.session.signIn(await agent.api.post<LoginResponse>("/auth/login", { email: f.emails.agent, password: PASSWORD }));
    const seen = new SettingsStore(agent.api);
    await seen.load();
    expect(seen.get("hideContactInfo")).toBe(true);
    await expect(seen.save("hideContactInfo", false)).rejects.toMatchObject({ status: 403 });
    expect(seen.flag("hideContactInfo")).toBe(true);
    await store.reload();
    expect(store.flag("hideContactInfo")).toBe(true);
    await expect(store.save("noSuchSetting", 1)).rejects.toMatchObject({ code: "ERR_SETTING_NOT_FOUND" });
    expect(store.get("noSuchSetting")).toBeUndefined();
  });
});

describe("shell API client: what the core does not answer on demand", () => {
  it("an answer without a known code shows the generic title with the raw detail, or 'Não identificado'", async () => {
    const s = await localServer((req, res) => {
      if (req.url!.includes("raw")) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ message: "database exploded" }));
      } else {
        res.writeHead(502, { "content-type": "text/html" });
        res.end("<html>bad gateway</html>");
      }
    });
    try {
      const c = client(s.url);
      await expect(c.api.get("/raw")).rejects.toMatchObject({ code: "ERR_UNIDENTIFIED", detail: "database exploded" });
      await expect(c.api.get("/html")).rejects.toMatchObject({ code: "ERR_UNIDENTIFIED", detail: "Não identificado" });
      expect(c.ui.history.map((n) => n.detail)).toEqual(["database exploded", "Não identificado"]);
      expect(c.ui.history[0].title).toBe("Ocorreu um erro");
    } finally {
      await s.close();
    }
  });

  it("a request past the timeout is abandoned without a notice", async () => {
    const s = await localServer(() => {
      /* never answers */
    });
    try {
      const c = client(s.url, { timeoutMs: 300 });
      const t0 = Date.now();
      await expect(c.api.get("/slow")).rejects.toMatchObject({ code: "ERR_REQUEST_TIMEOUT" });
      expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
      expect(c.ui.history).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it("the contact limit (410, code:current:max) is a 10-second banner", async () => {
    const s = await localServer((_req, res) => {
      res.writeHead(410, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: "ERR_CONTACT_LIMIT", title: "Limite de contatos atingido", message: "Você já tem 5 de 5 contatos", data: { current: 5, max: 5, code: "ERR_CONTACT_LIMIT:5:5" } }));
    });
    try {
      const c = client(s.url);
      await expect(c.api.post("/contacts", { name: "x" })).rejects.toMatchObject({ status: 410, code: "ERR_CONTACT_LIMIT" });
      expect(c.ui.notices).toHaveLength(1);
      expect(c.ui.notices[0]).toMatchObject({ banner: true, durationMs: 10_000, title: "Limite de contatos atingido" });
    } finally {
      await s.close();
    }
  });

  it("the network being down is a notice, not an exception without text", async () => {
    const c = client("http://127.0.0.1:9");
    await expect(c.api.get("/x")).rejects.toMatchObject({ code: "ERR_NETWORK" });
    expect(c.ui.history[0].title).toBe("Sem conexão com o servidor");
  });
});
