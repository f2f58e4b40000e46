/**
 * Tenant isolation over every REST route of the gateway. Routes are enumerated from the
 * gateway itself, so routes added by later features join automatically; a routed action
 * with an `:id` must say which `resource` it works on, and that resource needs a fixture here.
 */
import { startCore, createTenant, TestCore, TenantFixture, Auth } from "./helpers";
import { AliasInfo, buildRequest, pathParams } from "./route-probe";
import * as fs from "node:fs";
import * as path from "node:path";
import type { IsolationFixture } from "./fixtures/types";

/** Fixtures of every feature area (core/test/fixtures/*.fixture.ts), merged. */
async function loadFixtures(t: TestCore, a: TenantFixture): Promise<Record<string, number | string>> {
  const dir = path.join(__dirname, "fixtures");
  const out: Record<string, number | string> = {};
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith(".fixture.ts")).sort()) {
    const mod = (await import(path.join(dir, f))) as { default: IsolationFixture };
    Object.assign(out, await mod.default(t, a));
  }
  return out;
}

describe("tenant isolation over every route", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let aliases: AliasInfo[];
  let ids: Record<string, number | string>;

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PREMIUM" });
    b = await createTenant(t, { tier: "PREMIUM" });
    aliases = (await t.core.broker.call("api.listAliases", { withActionSchema: true })) as AliasInfo[];
    ids = await loadFixtures(t, a);
  });
  afterAll(async () => {
    await t?.stop();
  });

  const idRoutes = () => aliases.filter((al) => pathParams(al.fullPath).length > 0);

  it("finds the routes of every core service", () => {
    const names = new Set(aliases.map((al) => al.actionName.split(".")[0]));
    for (const s of ["auth", "users", "tenants", "queues", "licence", "settings", "system"]) expect(names).toContain(s);
    expect(idRoutes().length).toBeGreaterThanOrEqual(10);
  });

  it("every routed action with a path id declares its resource, and the resource has a fixture", () => {
    const missing = idRoutes()
      .filter((al) => !al.action?.resource || !(al.action.resource in ids))
      .map((al) => `${al.methods} ${al.fullPath} (${al.actionName}: resource ${al.action?.resource ?? "undeclared"})`);
    expect(missing).toEqual([]);
  });

  it("a token of tenant B gets 404 (or 403 on platform-level routes) for tenant A's objects, and nothing changes", async () => {
    const leaks: string[] = [];
    // "own" and "public" path parameters name no object of another tenant (settings keys, widget tokens).
    for (const al of idRoutes().filter((x) => !["own", "public"].includes(x.action?.resource ?? "") || x.action?.access === "super")) {
      const idv = ids[al.action!.resource!];
      const req = buildRequest(al, Object.fromEntries(pathParams(al.fullPath).map((n) => [n, idv])));
      const r = await t.api.call(req.method, req.path, req.body, b.admin);
      const expected = al.action?.access === "super" ? 403 : 404;
      if (r.status !== expected || !/^ERR_/.test(r.body?.error)) {
        leaks.push(`${req.method} ${req.path} -> ${r.status} ${JSON.stringify(r.body).slice(0, 160)}`);
      } else if (expected === 404 && !/NOT_FOUND$/.test(r.body.error)) {
        leaks.push(`${req.method} ${req.path} -> 404 with ${r.body.error}`);
      }
    }
    expect(leaks).toEqual([]);
    // Tenant A's objects are intact and A still works.
    expect((await t.api.get(`/users/${a.agent.userId}`, a.admin)).status).toBe(200);
    expect((await t.api.get(`/queues/${a.queueIds[0]}`, a.admin)).status).toBe(200);
    const me = await t.api.get(`/tenants/${a.tenantId}`, a.admin);
    expect(me.status).toBe(200);
    expect(me.body.status).toBe("active");
  });

  it("non-admins get 403 on admin routes (agent and, for admin-only routes, supervisor)", async () => {
    const wrong: string[] = [];
    const check = async (al: AliasInfo, who: Auth, label: string) => {
      const idv = al.action?.resource ? ids[al.action.resource] : 0;
      const req = buildRequest(al, Object.fromEntries(pathParams(al.fullPath).map((n) => [n, idv])));
      const r = await t.api.call(req.method, req.path, req.body, who);
      if (r.status !== 403 || r.body?.error !== "ERR_NO_PERMISSION") wrong.push(`${label} ${req.method} ${req.path} -> ${r.status} ${r.body?.error}`);
    };
    const guarded = aliases.filter((al) => ["supervisor", "admin", "super"].includes(al.action?.access ?? ""));
    expect(guarded.length).toBeGreaterThan(8);
    for (const al of guarded) {
      await check(al, a.agent, "agent");
      if (al.action!.access !== "supervisor") await check(al, a.supervisor, "supervisor");
    }
    expect(wrong).toEqual([]);
    expect((await t.api.get(`/users/${a.agent.userId}`, a.admin)).status).toBe(200);
  });

  it("every non-public route refuses a call without credentials with 401", async () => {
    const open: string[] = [];
    for (const al of aliases.filter((x) => x.action?.access !== "public")) {
      const idv = al.action?.resource ? ids[al.action.resource] : 1;
      const req = buildRequest(al, Object.fromEntries(pathParams(al.fullPath).map((n) => [n, idv])));
      const r = await t.api.call(req.method, req.path, req.body, null);
      if (r.status !== 401 || r.body?.error !== "ERR_SESSION_REQUIRED") open.push(`${req.method} ${req.path} -> ${r.status}`);
    }
    expect(open).toEqual([]);
  });
});
