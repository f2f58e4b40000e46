/**
 * The core API's contact filters that reports use (birthdays of the month, by state) on both
 * dialects: platform.contacts.list answers each contact's birthday and state, filters by the
 * birthday's month and by a list of states, and never crosses to another tenant's contacts.
 */
import type { PlatformContact } from "@openatende/plugin-sdk";
import { createTenant, DIALECTS, uid, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, probeCall, rejection, startWithProbe } from "./platform-setup";

describe.each(DIALECTS)("core API: contacts by birthday month and state (%s)", (dialect) => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  const ids: Record<string, number> = {};

  const contact = async (f: TenantFixture, name: string, extra: Record<string, unknown>) => {
    const r = await t.api.post("/contacts", { name, ...extra }, f.admin);
    expect(r.status).toBe(201);
    return r.body.id as number;
  };

  beforeAll(async () => {
    const started = await startWithProbe({ dialect });
    t = started.t;
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, started.sup, x.tenantId);
    ids.may = await contact(a, `Ana ${uid()}`, { birthday: "1990-05-17", state: "SP" });
    ids.dec = await contact(a, `Bia ${uid()}`, { birthday: "1985-12-31", state: "RJ" });
    ids.none = await contact(a, `Caio ${uid()}`, {});
    ids.otherMay = await contact(b, `Davi ${uid()}`, { birthday: "2000-05-01", state: "SP" });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const list = async (params: Record<string, unknown>) => {
    const r = await probeCall(t, "platform.contacts.list", { tenantId: a.tenantId, ...params });
    return r.rows.map((c: PlatformContact) => c.id).sort((x, y) => x - y);
  };

  it("answers each contact's birthday and state", async () => {
    expect(await probeCall(t, "platform.contacts.get", { tenantId: a.tenantId, id: ids.may })).toMatchObject({ birthday: "1990-05-17", state: "SP" });
    expect(await probeCall(t, "platform.contacts.get", { tenantId: a.tenantId, id: ids.none })).toMatchObject({ birthday: null, state: null });
  });

  it("filters by the birthday's month and by states, only the tenant's contacts", async () => {
    expect(await list({ birthdayMonth: 5 })).toEqual([ids.may]);
    expect(await list({ birthdayMonth: 12 })).toEqual([ids.dec]);
    expect(await list({ birthdayMonth: 1 })).toEqual([]);
    expect(await list({ states: ["SP"] })).toEqual([ids.may]);
    expect(await list({ states: ["SP", "RJ"] })).toEqual([ids.may, ids.dec].sort((x, y) => x - y));
    expect(await list({ states: [] })).toEqual([]);
    expect(await list({ birthdayMonth: 12, states: ["SP"] })).toEqual([]);
    const r = await probeCall(t, "platform.contacts.list", { tenantId: a.tenantId, birthdayMonth: 5 });
    expect(r.rows[0]).toMatchObject({ birthday: "1990-05-17", state: "SP" });
  });

  it("settings.get answers the tenant's time zone", async () => {
    expect(await probeCall(t, "platform.settings.get", { tenantId: a.tenantId })).toMatchObject({ timeZone: "America/Sao_Paulo" });
  });

  it("a month outside 1–12 is a validation error", async () => {
    expect((await rejection(probeCall(t, "platform.contacts.list", { tenantId: a.tenantId, birthdayMonth: 13 }))).type).toBe("VALIDATION_ERROR");
  });
});
