import { startCore, createTenant, TestCore, TenantFixture, Res, uid } from "./helpers";

/** Status and `error` code of the API's error body `{ error, message, title, data }`. */
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

type TagView = { id: number; name: string; color: string; active: boolean };

describe("tags on mariadb", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("an admin creates, gets, lists, updates and deletes a tag; everyone may read", async () => {
    const c = await t.api.post("/tags", { name: "  Cliente VIP ", color: "#FF8800" }, f.admin);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ name: "Cliente VIP", color: "#ff8800", active: true });
    const id = c.body.id as number;
    for (const who of [f.agent, f.supervisor, f.admin]) {
      expect((await t.api.get(`/tags/${id}`, who)).body).toMatchObject({ id, name: "Cliente VIP" });
      expect((await t.api.get("/tags", who)).body.map((x: TagView) => x.id)).toContain(id);
    }
    const u = await t.api.put(`/tags/${id}`, { name: "Cliente Ouro", color: "#00aa00", active: false }, f.admin);
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ id, name: "Cliente Ouro", color: "#00aa00", active: false });
    expect((await t.api.get("/tags?active=true", f.agent)).body.map((x: TagView) => x.id)).not.toContain(id);
    expect((await t.api.get("/tags?active=false", f.agent)).body.map((x: TagView) => x.id)).toEqual([id]);
    expect((await t.api.get("/tags?searchParam=ouro", f.agent)).body.map((x: TagView) => x.id)).toEqual([id]);
    const d = await t.api.del(`/tags/${id}`, f.admin);
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({ id, deleted: true });
    expectError(await t.api.get(`/tags/${id}`, f.admin), 404, "ERR_TAG_NOT_FOUND");
  });

  it("a tag without a colour gets the default; lists are sorted by name", async () => {
    const g = await createTenant(t, { tier: "PLUS" });
    for (const name of ["Zeta", "alfa", "Beta"]) expect((await t.api.post("/tags", { name }, g.admin)).status).toBe(201);
    const r = await t.api.get("/tags", g.agent);
    expect(r.body.map((x: TagView) => x.name)).toEqual(["alfa", "Beta", "Zeta"]);
    expect(r.body[0].color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("the name is unique per tenant, whatever the case: 409 ERR_TAG_EXISTS on create and rename", async () => {
    const name = `Dup ${uid()}`;
    expect((await t.api.post("/tags", { name }, f.admin)).status).toBe(201);
    for (const n of [name, name.toUpperCase(), ` ${name.toLowerCase()} `]) {
      const r = await t.api.post("/tags", { name: n }, f.admin);
      expectError(r, 409, "ERR_TAG_EXISTS");
      expect(r.body.data.field).toBe("name");
    }
    const x = await t.api.post("/tags", { name: `Other ${uid()}` }, f.admin);
    expectError(await t.api.put(`/tags/${x.body.id}`, { name: name.toLowerCase() }, f.admin), 409, "ERR_TAG_EXISTS");
    // Renaming a tag to its own name in another case is fine.
    expect((await t.api.put(`/tags/${x.body.id}`, { name: x.body.name.toUpperCase() }, f.admin)).status).toBe(200);
    // Another tenant may use the same name.
    expect((await t.api.post("/tags", { name }, other.admin)).status).toBe(201);
  });

  it("refuses a bad colour or an empty name with ERR_VALIDATION and the field", async () => {
    for (const [body, field] of [
      [{ name: "Cor", color: "red" }, "color"],
      [{ name: "Cor", color: "#12345" }, "color"],
      [{ name: "Cor", color: "#12345g" }, "color"],
      [{ name: "" }, "name"],
      [{ name: "x".repeat(101) }, "name"],
    ] as const) {
      const r = await t.api.post("/tags", body, f.admin);
      expectError(r, 400, "ERR_VALIDATION");
      expect(r.body.data.field).toBe(field);
    }
  });

  it("agents and supervisors get 403 ERR_NO_PERMISSION on writes", async () => {
    const tag = await t.api.post("/tags", { name: `Guarded ${uid()}` }, f.admin);
    for (const who of [f.agent, f.supervisor]) {
      expectError(await t.api.post("/tags", { name: `Nope ${uid()}` }, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.put(`/tags/${tag.body.id}`, { name: "Hacked" }, who), 403, "ERR_NO_PERMISSION");
      expectError(await t.api.del(`/tags/${tag.body.id}`, who), 403, "ERR_NO_PERMISSION");
    }
    expect((await t.api.get(`/tags/${tag.body.id}`, f.admin)).body.name).toBe(tag.body.name);
  });

  it("deleting a tag linked to contacts answers 409 ERR_TAG_HAS_CONTACTS unless force=true", async () => {
    const tag = await t.api.post("/tags", { name: `Linked ${uid()}` }, f.admin);
    const keep = await t.api.post("/tags", { name: `Kept ${uid()}` }, f.admin);
    const c1 = await t.api.post("/contacts", { name: "Linked 1", tagIds: [tag.body.id, keep.body.id] }, f.admin);
    await t.api.post("/contacts", { name: "Linked 2", tagIds: [tag.body.id] }, f.admin);
    const r = await t.api.del(`/tags/${tag.body.id}`, f.admin);
    expectError(r, 409, "ERR_TAG_HAS_CONTACTS");
    expect(r.body.data.count).toBe(2);
    expect((await t.api.get(`/tags/${tag.body.id}`, f.admin)).status).toBe(200);
    const forced = await t.api.del(`/tags/${tag.body.id}?force=true`, f.admin);
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ deleted: true, detached: 2 });
    expectError(await t.api.get(`/tags/${tag.body.id}`, f.admin), 404, "ERR_TAG_NOT_FOUND");
    expect((await t.api.get(`/contacts/${c1.body.id}`, f.admin)).body.tags.map((x: TagView) => x.id)).toEqual([keep.body.id]);
  });

  it("tenant B never sees tenant A's tags: 404 ERR_TAG_NOT_FOUND and empty lists", async () => {
    const tag = await t.api.post("/tags", { name: `Secret ${uid()}` }, f.admin);
    const id = tag.body.id;
    expectError(await t.api.get(`/tags/${id}`, other.admin), 404, "ERR_TAG_NOT_FOUND");
    expectError(await t.api.put(`/tags/${id}`, { name: "Stolen" }, other.admin), 404, "ERR_TAG_NOT_FOUND");
    expectError(await t.api.del(`/tags/${id}?force=true`, other.admin), 404, "ERR_TAG_NOT_FOUND");
    expect((await t.api.get("/tags", other.admin)).body.map((x: TagView) => x.id)).not.toContain(id);
    expect((await t.api.get(`/tags/${id}`, f.admin)).body.name).toBe(tag.body.name);
  });

  it("ensureByNames finds tags case-insensitively and creates the missing ones once, even concurrently", async () => {
    const g = await createTenant(t, { tier: "PLUS" });
    await t.api.post("/tags", { name: "Existente" }, g.admin);
    const results = (await Promise.all(
      Array.from({ length: 10 }, () => t.core.broker.call("tags.ensureByNames", { tenantId: g.tenantId, names: ["existente", "Nova", "Nova "] })),
    )) as Array<Record<string, number>>;
    expect(new Set(results.map((r) => r.Nova)).size).toBe(1);
    const tags = (await t.api.get("/tags", g.admin)).body.map((x: TagView) => x.name);
    expect(tags).toEqual(["Existente", "Nova"]);
  });
});
