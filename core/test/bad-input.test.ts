/**
 * Bad input over HTTP (spec §5 validation, §7 maximum body 50 MB, §8 error shape): malformed
 * JSON, oversized bodies, wrong and missing fields on every writing route, and SQL
 * metacharacters in every query filter of every GET route. Every refusal is a 4xx with an
 * ERR_ code, never a 5xx, and none of it writes anything.
 */
import { startCore, createTenant, createSuper, TestCore, TenantFixture, Auth, Res } from "./helpers";

interface AliasInfo {
  actionName: string;
  fullPath: string;
  methods: string;
  action?: { params?: Record<string, unknown>; access?: string };
}

const MIB = 1024 * 1024;

/** SQL metacharacters and friends, as sent in query strings (encoded by the client). */
const METACHARS = ["' OR 1=1 --", "%", "_", "\\", '"; DROP TABLE users; --', "ção 😀 𝒳 مرحبا ​", "1; SELECT SLEEP(5)", "a'b\"c`d\u0000e"];
/** Already-encoded oddities: NUL, a lone surrogate, bytes that are not UTF-8, a broken escape. */
const RAW_ENCODED = ["%00", "%ED%A0%80", "%FF%FE", "%", "%E0%A4%A"];
const FILTER_KEYS = ["searchParam", "pageNumber", "pageSize", "profile", "active", "tenantId"];

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

function fieldsOf(r: Res): string[] {
  return ((r.body?.data?.errors ?? []) as Array<{ field?: string }>).map((e) => e.field ?? "");
}

