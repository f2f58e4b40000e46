/**
 * Every search answers 2xx or a 4xx with an ERR_ code, whatever it is given, on both dialects
 * (issue 12: `searchParam=%00` ended SQLite's SQL literal and answered 500). The values are
 * the ones a client can send: NUL and other control characters, quotes, LIKE wildcards, a
 * backslash, invalid UTF-8 / lone surrogates, and very long strings.
 */
import { startCore, createTenant, createSuper, DIALECTS, TestCore, TenantFixture, Auth, Res } from "./helpers";

/** Already encoded for a query string. */
const VALUES = [
  "%00",
  "a%00b",
  "%00%00%00",
  "ab%01%1F%7F",
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent("%"),
  encodeURIComponent("_"),
  encodeURIComponent("\\"),
  encodeURIComponent("\\%00"),
  encodeURIComponent('a"b`c'),
  "%ED%A0%80",
  "%ED%A0%80x%ED%B0%80",
  "%FF%FE",
  "%E0%A4%A",
  encodeURIComponent("😀".repeat(60)),
  "a".repeat(121),
  "a".repeat(5000),
  "%00".repeat(2000),
];

function problem(label: string, r: Res): string | null {
  if (r.status >= 200 && r.status < 300) return null;
  if (r.status >= 400 && r.status < 500 && typeof r.body?.error === "string" && /^ERR_[A-Z_]+$/.test(r.body.error)) return null;
  return `${label} -> ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
}

describe.each(DIALECTS)("search input (%s)", (dialect) => {
  let t: TestCore;
  let sup: Auth;
  let f: TenantFixture;

  beforeAll(async () => {
    t = await startCore({ dialect });
    sup = await createSuper(t);
    f = await createTenant(t, { tier: "PLUS" });
    // Something to find, so a search that runs also has rows to compare.
    expect((await t.api.post("/tags", { name: "Nul\u0001Tag" }, f.admin)).status).toBeLessThan(300);
    expect((await t.api.post("/quick-messages", { key: "ola", message: "Olá!" }, f.admin)).status).toBeLessThan(300);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("users, tags, quick messages, tenants, contacts and tickets answer 2xx or 4xx for any searchParam", async () => {
    const routes: Array<[string, Auth]> = [
      ["/users", f.admin],
      ["/tags", f.admin],
      ["/quick-messages", f.admin],
      ["/quick-messages?all=true", f.admin],
      ["/tenants", sup],
      ["/contacts", f.admin],
      ["/tickets", f.admin],
    ];
    const problems: string[] = [];
    for (const [route, who] of routes) {
      for (const v of VALUES) {
        const url = `${route}${route.includes("?") ? "&" : "?"}searchParam=${v}`;
        const r = await t.api.get(url, who);
        const bad = problem(`GET ${url.slice(0, 80)}`, r);
        if (bad) problems.push(bad);
      }
    }
    expect(problems).toEqual([]);
  });

  it("a NUL in the search matches as if it were not there, and the rest of the term still counts", async () => {
    const users = await t.api.get("/users?searchParam=Adm%00in", f.admin);
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { name: string }) => u.name)).toEqual(["Admin"]);
    const none = await t.api.get("/users?searchParam=zz%00zz", f.admin);
    expect(none.status).toBe(200);
    expect(none.body.count).toBe(0);
    const tags = await t.api.get(`/tags?searchParam=${encodeURIComponent("nul\u0001")}`, f.admin);
    expect(tags.status).toBe(200);
    expect(tags.body.map((x: { name: string }) => x.name)).toEqual(["Nul\u0001Tag"]);
    const qm = await t.api.get("/quick-messages?searchParam=o%00l", f.admin);
    expect(qm.status).toBe(200);
    expect(qm.body.map((x: { key: string }) => x.key)).toEqual(["ola"]);
  });
});
