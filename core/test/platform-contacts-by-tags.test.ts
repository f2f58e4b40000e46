/**
 * The core API's keyset pages of a tag's contacts (platform.contacts.byTags), on both dialects:
 * every contact carrying any of the tags once, in id order, page after page through `afterId`
 * with the last page's `nextAfterId` null; another tenant's tag or contacts
 * never answered.
 */
import type { PlatformTaggedContact } from "@openatende/plugin-sdk";
import { createTenant, DIALECTS, uid, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, probeCall, rejection, startWithProbe } from "./platform-setup";

describe.each(DIALECTS)("core API: a tag's contacts by keyset pages (%s)", (dialect) => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let tagA: number;
  let tagA2: number;
  let tagB: number;
  const tagged: number[] = [];
  let untagged: number;
  let otherTenants: number;

  const contact = async (f: TenantFixture, name: string, tagIds: number[]) => {
    const r = await t.api.post("/contacts", { name, number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`, tagIds }, f.admin);
    expect(r.status).toBe(201);
    return r.body.id as number;
  };
  const tag = async (f: TenantFixture) => {
    const r = await t.api.post("/tags", { name: `t${uid()}`, color: "#336699" }, f.admin);
    expect([200, 201]).toContain(r.status);
    return r.body.id as number;
  };

  beforeAll(async () => {
    const started = await startWithProbe({ dialect });
    t = started.t;
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, started.sup, x.tenantId);
    [tagA, tagA2, tagB] = [await tag(a), await tag(a), await tag(b)];
    for (let i = 0; i < 5; i++) tagged.push(await contact(a, `Ana ${i} ${uid()}`, [tagA]));
    tagged.push(await contact(a, `Both ${uid()}`, [tagA, tagA2]));
    tagged.push(await contact(a, `Second ${uid()}`, [tagA2]));
    untagged = await contact(a, `None ${uid()}`, []);
    otherTenants = await contact(b, `Other ${uid()}`, [tagB]);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const pages = async (tenantId: number, tagIds: number[], limit: number) => {
    const seen: PlatformTaggedContact[] = [];
    let afterId: number | undefined;
    let calls = 0;
    for (;;) {
      const r = await probeCall(t, "platform.contacts.byTags", { tenantId, tagIds, afterId, limit });
      calls++;
      seen.push(...r.rows);
      if (r.nextAfterId === null) return { seen, calls };
      expect(r.nextAfterId).toBe(r.rows[r.rows.length - 1].id);
      afterId = r.nextAfterId;
    }
  };

  it("pages every contact of any of the tags once, in id order", async () => {
    const { seen, calls } = await pages(a.tenantId, [tagA, tagA2], 2);
    expect(seen.map((c) => c.id)).toEqual([...tagged].sort((x, y) => x - y));
    expect(calls).toBe(4); // 2 + 2 + 2 + 1
    expect(seen.map((c) => c.id)).not.toContain(untagged);
    expect(seen[0]).toEqual({ id: seen[0].id, name: expect.stringMatching(/^Ana 0 /), number: expect.stringMatching(/^55119/) });
    expect((await pages(a.tenantId, [tagA], 1000)).seen.map((c) => c.id)).toEqual(tagged.slice(0, 6));
  });

  it("never answers another tenant's tag or contacts", async () => {
    expect(await probeCall(t, "platform.contacts.byTags", { tenantId: a.tenantId, tagIds: [tagB] })).toEqual({ rows: [], nextAfterId: null });
    const both = await probeCall(t, "platform.contacts.byTags", { tenantId: b.tenantId, tagIds: [tagA, tagB] });
    expect(both.rows.map((c: PlatformTaggedContact) => c.id)).toEqual([otherTenants]);
  });

  it("refuses no tags and an oversized page", async () => {
    expect((await rejection(probeCall(t, "platform.contacts.byTags", { tenantId: a.tenantId, tagIds: [] }))).type).toBe("VALIDATION_ERROR");
    expect((await rejection(probeCall(t, "platform.contacts.byTags", { tenantId: a.tenantId, tagIds: [tagA], limit: 5001 }))).type).toBe("VALIDATION_ERROR");
  });
});
