/**
 * Auth and session (spec §5, §6, §7 "Auth and session", §8): login by e-mail or phone, the
 * login answer, the refusals and their codes, login hours, one session per user, token
 * expiry and refresh, logout, the login rate limit and translated messages. Real core, real
 * MariaDB / SQLite, real Redis.
 */
import jwt from "jsonwebtoken";
import { startCore, createTenant, createSuper, TestCore, TenantFixture, DIALECTS, PASSWORD, uid, Auth, Res } from "./helpers";
import { CATALOGUE } from "../src/errors/catalogue";
import type { ErrorCode } from "../src/errors/codes";

/** Asserts the HTTP status and the `{ error, message, title, data }` body of an error answer. */
function expectError(r: Res, status: number, code: ErrorCode) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(r.body.message.length).toBeGreaterThan(0);
  expect(typeof r.body.title).toBe("string");
  expect(r.body.title.length).toBeGreaterThan(0);
  expect(r.body.data).toEqual(expect.any(Object));
}

/** A random Brazilian mobile number, digits only (phone numbers are unique platform-wide). */
function randomPhone(): string {
  return `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
}

/** " +55 (11) 98888-7777 " style rendering of a digits-only number. */
function prettyPhone(d: string): string {
  return ` +${d.slice(0, 2)} (${d.slice(2, 4)}) ${d.slice(4, 9)}-${d.slice(9)} `;
}

/** Weekday (0 = Sunday) and minutes since midnight of `now` in a time zone. */
function clockIn(timeZone: string, now = new Date()): { day: number; minutes: number } {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "short", hour: "2-digit", minute: "2-digit", hour12: false }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  const hour = Number(get("hour")) % 24;
  return { day: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(get("weekday")), minutes: hour * 60 + Number(get("minute")) };
}

const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;

/** A slot of ±`margin` minutes around `minutes`, kept inside the day (end may be 24:00). */
function slotAround(minutes: number, margin: number): { start: string; end: string } {
  return { start: hhmm(Math.max(0, minutes - margin)), end: hhmm(Math.min(24 * 60, minutes + margin)) };
}

const bearerOnly = (a: Auth) => ({ authorization: `Bearer ${a.token}` });

describe.each(DIALECTS)("auth and session on %s", (dialect) => {
  let t: TestCore;
  let f: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect, env: { FREE_PLAN_MAX_USERS: "1000" } });
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** A fresh agent of the fixture tenant, created by its admin through the API. */
  async function newUser(extra: Record<string, unknown> = {}): Promise<{ id: number; email: string; name: string }> {
    const email = `user-${uid()}@t.test`;
    const name = `User ${uid()}`;
    const r = await t.api.post("/users", { name, email, password: PASSWORD, profile: "user", queues: [f.queueIds[0]], ...extra }, f.admin);
    if (r.status !== 201) throw new Error(`create user: ${r.status} ${JSON.stringify(r.body)}`);
    return { id: r.body.id, email, name };
  }

  describe("login", () => {
    it("logs in by e-mail with surrounding spaces and any case, on the spec's path with the trailing slash, and answers every field of §7", async () => {
      const u = await newUser();
      const r = await t.api.post("/auth/login/", { email: `  ${u.email.toUpperCase()}  `, password: PASSWORD });
      expect(r.status).toBe(200);
      const b = r.body;
      expect(b).toEqual(
        expect.objectContaining({
          token: expect.any(String),
          username: u.name,
          profile: "user",
          userId: u.id,
          tenantId: f.tenantId,
          isMaster: false,
          queues: [f.queueIds[0]],
          configs: {},
          image: null,
          sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          tenant: expect.objectContaining({ id: f.tenantId, termsAccepted: false, termsAcceptedAt: null }),
        }),
      );
      // The token is a signed access token of this user and this session.
      const claims = jwt.verify(b.token, t.config.jwtSecret) as jwt.JwtPayload;
      expect(claims.sub).toBe(String(u.id));
      expect(claims.sid).toBe(b.sessionId);
      expect(claims.tid).toBe(f.tenantId);
      // And it works with the session id on a protected call.
      const me = await t.api.get("/auth/me/", { token: b.token, sessionId: b.sessionId, userId: b.userId, tenantId: b.tenantId });
      expect(me.status).toBe(200);
      expect(me.body).toEqual(expect.objectContaining({ userId: u.id, email: u.email, sessionId: b.sessionId }));
    });

    it("answers the admin's profile, both queues and the tenant's terms acceptance once accepted", async () => {
      const acc = await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin);
      expect(acc.status).toBe(200);
      const r = await t.api.post("/auth/login", { email: f.emails.admin, password: PASSWORD });
      expect(r.status).toBe(200);
      expect(r.body.profile).toBe("admin");
      expect(r.body.username).toBe("Admin");
      expect([...r.body.queues].sort((a: number, b: number) => a - b)).toEqual([...f.queueIds].sort((a, b) => a - b));
      expect(r.body.tenant.termsAccepted).toBe(true);
      expect(typeof r.body.tenant.termsAcceptedAt).toBe("string");
      expect(Math.abs(Date.parse(r.body.tenant.termsAcceptedAt) - Date.now())).toBeLessThan(60_000);
      f.admin = { token: r.body.token, sessionId: r.body.sessionId, userId: r.body.userId, tenantId: r.body.tenantId, refreshToken: r.body.refreshToken };
    });

    it("answers isMaster true for a master user", async () => {
      const s = await createSuper(t);
      const r = await t.api.post("/auth/login/", { email: s.email, password: PASSWORD });
      expect(r.status).toBe(200);
      expect(r.body.isMaster).toBe(true);
      expect(r.body.profile).toBe("super");
    });

    it("logs in by phone number written with spaces, signs and punctuation", async () => {
      const phone = randomPhone();
      const u = await newUser({ phoneNumber: prettyPhone(phone) });
      const r = await t.api.post("/auth/login/", { phoneNumber: prettyPhone(phone), password: PASSWORD });
      expect(r.status).toBe(200);
      expect(r.body.userId).toBe(u.id);
      expect(r.body.username).toBe(u.name);
      const digits = await t.api.post("/auth/login", { phoneNumber: phone, password: PASSWORD });
      expect(digits.status).toBe(200);
      expect(digits.body.userId).toBe(u.id);
      const wrong = await t.api.post("/auth/login/", { phoneNumber: prettyPhone(phone), password: "Wrong1234" });
      expectError(wrong, 401, "ERR_INVALID_CREDENTIALS");
    });

    it("refuses a login without e-mail and phone number", async () => {
      expectError(await t.api.post("/auth/login/", { password: PASSWORD }), 400, "ERR_EMAIL_OR_PHONE_REQUIRED");
      expectError(await t.api.post("/auth/login/", { email: "   ", phoneNumber: "  ", password: PASSWORD }), 400, "ERR_EMAIL_OR_PHONE_REQUIRED");
    });

    it("refuses a wrong password and an unknown user", async () => {
      const u = await newUser();
      expectError(await t.api.post("/auth/login/", { email: u.email, password: "Wrong1234" }), 401, "ERR_INVALID_CREDENTIALS");
      expectError(await t.api.post("/auth/login/", { email: `nobody-${uid()}@t.test`, password: PASSWORD }), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.post("/auth/login/", { phoneNumber: randomPhone(), password: PASSWORD }), 404, "ERR_USER_NOT_FOUND");
    });

    it("refuses an inactive user, and the user's open session ends with the same code", async () => {
      const u = await newUser();
      const before = await t.api.login(u.email);
      const off = await t.api.put(`/users/${u.id}`, { active: false }, f.admin);
      expect(off.status).toBe(200);
      expect(off.body.active).toBe(false);
      expectError(await t.api.post("/auth/login/", { email: u.email, password: PASSWORD }), 401, "ERR_USER_INACTIVE");
      expectError(await t.api.get("/auth/me", before), 401, "ERR_USER_INACTIVE");
      // Reactivated, the user logs in again.
      expect((await t.api.put(`/users/${u.id}`, { active: true }, f.admin)).status).toBe(200);
      expect((await t.api.post("/auth/login/", { email: u.email, password: PASSWORD })).status).toBe(200);
    });

    it("refuses a deleted user, and the user's open session ends with the same code", async () => {
      const u = await newUser();
      const before = await t.api.login(u.email);
      const del = await t.api.del(`/users/${u.id}?newUserId=${f.agent.userId}`, f.admin);
      expect(del.status).toBe(200);
      expectError(await t.api.post("/auth/login/", { email: u.email, password: PASSWORD }), 401, "ERR_USER_DELETED");
      expectError(await t.api.get("/auth/me", before), 401, "ERR_USER_DELETED");
    });

    it("refuses the users of an inactive tenant, and their open sessions end", async () => {
      const other = await createTenant(t);
      const s = await createSuper(t);
      const off = await t.api.put(`/tenants/${other.tenantId}`, { status: "inactive" }, s);
      expect(off.status).toBe(200);
      expectError(await t.api.post("/auth/login/", { email: other.emails.agent, password: PASSWORD }), 401, "ERR_TENANT_INACTIVE");
      expectError(await t.api.get("/auth/me", other.admin), 401, "ERR_TENANT_INACTIVE");
      // Another tenant is unaffected.
      expect((await t.api.get("/auth/me", f.agent)).status).toBe(200);
    });
  });

  describe("login hours", () => {
    const TZ = "America/Sao_Paulo";

    it("refuses a login outside the registered hours", async () => {
      const { day } = clockIn(TZ);
      // Every weekday but today.
      const loginHours = Object.fromEntries([0, 1, 2, 3, 4, 5, 6].filter((d) => d !== day).map((d) => [String(d), [{ start: "00:00", end: "23:59" }]]));
      const u = await newUser({ limitLoginHours: true, loginHours });
      expectError(await t.api.post("/auth/login/", { email: u.email, password: PASSWORD }), 403, "ERR_LOGIN_OUTSIDE_HOURS");
    });

    it("reads the hours in the tenant's time zone, not the server's UTC clock", async () => {
      // A slot around the UTC clock: São Paulo is 3 hours behind, so it does not include now there.
      const utc = clockIn("UTC");
      const u = await newUser({ limitLoginHours: true, loginHours: { [String(utc.day)]: [slotAround(utc.minutes, 20)] } });
      expectError(await t.api.post("/auth/login/", { email: u.email, password: PASSWORD }), 403, "ERR_LOGIN_OUTSIDE_HOURS");
    });

    it("accepts a login inside a slot that includes now in the tenant's time zone", async () => {
      const sp = clockIn(TZ);
      const u = await newUser({ limitLoginHours: true, loginHours: { [String(sp.day)]: [slotAround(sp.minutes, 20)] } });
      const r = await t.api.post("/auth/login/", { email: u.email, password: PASSWORD });
      expect(r.status).toBe(200);
      expect(r.body.userId).toBe(u.id);
    });

    it("accepts a slot that runs to the end of the day (24:00)", async () => {
      const sp = clockIn(TZ);
      const u = await newUser({ limitLoginHours: true, loginHours: { [String(sp.day)]: [{ start: hhmm(Math.max(0, sp.minutes - 5)), end: "24:00" }] } });
      const r = await t.api.post("/auth/login/", { email: u.email, password: PASSWORD });
      expect(r.status).toBe(200);
    });

    it("ignores the hours when the limit is off", async () => {
      const { day } = clockIn(TZ);
      const u = await newUser({ limitLoginHours: false, loginHours: { [String((day + 1) % 7)]: [{ start: "00:00", end: "23:59" }] } });
      expect((await t.api.post("/auth/login/", { email: u.email, password: PASSWORD })).status).toBe(200);
    });
  });

  describe("sessions", () => {
    it("ends the first session when the same user logs in again", async () => {
      const u = await newUser();
      const first = await t.api.login(u.email);
      expect((await t.api.get("/auth/me", first)).status).toBe(200);
      const second = await t.api.login(u.email);
      expect(second.sessionId).not.toBe(first.sessionId);
      expectError(await t.api.get("/auth/me", first), 401, "ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE");
      const ok = await t.api.get("/auth/me", second);
      expect(ok.status).toBe(200);
      expect(ok.body.sessionId).toBe(second.sessionId);
    });

    it("concurrent logins of one user all succeed and leave exactly one working session", async () => {
      const u = await newUser();
      for (let round = 0; round < 5; round++) {
        const rs = await Promise.all([0, 1, 2, 3, 4, 5].map(() => t.api.post("/auth/login/", { email: u.email, password: PASSWORD })));
        expect(rs.map((r) => [r.status, r.body.error])).toEqual(rs.map(() => [200, undefined]));
        const me = await Promise.all(rs.map((r) => t.api.get("/auth/me", { token: r.body.token, sessionId: r.body.sessionId, userId: u.id, tenantId: f.tenantId })));
        expect(me.filter((r) => r.status === 200)).toHaveLength(1);
        for (const r of me.filter((x) => x.status !== 200)) expectError(r, 401, "ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE");
      }
    });

    it("a burst of logins of different users all succeed, each with a working session", async () => {
      const users: Array<{ id: number; email: string }> = [];
      for (let i = 0; i < 8; i++) users.push(await newUser());
      for (let round = 0; round < 2; round++) {
        const rs = await Promise.all(users.map((u) => t.api.post("/auth/login/", { email: u.email, password: PASSWORD })));
        expect(rs.map((r) => [r.status, r.body.error])).toEqual(rs.map(() => [200, undefined]));
        const me = await Promise.all(rs.map((r) => t.api.get("/auth/me", { token: r.body.token, sessionId: r.body.sessionId, userId: 0, tenantId: 0 })));
        expect(me.map((r) => [r.status, r.body.userId])).toEqual(users.map((u) => [200, u.id]));
      }
    });

    it("requires the session id header and a bearer token on protected calls", async () => {
      const u = await newUser();
      const a = await t.api.login(u.email);
      expectError(await t.api.get("/auth/me", null, bearerOnly(a)), 401, "ERR_SESSION_REQUIRED");
      expectError(await t.api.get("/auth/me", null, { "x-session-id": a.sessionId }), 401, "ERR_SESSION_REQUIRED");
      expectError(await t.api.get("/auth/me"), 401, "ERR_SESSION_REQUIRED");
    });

    it("refuses a session id that does not belong to the token", async () => {
      const a = await t.api.login((await newUser()).email);
      const b = await t.api.login((await newUser()).email);
      expectError(await t.api.get("/auth/me", { ...a, sessionId: b.sessionId }), 401, "ERR_TOKEN_INVALID");
      expectError(await t.api.get("/auth/me", { ...a, sessionId: "00000000-0000-0000-0000-000000000000" }), 401, "ERR_TOKEN_INVALID");
    });

    it("refuses a garbage token and a token signed with another secret", async () => {
      const a = await t.api.login((await newUser()).email);
      expectError(await t.api.get("/auth/me", { ...a, token: "garbage.token.here" }), 401, "ERR_TOKEN_INVALID");
      const forged = jwt.sign({ tid: a.tenantId, sid: a.sessionId, prf: "admin", mst: true, sup: false }, "another-secret-another-secret-0123456789", {
        algorithm: "HS256",
        subject: String(a.userId),
        issuer: "openatende",
        expiresIn: 600,
      });
      expectError(await t.api.get("/auth/me", { ...a, token: forged }), 401, "ERR_TOKEN_INVALID");
    });

    it("answers 403 ERR_TOKEN_EXPIRED to an expired access token, and refresh_token with it gives a working token", async () => {
      const u = await newUser();
      const a = await t.api.login(u.email);
      const expired = { ...a, token: expiredTokenFor(a) };
      expectError(await t.api.get("/auth/me", expired), 403, "ERR_TOKEN_EXPIRED");

      const r = await t.api.post("/auth/refresh_token", { userId: a.userId }, expired);
      expect(r.status).toBe(200);
      expect(r.body.token).toEqual(expect.any(String));
      expect(r.body.token).not.toBe(expired.token);
      const fresh = { ...a, token: r.body.token };
      const me = await t.api.get("/auth/me", fresh);
      expect(me.status).toBe(200);
      expect(me.body.userId).toBe(u.id);
      expect(me.body.sessionId).toBe(a.sessionId);
    });

    it("refreshes with the refresh token in the body", async () => {
      const a = await t.api.login((await newUser()).email);
      expect(a.refreshToken).toEqual(expect.any(String));
      const r = await t.api.post("/auth/refresh_token/", { userId: a.userId, refreshToken: a.refreshToken }, null, { "x-session-id": a.sessionId });
      expect(r.status).toBe(200);
      expect((await t.api.get("/auth/me", { ...a, token: r.body.token })).status).toBe(200);
      // A wrong refresh token and no bearer: no proof.
      const bad = await t.api.post("/auth/refresh_token", { userId: a.userId, refreshToken: "x".repeat(43) }, null, { "x-session-id": a.sessionId });
      expectError(bad, 401, "ERR_TOKEN_INVALID");
    });

    it("refuses a refresh without the session id header", async () => {
      const a = await t.api.login((await newUser()).email);
      expectError(await t.api.post("/auth/refresh_token", { userId: a.userId, refreshToken: a.refreshToken }, null, bearerOnly(a)), 401, "ERR_SESSION_REQUIRED");
    });

    it("refuses a refresh for another user id", async () => {
      const a = await t.api.login((await newUser()).email);
      const b = await newUser();
      const viaBearer = await t.api.post("/auth/refresh_token", { userId: b.id }, a);
      expectError(viaBearer, 401, "ERR_SESSION_EXPIRED");
      const viaRefresh = await t.api.post("/auth/refresh_token", { userId: b.id, refreshToken: a.refreshToken }, null, { "x-session-id": a.sessionId });
      expectError(viaRefresh, 401, "ERR_SESSION_EXPIRED");
      // Nor does a token of user A prove a session of user B.
      const bSession = await t.api.login(b.email);
      const cross = await t.api.post("/auth/refresh_token", { userId: b.id }, { ...a, sessionId: bSession.sessionId });
      expectError(cross, 401, "ERR_TOKEN_INVALID");
    });

    it("refuses a refresh with a garbage bearer and no refresh token", async () => {
      const a = await t.api.login((await newUser()).email);
      expectError(await t.api.post("/auth/refresh_token", { userId: a.userId }, { ...a, token: "garbage" }), 401, "ERR_TOKEN_INVALID");
    });

    it("logout ends the session: its next call and its refresh answer 401", async () => {
      const a = await t.api.login((await newUser()).email);
      const out = await t.api.post("/auth/logout/", {}, a);
      expect(out.status).toBe(200);
      expectError(await t.api.get("/auth/me", a), 401, "ERR_SESSION_EXPIRED");
      expectError(await t.api.post("/auth/refresh_token", { userId: a.userId }, a), 401, "ERR_SESSION_EXPIRED");
      expectError(
        await t.api.post("/auth/refresh_token", { userId: a.userId, refreshToken: a.refreshToken }, null, { "x-session-id": a.sessionId }),
        401,
        "ERR_SESSION_EXPIRED",
      );
      // Logging out needs a session.
      expectError(await t.api.post("/auth/logout/", {}), 401, "ERR_SESSION_REQUIRED");
    });

    it("a refresh of a session ended by a login elsewhere answers the logged-elsewhere code", async () => {
      const u = await newUser();
      const first = await t.api.login(u.email);
      await t.api.login(u.email);
      expectError(await t.api.post("/auth/refresh_token", { userId: first.userId }, first), 401, "ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE");
    });
  });

  describe("translated messages", () => {
    it("answers the message in the caller's language", async () => {
      const u = await newUser();
      const body = { email: u.email, password: "Wrong1234" };
      const ru = await t.api.post("/auth/login/", body, null, { "accept-language": "ru" });
      const en = await t.api.post("/auth/login/", body, null, { "accept-language": "en-US,en;q=0.9" });
      const pt = await t.api.post("/auth/login/", body);
      for (const r of [ru, en, pt]) expectError(r, 401, "ERR_INVALID_CREDENTIALS");
      expect(ru.body.message).toBe(CATALOGUE.ru.ERR_INVALID_CREDENTIALS.detail);
      expect(ru.body.title).toBe(CATALOGUE.ru.ERR_INVALID_CREDENTIALS.title);
      expect(ru.body.message).toMatch(/[А-Яа-яЁё]/);
      expect(en.body.message).toBe(CATALOGUE.en.ERR_INVALID_CREDENTIALS.detail);
      expect(en.body.title).toBe(CATALOGUE.en.ERR_INVALID_CREDENTIALS.title);
      expect(pt.body.message).toBe(CATALOGUE["pt-BR"].ERR_INVALID_CREDENTIALS.detail);
      expect(new Set([ru.body.message, en.body.message, pt.body.message]).size).toBe(3);
    });

    it("translates the session errors the gateway answers", async () => {
      const ru = await t.api.get("/auth/me", null, { "accept-language": "ru" });
      expectError(ru, 401, "ERR_SESSION_REQUIRED");
      expect(ru.body.message).toBe(CATALOGUE.ru.ERR_SESSION_REQUIRED.detail);
      const en = await t.api.get("/auth/me", null, { "accept-language": "en" });
      expect(en.body.message).toBe(CATALOGUE.en.ERR_SESSION_REQUIRED.detail);
    });
  });

  /** The same claims as the session's token, signed with the core's secret, expired a minute ago. */
  function expiredTokenFor(a: Auth): string {
    const claims = jwt.verify(a.token, t.config.jwtSecret) as jwt.JwtPayload;
    const now = Math.floor(Date.now() / 1000);
    return jwt.sign({ tid: claims.tid, sid: claims.sid, prf: claims.prf, mst: claims.mst, sup: claims.sup, iat: now - 1000, exp: now - 60 }, t.config.jwtSecret, {
      algorithm: "HS256",
      subject: String(a.userId),
      issuer: "openatende",
    });
  }
});

describe.each(DIALECTS)("access token lifetime on %s", (dialect) => {
  let t: TestCore;
  let f: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect, env: { ACCESS_TOKEN_TTL: "10" } });
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a real token expires after ACCESS_TOKEN_TTL and refresh_token renews it", async () => {
    const a = await t.api.login(f.emails.agent);
    const login = await t.api.post("/auth/login", { email: f.emails.supervisor, password: PASSWORD });
    expect(login.body.expiresIn).toBe(10);
    const exp = (jwt.decode(a.token) as jwt.JwtPayload).exp!;
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 1100));
    expectError(await t.api.get("/auth/me", a), 403, "ERR_TOKEN_EXPIRED");
    const r = await t.api.post("/auth/refresh_token/", { userId: a.userId }, a);
    expect(r.status).toBe(200);
    expect((await t.api.get("/auth/me", { ...a, token: r.body.token })).status).toBe(200);
  }, 30_000);
});

describe.each(DIALECTS)("login rate limit on %s", (dialect) => {
  let t: TestCore;
  let f: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect, env: { LOGIN_RATE_LIMIT: "3", FREE_PLAN_MAX_USERS: "1000" } });
    f = await createTenant(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("answers 429 with Retry-After on the 4th failing login of one identifier, while another identifier still works", async () => {
    const email = `rl-${uid()}@t.test`;
    for (let i = 0; i < 3; i++) expectError(await t.api.post("/auth/login/", { email, password: "Wrong1234" }), 404, "ERR_USER_NOT_FOUND");
    const limited = await t.api.post("/auth/login/", { email, password: "Wrong1234" });
    expectError(limited, 429, "ERR_RATE_LIMITED");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(t.config.loginRateLimit.windowSeconds);
    expect(limited.body.data.retryAfter).toBe(retryAfter);
    // The same identifier in another case / with spaces shares the counter.
    expectError(await t.api.post("/auth/login/", { email: `  ${email.toUpperCase()} `, password: "Wrong1234" }), 429, "ERR_RATE_LIMITED");
    // Another identifier is not affected.
    const ok = await t.api.post("/auth/login/", { email: f.emails.agent, password: PASSWORD });
    expect(ok.status).toBe(200);
  });

  it("limits a real user's identifier even with the right password once the limit is reached", async () => {
    const email = `rl-${uid()}@t.test`;
    const created = await t.api.post("/users", { name: "Limited", email, password: PASSWORD, profile: "user" }, f.admin);
    expect(created.status).toBe(201);
    for (let i = 0; i < 3; i++) expectError(await t.api.post("/auth/login/", { email, password: "Wrong1234" }), 401, "ERR_INVALID_CREDENTIALS");
    expectError(await t.api.post("/auth/login/", { email, password: PASSWORD }), 429, "ERR_RATE_LIMITED");
  });

  it("counts one phone number once whatever its formatting", async () => {
    const phone = randomPhone();
    const forms = [prettyPhone(phone), phone, `+${phone}`];
    for (const phoneNumber of forms) expectError(await t.api.post("/auth/login/", { phoneNumber, password: "Wrong1234" }), 404, "ERR_USER_NOT_FOUND");
    expectError(await t.api.post("/auth/login/", { phoneNumber: `${phone.slice(0, 2)} ${phone.slice(2)}`, password: "Wrong1234" }), 429, "ERR_RATE_LIMITED");
  });
});
