/**
 * POST /contacts/:id/validate-whatsapp (spec §3 Contact "WhatsApp-validated", §8 "number
 * invalid or not on WhatsApp"): the number asked through a connection whose channel plugin
 * declares `numberCheck` — the fixture plugin, whose numbers ending in an even digit have an
 * account. Real core on MariaDB with its plugin host scanning the fixture plugins.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import { startCore, createTenant, createSuper, uid, TestCore, TenantFixture, Auth, Res } from "./helpers";
import { createPluginsService } from "../src/plugins/plugins.service";

const FIXTURES = path.join(__dirname, "fixtures-plugins");

async function startWithFixtures(): Promise<TestCore> {
  const t = await startCore({ env: { SERVICES: "api,core" } });
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [FIXTURES], startTimeoutMs: 5000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins"], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (["plugins.setAllowed", "connections.create", "contacts.validateWhatsApp"].every((n) => aliases.some((a) => a.actionName === n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return t;
}

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
}

/** A Brazilian mobile whose last digit is `last`. */
const mobile = (last: number) => `55119${Array.from({ length: 7 }, () => Math.floor(Math.random() * 10)).join("")}${last}`;

describe("validating a contact's number on WhatsApp (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let none: TenantFixture;
  let sup: Auth;

  const fixtureConnection = async (f: TenantFixture, connect: boolean) => {
    const c = await t.api.post<{ id: number }>("/connections", { type: "channel-fixture", name: `Fixture ${uid()}`, settings: { greeting: "Olá" } }, f.admin);
    expect(c.status).toBe(201);
    if (connect) expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    return c.body.id;
  };
  const contact = async (f: TenantFixture, number: string | null, extra: Record<string, unknown> = {}) => {
    const r = await t.api.post<{ id: number }>("/contacts", { name: `Cliente ${uid()}`, ...(number ? { number } : {}), ...extra }, f.admin);
    expect(r.status).toBe(201);
    return r.body.id;
  };
  const validate = (id: number, who: Auth) => t.api.post<any>(`/contacts/${id}/validate-whatsapp`, {}, who);
  const validated = async (id: number, f: TenantFixture) => (await t.api.get<{ whatsappValidated: boolean }>(`/contacts/${id}`, f.admin)).body.whatsappValidated;

  beforeAll(async () => {
    t = await startWithFixtures();
    [a, b, none] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    sup = await createSuper(t);
    for (const f of [a, b]) expect((await t.api.put(`/plugins/channel-fixture/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a tenant with no connection that checks numbers hears ERR_NO_DEFAULT_CONNECTION; one whose connection is down, ERR_SESSION_NOT_INITIALIZED", async () => {
    expectError(await validate(await contact(none, mobile(2)), none.agent), 409, "ERR_NO_DEFAULT_CONNECTION");
    await fixtureConnection(a, false);
    const id = await contact(a, mobile(2));
    expectError(await validate(id, a.agent), 409, "ERR_SESSION_NOT_INITIALIZED");
    expect(await validated(id, a)).toBe(false);
  });

  it("a number with an account is marked validated; one without is ERR_CONTACT_NUMBER_INVALID and unmarked", async () => {
    await fixtureConnection(a, true);
    const yes = await contact(a, mobile(4));
    const ok = await validate(yes, a.agent);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: yes, whatsappValidated: true });
    expect(await validated(yes, a)).toBe(true);

    const no = await contact(a, mobile(7), { whatsappValidated: true });
    expect(await validated(no, a)).toBe(true);
    const refused = await validate(no, a.agent);
    expectError(refused, 400, "ERR_CONTACT_NUMBER_INVALID");
    expect(refused.body.data).toMatchObject({ field: "number", reason: "not-on-whatsapp" });
    expect(await validated(no, a)).toBe(false);
  });

  it("a contact without a number is ERR_CONTACT_NUMBER_INVALID without asking anyone", async () => {
    const id = await contact(a, null, { email: `sem-numero-${uid()}@example.com` });
    const r = await validate(id, a.agent);
    expectError(r, 400, "ERR_CONTACT_NUMBER_INVALID");
    expect(r.body.data).toMatchObject({ field: "number", reason: "invalid" });
  });

  it("the default connection is asked before the others", async () => {
    await fixtureConnection(b, true);
    const second = await fixtureConnection(b, true);
    expect((await t.api.put(`/connections/${second}`, { isDefault: true }, b.admin)).status).toBe(200);
    const r = await validate(await contact(b, mobile(9)), b.agent);
    expectError(r, 400, "ERR_CONTACT_NUMBER_INVALID");
    expect(r.body.data.connectionId).toBe(second);
  });

  it("another tenant's contact is 404, and is left as it was", async () => {
    const id = await contact(b, mobile(6));
    expectError(await validate(id, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
    expect(await validated(id, b)).toBe(false);
    expectError(await validate(987654321, a.admin), 404, "ERR_CONTACT_NOT_FOUND");
  });
});