/** A 2xx, or a 4xx carrying an ERR_ code. Returns a description when it is neither. */
function problem(label: string, r: Res): string | null {
  if (r.status >= 200 && r.status < 300) return null;
  if (r.status >= 400 && r.status < 500 && typeof r.body?.error === "string" && /^ERR_[A-Z_]+$/.test(r.body.error)) return null;
  return `${label} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
}

function typeOf(rule: unknown): string {
  if (typeof rule === "string") return rule.split("|")[0]!;
  if (Array.isArray(rule)) return typeOf(rule[0]);
  return ((rule ?? {}) as { type?: string }).type ?? "any";
}

/** A value no rule of that type accepts, even with `convert: true`. */
function wrongValue(rule: unknown): unknown {
  const type = typeOf(rule);
  if (type === "any" || type === "forbidden") return undefined;
  if (type === "object") return "not-an-object";
  return { not: ["a", type] };
}

describe("bad input (mariadb)", () => {
  let t: TestCore;
  let sup: Auth;
  let f: TenantFixture;
  let aliases: AliasInfo[];

  /** Everything an accidental write could change, read through the API. */
  async function snapshot() {
    const users = await t.api.get("/users/tenants", sup);
    const tenants = await t.api.get("/tenants?pageSize=200", sup);
    const queues = await t.api.get("/queues", f.admin);
    const global = await t.api.get("/settings/global", sup);
    const settings = await t.api.get("/settings", f.admin);
    const own = await t.api.get("/users", f.admin);
    for (const r of [users, tenants, queues, global, settings, own]) expect(r.status).toBe(200);
    // A second read of the live status must not count as a write.
    return { users: users.body, tenants: tenants.body, queues: queues.body, global: global.body, settings: settings.body, count: own.body.count };
  }

  beforeAll(async () => {
    t = await startCore({ dialect: "mariadb" });
    sup = await createSuper(t);
    // The top tier: every plugin's routes answer it (SMS is PREMIUM), so each route's validation is reached.
    f = await createTenant(t, { tier: "PREMIUM" });
    // Names that hold the metacharacters themselves, so literal search can be checked.
    for (const [i, name] of ["O'Brien 100%_off", "Back\\slash \"quoted\"", "Conceição 😀 𝒳"].entries()) {
      const r = await t.api.post("/users", { name, email: `meta${i}-${f.tenantId}@t.test`, password: "Secret123", profile: "user" }, f.admin);
      expect(r.status).toBe(201);
    }
    aliases = (await t.core.broker.call("api.listAliases", { withActionSchema: true })) as AliasInfo[];
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("malformed bodies", () => {
    const BROKEN = ["{not json", '{"name": }', "{'name':'x'}", '{"name":"x",}', '{"name":"x"}}', "nul", '"just a string"', "123", "\u0000{}"];

    it.each(BROKEN)("%j → 400 ERR_INVALID_JSON, nothing written", async (body) => {
      const before = await snapshot();
      expectError(await t.api.post("/users", body, f.admin), 400, "ERR_INVALID_JSON");
      expectError(await t.api.post("/queues", body, f.admin), 400, "ERR_INVALID_JSON");
      expectError(await t.api.put(`/users/${f.admin.userId}`, body, f.admin), 400, "ERR_INVALID_JSON");
      expectError(await t.api.post("/auth/login", body), 400, "ERR_INVALID_JSON");
      expectError(await t.api.put("/settings/global/frontend", body, sup, { "content-type": "application/json; charset=utf-8" }), 400, "ERR_INVALID_JSON");
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("body size (spec §7/§9: maximum body 50 MB)", () => {
    const bodyOf = (bytes: number) => {
      const head = '{"name":"';
      const tail = '","email":"big@t.test","password":"Secret123"}';
      return head + "a".repeat(bytes - head.length - tail.length) + tail;
    };

    it("a body over 50 MB → 413 ERR_PAYLOAD_TOO_LARGE, nothing written", async () => {
      const before = await snapshot();
      const body = bodyOf(51 * MIB);
      expect(Buffer.byteLength(body)).toBe(51 * MIB);
      const r = await t.api.post("/users", body, f.admin);
      expectError(r, 413, "ERR_PAYLOAD_TOO_LARGE");
      expect(r.body.message).toContain("50 MB");
      expectError(await t.api.post("/queues", bodyOf(50 * MIB + 1), f.admin), 413, "ERR_PAYLOAD_TOO_LARGE");
      expect(await snapshot()).toEqual(before);
    }, 60_000);

    it("a 49 MB body is read (refused for its content, not its size)", async () => {
      const before = await snapshot();
      const r = await t.api.post("/users", bodyOf(49 * MIB), f.admin);
      expect(r.status).not.toBe(413);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("name");
      expect(await snapshot()).toEqual(before);
    }, 60_000);
  });

  describe("wrong types", () => {
    it("POST /users with name: 123, email: \"x\", queues: \"a\" → 400 ERR_VALIDATION naming the fields", async () => {
      const before = await snapshot();
      const r = await t.api.post("/users", { name: 123, email: "x", queues: "a", password: "Secret123" }, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(["name", "email", "queues"]).toContain(r.body.data.field);
      expect(fieldsOf(r)).toEqual(expect.arrayContaining(["name", "email", "queues"]));
      expect(r.body.message).toContain(r.body.data.field);
      // One wrong field at a time names exactly that field.
      const valid = { name: "Valid Name", email: `valid-${f.tenantId}@t.test`, password: "Secret123" };
      for (const [field, value] of [["name", 123], ["email", "x"], ["queues", "a"], ["queues", ["a"]], ["profile", "root"], ["active", "maybe"], ["phoneNumber", 5511999999999]] as const) {
        const one = await t.api.post("/users", { ...valid, [field]: value }, f.admin);
        expectError(one, 400, "ERR_VALIDATION");
        expect(one.body.data.field).toMatch(new RegExp(`^${field}(\\[|$)`));
      }
      expect(await snapshot()).toEqual(before);
    });

    it("tenant and global settings check the value against the key's schema", async () => {
      const before = await snapshot();
      for (const [p, body, who, field] of [
        ["/settings/pageSize", { value: "abc" }, f.admin, "value"],
        ["/settings/pageSize", { value: 4 }, f.admin, "value"],
        ["/settings/sla", { value: { green: "x", yellow: 1, red: 2 } }, f.admin, "value.green"],
        ["/settings/global/smtp", { value: { host: "smtp.t.test", port: "abc", senderEmail: "a@t.test" } }, sup, "port"],
        ["/settings/global/frontend", { value: { videoList: "not a list" } }, sup, "videoList"],
      ] as const) {
        const r = await t.api.put(p, body, who);
        expectError(r, 400, "ERR_VALIDATION");
        expect({ p, field: r.body.data.field }).toEqual({ p, field });
        // The same error shape as the gateway's own validation errors.
        for (const e of r.body.data.errors) {
          expect(Object.keys(e).sort()).toEqual(expect.arrayContaining(["field", "rule"]));
          expect(e).not.toHaveProperty("actual");
          expect(e).not.toHaveProperty("message");
        }
      }
      // A refused secret is not echoed back.
      const secret = "s3cret-".repeat(50);
      const smtp = await t.api.put("/settings/global/smtp", { value: { host: "smtp.t.test", port: 25, senderEmail: "a@t.test", password: secret } }, sup);
      expectError(smtp, 400, "ERR_VALIDATION");
      expect(smtp.body.data.field).toBe("password");
      expect(JSON.stringify(smtp.body)).not.toContain("s3cret");
      expectError(await t.api.put("/settings/noSuchKey", { value: 1 }, f.admin), 404, "ERR_SETTING_NOT_FOUND");
      expect(await snapshot()).toEqual(before);
    });

    it("PUT /queues/abc (and other non-numeric ids) → 400 ERR_VALIDATION naming id", async () => {
      const before = await snapshot();
      for (const [method, p] of [["PUT", "/queues/abc"], ["GET", "/queues/abc"], ["DELETE", "/queues/abc"], ["PUT", "/users/1.5"], ["GET", "/users/-1"], ["PUT", "/tenants/0"], ["PUT", "/queues/1e400"]] as const) {
        const r = await t.api.call(method, p, method === "PUT" ? { name: "Renamed" } : undefined, method === "PUT" && p.startsWith("/tenants") ? sup : f.admin);
        expectError(r, 400, "ERR_VALIDATION");
        expect(r.body.data.field).toBe("id");
      }
      expect(await snapshot()).toEqual(before);
    });

    it("every writing route refuses a wrong type in each of its fields, naming the field", async () => {
      const before = await snapshot();
      const ids: Record<string, number | string> = { id: f.tenantId, key: "pageSize" };
      const idFor = (a: AliasInfo) =>
        a.fullPath.startsWith("/api/users/") ? f.admin.userId : a.fullPath.startsWith("/api/queues/") ? f.queueIds[0]! : a.fullPath.startsWith("/api/settings/global/") ? "frontend" : undefined;
      const failures: string[] = [];
      let checked = 0;
      for (const a of aliases) {
        const method = a.methods.toUpperCase();
        if (method === "GET") continue;
        const pathNames = [...a.fullPath.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
        let p = a.fullPath.replace(/^\/api/, "");
        for (const n of pathNames) p = p.replace(`:${n}`, encodeURIComponent(String(n === "id" ? (idFor(a) ?? ids.id) : n === "key" ? (idFor(a) ?? ids.key) : ids[n])));
        for (const [field, rule] of Object.entries(a.action?.params ?? {})) {
          if (field.startsWith("$$") || pathNames.includes(field)) continue;
          const wrong = wrongValue(rule);
          if (wrong === undefined) continue;
          // A plugin's route answers only a tenant that has the plugin (the gateway checks its tier
          // before the params): the PREMIUM tenant's admin; the core's routes, the platform level.
          const who = a.action?.access === "public" ? null : /^v\d+\./.test(a.actionName) ? f.admin : sup;
          const r =
            method === "DELETE"
              ? await t.api.call(method, `${p}?${field}[not]=${typeOf(rule)}`, undefined, who)
              : await t.api.call(method, p, { [field]: wrong }, who);
          checked++;
          if (process.env.DEBUG_SWEEP) console.log(method, p, field, r.status, r.body?.data?.field);
          if (r.status !== 400 || r.body?.error !== "ERR_VALIDATION" || !fieldsOf(r).some((x) => x === field || x.startsWith(`${field}.`) || x.startsWith(`${field}[`))) {
            failures.push(`${method} ${p} ${field}=${JSON.stringify(wrong)} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
          }
        }
      }
      expect(checked).toBeGreaterThan(20);
      expect(failures).toEqual([]);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("missing required fields", () => {
    it("answer 400 ERR_VALIDATION naming the field", async () => {
      const before = await snapshot();
      const cases: Array<[string, string, unknown, Auth | null, string]> = [
        ["POST", "/users", {}, f.admin, "name"],
        ["POST", "/users", { name: "No Mail", password: "Secret123" }, f.admin, "email"],
        ["POST", "/users", { name: "No Password", email: `np-${f.tenantId}@t.test` }, f.admin, "password"],
        ["POST", "/queues", {}, f.admin, "name"],
        ["POST", "/queues", { active: true }, f.admin, "name"],
        ["POST", "/tenants", {}, sup, "name"],
        ["PUT", `/tenants/${f.tenantId}/license`, {}, sup, "token"],
        ["PUT", `/tenants/${f.tenantId}/terms-acceptance`, {}, f.admin, "accepted"],
        ["PUT", `/users/${f.admin.userId}/lgpd-consent`, {}, f.admin, "accepted"],
        ["PUT", "/settings/global/frontend", {}, sup, "value"],
        ["POST", "/auth/login", { email: f.emails.admin }, null, "password"],
        ["POST", "/auth/refresh_token", {}, f.admin, "userId"],
        ["POST", "/licence/blocklist", {}, sup, "lid"],
      ];
      for (const [method, p, body, who, field] of cases) {
        const r = await t.api.call(method, p, body, who);
        expectError(r, 400, "ERR_VALIDATION");
        expect({ route: `${method} ${p}`, field: r.body.data.field }).toEqual({ route: `${method} ${p}`, field });
        expect(r.body.data.rule).toBe("required");
        expect(r.body.message).toContain(field);
      }
      expect(await snapshot()).toEqual(before);
    });

    it("an empty string is not a name", async () => {
      const before = await snapshot();
      const r = await t.api.post("/queues", { name: "   " }, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe("name");
      expect(await snapshot()).toEqual(before);
    });
  });

  describe("SQL metacharacters in query filters", () => {
    it("every GET route answers 2xx or a 4xx with an ERR_ code for every filter and value, and nothing changes", async () => {
      const before = await snapshot();
      const gets = aliases.filter((a) => a.methods.toUpperCase() === "GET");
      expect(gets.map((a) => a.fullPath)).toEqual(expect.arrayContaining(["/api/users", "/api/queues", "/api/tenants", "/api/users/tenants"]));
      const values = [...METACHARS.map(encodeURIComponent), ...RAW_ENCODED];
      const problems: string[] = [];
      let sent = 0;
      const requests: Array<{ label: string; url: string; who: Auth }> = [];
      // Every value on every route, each value asked by one of the three callers in turn (each
      // caller meets every route with several values): all three on every value made this test
      // the slowest of the suite, three times over the same parsing and validation.
      const callers = [sup, f.admin, f.agent];
      for (const [ai, a] of gets.entries()) {
        for (const [vi, v] of values.entries()) {
          const who = callers[(ai + vi) % callers.length]!;
          // The value in every path parameter too, and in all filters at once.
          const base = a.fullPath.replace(/^\/api/, "").replace(/:([A-Za-z_]+)/g, v);
          const all = FILTER_KEYS.map((k) => `${k}=${v}`).join("&");
          for (const qs of [...FILTER_KEYS.map((k) => `${k}=${v}`), all]) requests.push({ label: `GET ${base}?${qs}`, url: `${base}?${qs}`, who });
        }
      }
      // A few at a time (the routes only read): one after the other took most of this test's four minutes, and it grows with the API.
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const { label, url, who } = requests[next++]!;
          let r: Res;
          try {
            r = await t.api.get(url, who);
          } catch (err) {
            problems.push(`${label} -> ${(err as Error).message}`);
            continue;
          }
          sent++;
          const bad = problem(label, r);
          if (bad) problems.push(bad);
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
      expect(sent).toBeGreaterThan(1000);
      expect(problems).toEqual([]);
      const after = await snapshot();
      expect(after.count).toBe(before.count);
      expect(after).toEqual(before);
      // Every GET route of the core and the bundled plugins, three callers, every value: it grows with the API.
    }, 420_000);

    it("searchParam is matched literally: metacharacters find only the names that contain them", async () => {
      const all = (await t.api.get("/users?pageSize=200", f.admin)).body.users as Array<{ id: number; name: string; email: string }>;
      expect(all.length).toBe(6);
      for (const m of [...METACHARS, "'", "%", "_", "\\", '"', "😀", "ção", "100%_"]) {
        const r = await t.api.get(`/users?pageSize=200&searchParam=${encodeURIComponent(m)}`, f.admin);
        expect(r.status).toBe(200);
        const want = all.filter((u) => u.name.toLowerCase().includes(m.toLowerCase()) || u.email.toLowerCase().includes(m.toLowerCase())).map((u) => u.id).sort();
        expect({ m, ids: r.body.users.map((u: { id: number }) => u.id).sort() }).toEqual({ m, ids: want });
        expect(r.body.count).toBe(want.length);
      }
      // The wildcard-looking ones match exactly one user each.
      expect((await t.api.get(`/users?searchParam=${encodeURIComponent("%")}`, f.admin)).body.count).toBe(1);
      expect((await t.api.get(`/users?searchParam=${encodeURIComponent("' OR 1=1 --")}`, f.admin)).body.count).toBe(0);
      const tenants = await t.api.get(`/tenants?searchParam=${encodeURIComponent("' OR 1=1 --")}`, sup);
      expect(tenants.status).toBe(200);
      expect(tenants.body.count).toBe(0);
    });

    it("filters of the wrong shape (arrays, objects) are validation errors", async () => {
      for (const qs of ["searchParam[]=a&searchParam[]=b", "searchParam[$ne]=x", "pageNumber[]=1&pageNumber[]=2", "profile[$in]=admin", "pageSize=0", "pageSize=201", "pageNumber=0", "pageNumber=1.5", "active=maybe", "searchParam=" + "a".repeat(121)]) {
        const key = qs.split(/[=[]/)[0]!;
        const p = key === "active" ? "/queues" : "/users";
        const r = await t.api.get(`${p}?${qs}`, f.admin);
        expect({ qs, status: r.status, error: r.body?.error, field: r.body?.data?.field }).toEqual({ qs, status: 400, error: "ERR_VALIDATION", field: key });
      }
    });

    it("a huge pageNumber is refused or answered empty, never a 5xx", async () => {
      for (const p of ["/users", "/tenants"]) {
        for (const n of ["99999999999999999999", "1e20", "1e300"]) {
          const r = await t.api.get(`${p}?pageNumber=${n}`, sup);
          expect(problem(`${p}?pageNumber=${n}`, r)).toBeNull();
        }
      }
    });
  });
});
