import { QueryTypes } from "sequelize";
import { startCore, createTenant, TestCore, TenantFixture, Res, Auth, PASSWORD, uid } from "./helpers";
import { FREE_PLAN_MAX_CONTACTS } from "../src/licence/plans";

/** Status and `error` code of the API's error body `{ error, message, title, data }`. */
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

/** Valid, distinct Brazilian mobile numbers (E.164 digits) and their typed form. */
let seq = 0;
function mobile(): { digits: string; typed: string } {
  const n = String(70000000 + seq++);
  return { digits: `55119${n}`, typed: `(11) 9${n.slice(0, 4)}-${n.slice(4)}` };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitImport(t: TestCore, auth: Auth, importId: string): Promise<Res> {
  for (let i = 0; i < 200; i++) {
    const r = await t.api.get(`/contacts/import/${importId}`, auth);
    if (r.status !== 200 || r.body.status === "completed" || r.body.status === "failed") return r;
    await sleep(100);
  }
  throw new Error(`import ${importId} did not finish`);
}

async function countRows(t: TestCore, sql: string, replacements: unknown[]): Promise<number> {
  const [row] = await t.core.sequelize.query<{ n: number }>(sql, { replacements, type: QueryTypes.SELECT });
  return Number(row.n);
}

/** Rows written straight to the table (test setup only: fast, and with chosen creation dates). */
async function insertContacts(t: TestCore, tenantId: number, rows: Array<{ name: string; number?: string | null; email?: string | null; createdAt?: Date }>) {
  for (let i = 0; i < rows.length; i += 250) {
    const chunk = rows.slice(i, i + 250);
    const now = new Date();
    await t.core.sequelize.query(
      `INSERT INTO contacts (tenantId, name, number, email, whatsappValidated, createdAt, updatedAt) VALUES ${chunk.map(() => "(?, ?, ?, ?, 0, ?, ?)").join(", ")}`,
      { replacements: chunk.flatMap((r) => [tenantId, r.name, r.number ?? null, r.email ?? null, r.createdAt ?? now, r.createdAt ?? now]) },
    );
  }
}

describe("contacts on mariadb", () => {
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

  describe("create, get, update", () => {
    it("creates a contact with every field of the spec, normalising number, document, e-mail and birthday", async () => {
      const tag = await t.api.post("/tags", { name: `Cliente ${uid()}`, color: "#AA0011" }, f.admin);
      const phone = mobile();
      const body = {
        name: "  Ana Souza ",
        firstName: "Ana",
        lastName: "Souza",
        businessName: "Souza ME",
        document: "529.982.247-25",
        birthday: "1990-05-17",
        gender: "female",
        maritalStatus: "married",
        source: "site",
        number: phone.typed,
        email: "Ana.Souza@Example.COM",
        instagram: "@anasouza",
        telegramId: "123456789",
        website: "https://ana.example.com",
        category: "VIP",
        state: "SP",
        additionalInfo: [{ description: "Plano", info: "Ouro" }],
        whatsappValidated: true,
        profilePicUrl: "https://cdn.example.com/ana.png",
        tagIds: [tag.body.id],
        walletUserIds: [f.agent.userId],
        unknownField: "dropped",
      };
      const c = await t.api.post("/contacts", body, f.agent);
      expect(c.status).toBe(201);
      expect(c.body).toMatchObject({
        name: "Ana Souza",
        firstName: "Ana",
        lastName: "Souza",
        businessName: "Souza ME",
        document: "52998224725",
        birthday: "1990-05-17",
        gender: "female",
        maritalStatus: "married",
        source: "site",
        number: phone.digits,
        email: "ana.souza@example.com",
        instagram: "@anasouza",
        telegramId: "123456789",
        website: "https://ana.example.com",
        category: "VIP",
        state: "SP",
        additionalInfo: [{ description: "Plano", info: "Ouro" }],
        whatsappValidated: true,
        profilePicUrl: "https://cdn.example.com/ana.png",
        tags: [{ id: tag.body.id, name: tag.body.name, color: "#aa0011" }],
        wallet: [f.agent.userId],
      });
      expect(c.body.unknownField).toBeUndefined();
      expect(typeof c.body.createdAt).toBe("string");
      const g = await t.api.get(`/contacts/${c.body.id}`, f.agent);
      expect(g.status).toBe(200);
      expect(g.body).toMatchObject({ ...c.body, updatedAt: expect.any(String), notes: [] });
    });

    it("normalises numbers typed in several ways to E.164 digits (default country BR)", async () => {
      const cases: Array<[string, string]> = [
        ["(11) 98888-7777", "5511988887777"],
        ["+55 21 98765-4321", "5521987654321"],
        ["5531987654321", "5531987654321"],
        ["+1 212 555 1234", "12125551234"],
        ["447911123456", "447911123456"],
      ];
      for (const [typed, digits] of cases) {
        const r = await t.api.post("/contacts", { name: `N ${typed}`, number: typed }, f.admin);
        expect({ typed, status: r.status, number: r.body.number }).toEqual({ typed, status: 201, number: digits });
      }
      // A CNPJ is a valid document too.
      const cnpj = await t.api.post("/contacts", { name: "Empresa", document: "11.222.333/0001-81" }, f.admin);
      expect(cnpj.body.document).toBe("11222333000181");
    });

    it("refuses invalid values with the catalogue code and the field", async () => {
      const cases: Array<[Record<string, unknown>, number, string, string]> = [
        [{ name: "X", number: "12345" }, 400, "ERR_CONTACT_NUMBER_INVALID", "number"],
        [{ name: "X", number: "11 9888a-7777" }, 400, "ERR_CONTACT_NUMBER_INVALID", "number"],
        [{ name: "X", number: "(11) 8888-777" }, 400, "ERR_CONTACT_NUMBER_INVALID", "number"],
        [{ name: "X", document: "123.456.789-00" }, 400, "ERR_VALIDATION", "document"],
        [{ name: "X", document: "11.222.333/0001-00" }, 400, "ERR_VALIDATION", "document"],
        [{ name: "X", birthday: "1990-02-30" }, 400, "ERR_VALIDATION", "birthday"],
        [{ name: "X", birthday: "2999-01-01" }, 400, "ERR_VALIDATION", "birthday"],
        [{ name: "X", gender: "robot" }, 400, "ERR_VALIDATION", "gender"],
        [{ name: "X", maritalStatus: "complicated" }, 400, "ERR_VALIDATION", "maritalStatus"],
        [{ name: "X", email: "not-an-email" }, 400, "ERR_VALIDATION", "email"],
        [{ name: "X", profilePicUrl: "javascript:alert(1)" }, 400, "ERR_VALIDATION", "profilePicUrl"],
        [{ name: "   " }, 400, "ERR_VALIDATION", "name"],
        [{ number: mobile().typed }, 400, "ERR_VALIDATION", "name"],
        [{ name: "X".repeat(201) }, 400, "ERR_VALIDATION", "name"],
        [{ name: "X", additionalInfo: [{ description: "a" }] }, 400, "ERR_VALIDATION", "additionalInfo[0].info"],
      ];
      for (const [body, status, code, field] of cases) {
        const r = await t.api.post("/contacts", body, f.admin);
        expectError(r, status, code);
        expect({ body, field: r.body.data.field }).toEqual({ body, field });
      }
    });

    it("a number is unique per tenant however it is typed; NULL numbers repeat; another tenant may reuse it", async () => {
      const p = mobile();
      expect((await t.api.post("/contacts", { name: "First", number: p.typed }, f.admin)).status).toBe(201);
      for (const typed of [p.digits, `+${p.digits}`, p.typed]) {
        const r = await t.api.post("/contacts", { name: "Again", number: typed }, f.agent);
        expectError(r, 409, "ERR_CONTACT_ALREADY_EXISTS");
        expect(r.body.data.field).toBe("number");
      }
      for (let i = 0; i < 3; i++) expect((await t.api.post("/contacts", { name: `No number ${i}` }, f.admin)).status).toBe(201);
      expect((await t.api.post("/contacts", { name: "Other tenant", number: p.typed }, other.admin)).status).toBe(201);
      // Changing another contact to the taken number is refused too, and changes nothing.
      const c = await t.api.post("/contacts", { name: "Mover", number: mobile().typed }, f.admin);
      expectError(await t.api.put(`/contacts/${c.body.id}`, { number: p.digits }, f.admin), 409, "ERR_CONTACT_ALREADY_EXISTS");
      expect((await t.api.get(`/contacts/${c.body.id}`, f.admin)).body.number).toBe(c.body.number);
    });

    it("updates fields; a new number clears the WhatsApp-validated flag; empty text clears a field", async () => {
      const c = await t.api.post("/contacts", { name: "Bruno", number: mobile().typed, whatsappValidated: true, category: "Lead" }, f.admin);
      const p = mobile();
      const u = await t.api.put(`/contacts/${c.body.id}`, { name: "Bruno Lima", number: p.typed, category: "", gender: "male" }, f.agent);
      expect(u.status).toBe(200);
      expect(u.body).toMatchObject({ id: c.body.id, name: "Bruno Lima", number: p.digits, whatsappValidated: false, category: null, gender: "male" });
      expectError(await t.api.put(`/contacts/${c.body.id}`, { name: "" }, f.admin), 400, "ERR_VALIDATION");
      expectError(await t.api.put(`/contacts/${c.body.id}`, { number: "abc" }, f.admin), 400, "ERR_CONTACT_NUMBER_INVALID");
      // Clearing the number is allowed.
      expect((await t.api.put(`/contacts/${c.body.id}`, { number: null }, f.admin)).body.number).toBeNull();
    });

    it("another tenant's contact answers 404 ERR_CONTACT_NOT_FOUND everywhere", async () => {
      const c = await t.api.post("/contacts", { name: "Private", number: mobile().typed }, f.admin);
      const id = c.body.id;
      expectError(await t.api.get(`/contacts/${id}`, other.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.put(`/contacts/${id}`, { name: "Stolen" }, other.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.del(`/contacts/${id}`, other.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.post(`/contacts/${id}/notes`, { title: "x", description: "y" }, other.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.put(`/contacts/${id}/tags`, { tagIds: [] }, other.admin), 404, "ERR_CONTACT_NOT_FOUND");
      expectError(await t.api.put(`/contacts/${id}/wallet`, { userIds: [] }, other.admin), 404, "ERR_CONTACT_NOT_FOUND");
      const list = await t.api.get("/contacts?searchParam=Private", other.admin);
      expect(list.body.contacts).toEqual([]);
      expect((await t.api.get(`/contacts/${id}`, f.admin)).body.name).toBe("Private");
    });
  });

  describe("list and search", () => {
    let g: TenantFixture;
    beforeAll(async () => {
      g = await createTenant(t, { tier: "PLUS" });
    });

    it("search needs at least 2 characters: 400 ERR_SEARCH_TOO_SHORT", async () => {
      for (const q of ["a", " b ", "1"]) {
        const r = await t.api.get(`/contacts?searchParam=${encodeURIComponent(q)}`, g.agent);
        expectError(r, 400, "ERR_SEARCH_TOO_SHORT");
        expect(r.body.data.field).toBe("searchParam");
      }
      expect((await t.api.get("/contacts?searchParam=", g.agent)).status).toBe(200);
    });

    it("searches name, number and e-mail, case-insensitively and literally", async () => {
      const p = mobile();
      const a = await t.api.post("/contacts", { name: "Carla Mendes", number: p.typed, email: "carla@firma.test" }, g.admin);
      const b = await t.api.post("/contacts", { name: "Pedro 100%_off", email: "pedro@outra.test" }, g.admin);
      const ids = async (q: string) => (await t.api.get(`/contacts?searchParam=${encodeURIComponent(q)}`, g.agent)).body.contacts.map((c: { id: number }) => c.id);
      expect(await ids("carla")).toEqual([a.body.id]);
      expect(await ids("MENDES")).toEqual([a.body.id]);
      expect(await ids(p.digits.slice(-6))).toEqual([a.body.id]);
      expect(await ids(`${p.digits.slice(-8, -4)}-${p.digits.slice(-4)}`)).toEqual([a.body.id]);
      expect(await ids("firma.test")).toEqual([a.body.id]);
      expect(await ids("%_")).toEqual([b.body.id]);
      expect(await ids("zz")).toEqual([]);
    });

    it("pages by name with hasMore (pageSize at most 100)", async () => {
      await insertContacts(
        t,
        g.tenantId,
        Array.from({ length: 25 }, (_, i) => ({ name: `Paged ${String(i).padStart(2, "0")}` })),
      );
      const names: string[] = [];
      let page = 1;
      for (;;) {
        const r = await t.api.get(`/contacts?searchParam=Paged&pageSize=10&pageNumber=${page}`, g.agent);
        expect(r.status).toBe(200);
        names.push(...r.body.contacts.map((c: { name: string }) => c.name));
        expect(r.body.hasMore).toBe(page < 3);
        if (!r.body.hasMore) break;
        page++;
      }
      expect(names).toEqual(Array.from({ length: 25 }, (_, i) => `Paged ${String(i).padStart(2, "0")}`));
      expectError(await t.api.get("/contacts?pageSize=101", g.agent), 400, "ERR_VALIDATION");
      const exact = await t.api.get("/contacts?searchParam=Paged&pageSize=25", g.agent);
      expect(exact.body.contacts).toHaveLength(25);
      expect(exact.body.hasMore).toBe(false);
    });

    it("filters by tags (any of them) and by wallet owner", async () => {
      const t1 = await t.api.post("/tags", { name: `T1 ${uid()}` }, g.admin);
      const t2 = await t.api.post("/tags", { name: `T2 ${uid()}` }, g.admin);
      const x = await t.api.post("/contacts", { name: "Filter X", tagIds: [t1.body.id] }, g.admin);
      const y = await t.api.post("/contacts", { name: "Filter Y", tagIds: [t2.body.id], walletUserIds: [g.agent.userId] }, g.admin);
      await t.api.post("/contacts", { name: "Filter Z" }, g.admin);
      const ids = async (qs: string) => (await t.api.get(`/contacts?searchParam=Filter&${qs}`, g.agent)).body.contacts.map((c: { id: number }) => c.id);
      expect(await ids(`tags[]=${t1.body.id}`)).toEqual([x.body.id]);
      expect(await ids(`tags=${t1.body.id},${t2.body.id}`)).toEqual([x.body.id, y.body.id]);
      expect(await ids(`tags[]=${t1.body.id}&tags[]=${t2.body.id}`)).toEqual([x.body.id, y.body.id]);
      expect(await ids(`walletUserId=${g.agent.userId}`)).toEqual([y.body.id]);
      expect(await ids(`walletUserId=${g.admin.userId}`)).toEqual([]);
      expectError(await t.api.get("/contacts?tags=abc", g.agent), 400, "ERR_VALIDATION");
    });
  });

  describe("notes, tags and wallet", () => {
    it("adds notes (own table, newest first) and deletes them: the author or an admin", async () => {
      const c = await t.api.post("/contacts", { name: "Noted" }, f.admin);
      const n1 = await t.api.post(`/contacts/${c.body.id}/notes`, { title: "Primeira", description: "Ligou ontem" }, f.agent);
      expect(n1.status).toBe(201);
      expect(n1.body).toMatchObject({ title: "Primeira", description: "Ligou ontem", userId: f.agent.userId, createdAt: expect.any(String) });
      await sleep(1100); // DATETIME keeps seconds: make the order visible
      const n2 = await t.api.post(`/contacts/${c.body.id}/notes`, { title: "Segunda", description: "Quer proposta" }, f.supervisor);
      const g = await t.api.get(`/contacts/${c.body.id}`, f.agent);
      expect(g.body.notes.map((n: { id: number }) => n.id)).toEqual([n2.body.id, n1.body.id]);
      expectError(await t.api.post(`/contacts/${c.body.id}/notes`, { title: "", description: "x" }, f.agent), 400, "ERR_VALIDATION");
      // Someone else's note: 403 for a non-admin; the admin may remove it.
      expectError(await t.api.del(`/contacts/${c.body.id}/notes/${n2.body.id}`, f.agent), 403, "ERR_NO_PERMISSION");
      expect((await t.api.del(`/contacts/${c.body.id}/notes/${n1.body.id}`, f.agent)).status).toBe(200);
      expect((await t.api.del(`/contacts/${c.body.id}/notes/${n2.body.id}`, f.admin)).status).toBe(200);
      expectError(await t.api.del(`/contacts/${c.body.id}/notes/${n2.body.id}`, f.admin), 404, "ERR_NOT_FOUND");
      expect((await t.api.get(`/contacts/${c.body.id}`, f.agent)).body.notes).toEqual([]);
    });

    it("a note id of another contact answers 404", async () => {
      const a = await t.api.post("/contacts", { name: "Note A" }, f.admin);
      const b = await t.api.post("/contacts", { name: "Note B" }, f.admin);
      const n = await t.api.post(`/contacts/${a.body.id}/notes`, { title: "t", description: "d" }, f.admin);
      expectError(await t.api.del(`/contacts/${b.body.id}/notes/${n.body.id}`, f.admin), 404, "ERR_NOT_FOUND");
    });

    it("replaces tags; a tag of another tenant (or none) answers 404 ERR_TAG_NOT_FOUND", async () => {
      const c = await t.api.post("/contacts", { name: "Tagged" }, f.admin);
      const a = await t.api.post("/tags", { name: `A ${uid()}` }, f.admin);
      const b = await t.api.post("/tags", { name: `B ${uid()}` }, f.admin);
      const foreign = await t.api.post("/tags", { name: `Foreign ${uid()}` }, other.admin);
      const r = await t.api.put(`/contacts/${c.body.id}/tags`, { tagIds: [b.body.id, a.body.id, a.body.id] }, f.agent);
      expect(r.status).toBe(200);
      expect(r.body.tags.map((x: { id: number }) => x.id).sort()).toEqual([a.body.id, b.body.id].sort());
      const bad = await t.api.put(`/contacts/${c.body.id}/tags`, { tagIds: [a.body.id, foreign.body.id] }, f.agent);
      expectError(bad, 404, "ERR_TAG_NOT_FOUND");
      expect(bad.body.data.ids).toEqual([foreign.body.id]);
      expectError(await t.api.put(`/contacts/${c.body.id}/tags`, { tagIds: [999999] }, f.agent), 404, "ERR_TAG_NOT_FOUND");
      expect((await t.api.get(`/contacts/${c.body.id}`, f.agent)).body.tags).toHaveLength(2);
      expect((await t.api.put(`/contacts/${c.body.id}/tags`, { tagIds: [] }, f.agent)).body.tags).toEqual([]);
    });

    it("sets the wallet to users of the tenant only", async () => {
      const c = await t.api.post("/contacts", { name: "Wallet" }, f.admin);
      const r = await t.api.put(`/contacts/${c.body.id}/wallet`, { userIds: [f.supervisor.userId, f.agent.userId] }, f.admin);
      expect(r.status).toBe(200);
      expect(r.body.wallet).toEqual([f.agent.userId, f.supervisor.userId].sort((x, y) => x - y));
      const bad = await t.api.put(`/contacts/${c.body.id}/wallet`, { userIds: [f.agent.userId, other.agent.userId] }, f.admin);
      expectError(bad, 404, "ERR_USER_NOT_FOUND");
      expect(bad.body.data.ids).toEqual([other.agent.userId]);
      expectError(await t.api.put(`/contacts/${c.body.id}/wallet`, { userIds: [987654] }, f.admin), 404, "ERR_USER_NOT_FOUND");
      expectError(await t.api.post("/contacts", { name: "W", walletUserIds: [other.admin.userId] }, f.admin), 404, "ERR_USER_NOT_FOUND");
      expect((await t.api.get(`/contacts/${c.body.id}`, f.admin)).body.wallet).toHaveLength(2);
    });

    it("a deleted user's wallet goes to the user who receives their tickets", async () => {
      const u = await t.api.post("/users", { name: "Leaving", email: `leaving-${uid()}@t.test`, password: PASSWORD, queues: [f.queueIds[0]] }, f.admin);
      const c = await t.api.post("/contacts", { name: "Orphan wallet", walletUserIds: [u.body.id] }, f.admin);
      expect((await t.api.del(`/users/${u.body.id}?newUserId=${f.supervisor.userId}`, f.admin)).status).toBe(200);
      for (let i = 0; i < 20; i++) {
        if ((await t.api.get(`/contacts/${c.body.id}`, f.admin)).body.wallet[0] === f.supervisor.userId) break;
        await sleep(50);
      }
      expect((await t.api.get(`/contacts/${c.body.id}`, f.admin)).body.wallet).toEqual([f.supervisor.userId]);
    });
  });

  describe("delete", () => {
    it("deletes a contact with its notes, tags, wallet and identities", async () => {
      const tag = await t.api.post("/tags", { name: `Del ${uid()}` }, f.admin);
      const c = await t.api.post("/contacts", { name: "To delete", tagIds: [tag.body.id], walletUserIds: [f.agent.userId] }, f.admin);
      await t.api.post(`/contacts/${c.body.id}/notes`, { title: "n", description: "d" }, f.admin);
      await t.core.broker.call("contacts.resolveInbound", { tenantId: f.tenantId, channelType: "telegram", externalId: `del-${uid()}` });
      const d = await t.api.del(`/contacts/${c.body.id}`, f.agent);
      expect(d.status).toBe(200);
      expect(d.body).toEqual({ id: c.body.id, deleted: true });
      expectError(await t.api.get(`/contacts/${c.body.id}`, f.admin), 404, "ERR_CONTACT_NOT_FOUND");
      for (const table of ["contact_tags", "contact_wallets", "contact_notes", "contact_identities"]) {
        expect({ table, n: await countRows(t, `SELECT COUNT(*) AS n FROM ${table} WHERE contactId = ?`, [c.body.id]) }).toEqual({ table, n: 0 });
      }
      // The tag itself stays.
      expect((await t.api.get(`/tags/${tag.body.id}`, f.admin)).status).toBe(200);
    });
  });

  describe("hideContactInfo", () => {
    let h: TenantFixture;
    let id: number;
    let phone: string;
    beforeAll(async () => {
      h = await createTenant(t, { tier: "PLUS" });
      const p = mobile();
      phone = p.digits;
      id = (await t.api.post("/contacts", { name: "Hidden Person", number: p.typed, email: "hidden@person.test" }, h.admin)).body.id;
      const now = new Date();
      // The settings service's own table (its PUT /settings/:key accepts only known keys).
      await t.core.sequelize.query("INSERT INTO settings (tenantId, `key`, value, createdAt, updatedAt) VALUES (?, 'hideContactInfo', 'true', ?, ?)", {
        replacements: [h.tenantId, now, now],
      });
    });

    it("hides phone and e-mail from non-admins in get, list and writes; admins still see them", async () => {
      for (const who of [h.agent, h.supervisor]) {
        const g = await t.api.get(`/contacts/${id}`, who);
        expect(g.body).toMatchObject({ id, name: "Hidden Person", number: null, email: null, contactInfoHidden: true });
        const l = await t.api.get("/contacts?searchParam=Hidden", who);
        expect(l.body.contacts).toEqual([expect.objectContaining({ id, number: null, email: null })]);
        // Searching by the hidden values finds nothing.
        expect((await t.api.get(`/contacts?searchParam=${phone.slice(-8)}`, who)).body.contacts).toEqual([]);
        expect((await t.api.get("/contacts?searchParam=person.test", who)).body.contacts).toEqual([]);
      }
      const a = await t.api.get(`/contacts/${id}`, h.admin);
      expect(a.body).toMatchObject({ number: phone, email: "hidden@person.test" });
      expect(a.body.contactInfoHidden).toBeUndefined();
      expect((await t.api.get(`/contacts?searchParam=${phone.slice(-8)}`, h.admin)).body.contacts).toHaveLength(1);
    });

    it("a non-admin's update echoing the hidden nulls keeps them; changing them answers 403", async () => {
      const u = await t.api.put(`/contacts/${id}`, { name: "Hidden Person 2", number: null, email: null }, h.agent);
      expect(u.status).toBe(200);
      expect(u.body.number).toBeNull();
      expectError(await t.api.put(`/contacts/${id}`, { number: mobile().typed }, h.agent), 403, "ERR_NO_PERMISSION");
      expect((await t.api.get(`/contacts/${id}`, h.admin)).body).toMatchObject({ name: "Hidden Person 2", number: phone, email: "hidden@person.test" });
    });
  });

  describe("export and import", () => {
    let e: TenantFixture;
    beforeAll(async () => {
      e = await createTenant(t, { tier: "PLUS" });
    });

    it("non-admins get 403 on import, import status, export and delete-duplicates", async () => {
      for (const who of [e.agent, e.supervisor]) {
        expectError(await t.api.post("/contacts/import", { csv: "name\nx" }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.get("/contacts/import/abc", who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.get("/contacts/export", who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.post("/contacts/delete-duplicates", {}, who), 403, "ERR_NO_PERMISSION");
      }
    });

    it("exports the tenant's contacts as CSV with a header, as a download", async () => {
      const tag = await t.api.post("/tags", { name: "Exportada" }, e.admin);
      const p = mobile();
      const c = await t.api.post("/contacts", { name: "Export, \"Quoted\"", number: p.typed, email: "exp@x.test", tagIds: [tag.body.id], birthday: "1985-01-02" }, e.admin);
      await t.api.post("/contacts", { name: "=HYPERLINK(\"x\")" }, e.admin);
      await t.api.post("/contacts", { name: "Not mine", number: mobile().typed }, other.admin);
      const r = await t.api.get("/contacts/export", e.admin);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      expect(r.headers.get("content-disposition")).toMatch(/^attachment; filename="contacts-\d{4}-\d{2}-\d{2}\.csv"$/);
      const text = r.body as string;
      const lines = text.trim().split("\r\n");
      expect(lines[0]).toBe(
        "id,name,firstName,lastName,businessName,document,birthday,gender,maritalStatus,source,number,email,instagram,telegramId,website,category,state,tags,wallet,whatsappValidated,profilePicUrl,createdAt",
      );
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(`${c.body.id},"Export, ""Quoted""",,,,,1985-01-02,,,,${p.digits},exp@x.test,`);
      expect(lines[1]).toContain(",Exportada,");
      // Formula-looking cells are neutralised.
      expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
      expect(text).not.toContain("Not mine");
    });

    it("imports a CSV with good and bad rows: progress reaches the total, good rows are kept, bad rows are listed with row and field", async () => {
      const existing = mobile();
      await t.api.post("/contacts", { name: "Already here", number: existing.typed }, e.admin);
      const [p1, p2, p3, dup] = [mobile(), mobile(), mobile(), mobile()];
      const csv = [
        "Nome,Telefone,E-mail,CPF,Aniversario,Tags,Coluna desconhecida",
        `Joao Import,${p1.typed},joao@imp.test,529.982.247-25,17/05/1990,Importados;VIP,x`,
        `Maria Import,${p2.digits},,,,Importados,`,
        `Sem Numero Import,,semnumero@imp.test,,,,`,
        `Bad Number,12345,,,,,`,
        `Bad Email,${p3.typed},not-an-email,,,,`,
        `,${mobile().typed},,,,,`,
        `Dup One,${dup.typed},,,,,`,
        `Dup Two,+${dup.digits},,,,,`,
        `Existing,${existing.digits},,,,,`,
        `Bad Doc and Date,${mobile().typed},,111.111.111-11,31/02/2000,,`,
        "",
      ].join("\n");
      const start = await t.api.post("/contacts/import", { csv }, e.admin);
      expect(start.status).toBe(202);
      expect(start.body).toMatchObject({ importId: expect.any(String), total: 10 });
      const done = await waitImport(t, e.admin, start.body.importId);
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ importId: start.body.importId, status: "completed", processed: 10, total: 10, imported: 4, errorCount: 7 });
      expect(done.body.errors).toEqual([
        { row: 5, field: "number", code: "ERR_CONTACT_NUMBER_INVALID" },
        { row: 6, field: "email", code: "ERR_VALIDATION" },
        { row: 7, field: "name", code: "ERR_VALIDATION" },
        { row: 9, field: "number", code: "ERR_CONTACT_DUPLICATED" },
        { row: 10, field: "number", code: "ERR_CONTACT_ALREADY_EXISTS" },
        { row: 11, field: "document", code: "ERR_VALIDATION" },
        { row: 11, field: "birthday", code: "ERR_VALIDATION" },
      ]);
      const list = await t.api.get("/contacts?searchParam=Import&pageSize=100", e.admin);
      expect(list.body.contacts.map((c: { name: string }) => c.name).sort()).toEqual(["Joao Import", "Maria Import", "Sem Numero Import"]);
      const joao = list.body.contacts.find((c: { name: string }) => c.name === "Joao Import");
      expect(joao).toMatchObject({ number: p1.digits, email: "joao@imp.test", document: "52998224725", birthday: "1990-05-17", source: "import" });
      expect(joao.tags.map((x: { name: string }) => x.name)).toEqual(["Importados", "VIP"]);
      expect((await t.api.get(`/contacts?searchParam=${p2.digits}`, e.admin)).body.contacts).toHaveLength(1);
      expect((await t.api.get("/contacts?searchParam=Dup", e.admin)).body.contacts.map((c: { name: string }) => c.name)).toEqual(["Dup One"]);
      // The tags were created once, by name.
      const tags = (await t.api.get("/tags", e.admin)).body.map((x: { name: string }) => x.name);
      expect(tags.filter((n: string) => n === "Importados")).toHaveLength(1);
    });

    it("an export reads back through the import (same columns)", async () => {
      const x = await createTenant(t, { tier: "PLUS" });
      const p = mobile();
      await t.api.post("/contacts", { name: "Round Trip", number: p.typed, email: "rt@x.test", gender: "male" }, e.admin);
      const csv = (await t.api.get("/contacts/export", e.admin)).body as string;
      const start = await t.api.post("/contacts/import", { csv }, x.admin);
      const done = await waitImport(t, x.admin, start.body.importId);
      expect(done.body.status).toBe("completed");
      expect(done.body.errors).toEqual([]);
      expect(done.body.imported).toBe(done.body.total);
      const r = await t.api.get("/contacts?searchParam=Round", x.admin);
      expect(r.body.contacts[0]).toMatchObject({ number: p.digits, email: "rt@x.test", gender: "male" });
    });

    it("refuses a file without a usable header with ERR_VALIDATION on csv", async () => {
      for (const csv of ["foo,bar\n1,2", "   "]) {
        const r = await t.api.post("/contacts/import", { csv }, e.admin);
        expectError(r, 400, "ERR_VALIDATION");
        expect(r.body.data.field).toBe("csv");
      }
    });

    it("another tenant's import (or an unknown id) answers 404 ERR_IMPORT_NOT_FOUND", async () => {
      const start = await t.api.post("/contacts/import", { csv: `name,number\nMine,${mobile().typed}` }, e.admin);
      expect(start.status).toBe(202);
      expectError(await t.api.get(`/contacts/import/${start.body.importId}`, other.admin), 404, "ERR_IMPORT_NOT_FOUND");
      expectError(await t.api.get("/contacts/import/does-not-exist", e.admin), 404, "ERR_IMPORT_NOT_FOUND");
      expect((await waitImport(t, e.admin, start.body.importId)).body.status).toBe("completed");
    });
  });

  describe("delete duplicates", () => {
    it("merges contacts whose number (9th-digit variants included) or e-mail repeat, keeping the oldest and moving tags, notes and wallet", async () => {
      const d = await createTenant(t, { tier: "PLUS" });
      const tagA = await t.api.post("/tags", { name: "Dup A" }, d.admin);
      const tagB = await t.api.post("/tags", { name: "Dup B" }, d.admin);
      const old = new Date(Date.now() - 86400_000 * 30);
      // Rows from before numbers were normalised: the 8-digit form of a mobile, the oldest of its group.
      await insertContacts(t, d.tenantId, [{ name: "Legacy 8 digits", number: "551187776666", createdAt: old }]);
      const legacyId = (await t.api.get("/contacts?searchParam=Legacy", d.admin)).body.contacts[0].id as number;
      const newer = await t.api.post(
        "/contacts",
        { name: "New 9 digits", number: "(11) 98777-6666", email: "same@dup.test", category: "Gold", tagIds: [tagA.body.id], walletUserIds: [d.agent.userId] },
        d.admin,
      );
      await t.api.post(`/contacts/${newer.body.id}/notes`, { title: "moved", description: "note" }, d.admin);
      const byMail = await t.api.post("/contacts", { name: "Same mail", email: "SAME@dup.test", tagIds: [tagA.body.id, tagB.body.id] }, d.admin);
      const mailA = await t.api.post("/contacts", { name: "Mail A", email: "pair@dup.test" }, d.admin);
      const mailB = await t.api.post("/contacts", { name: "Mail B", email: "pair@dup.test", walletUserIds: [d.supervisor.userId] }, d.admin);
      const alone = await t.api.post("/contacts", { name: "Alone", email: "alone@dup.test", number: mobile().typed }, d.admin);

      const r = await t.api.post("/contacts/delete-duplicates", {}, d.admin);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ removed: 3, merged: 2 });

      const kept = await t.api.get(`/contacts/${legacyId}`, d.admin);
      expect(kept.body).toMatchObject({ name: "Legacy 8 digits", number: "551187776666", email: "same@dup.test", category: "Gold", wallet: [d.agent.userId] });
      expect(kept.body.tags.map((x: { id: number }) => x.id).sort()).toEqual([tagA.body.id, tagB.body.id].sort());
      expect(kept.body.notes.map((n: { title: string }) => n.title)).toEqual(["moved"]);
      for (const gone of [newer.body.id, byMail.body.id, mailB.body.id]) expectError(await t.api.get(`/contacts/${gone}`, d.admin), 404, "ERR_CONTACT_NOT_FOUND");
      const pair = await t.api.get(`/contacts/${mailA.body.id}`, d.admin);
      expect(pair.body.wallet).toEqual([d.supervisor.userId]);
      expect((await t.api.get(`/contacts/${alone.body.id}`, d.admin)).status).toBe(200);
      // Nothing left to merge.
      expect((await t.api.post("/contacts/delete-duplicates", {}, d.admin)).body).toMatchObject({ removed: 0, merged: 0 });
    });
  });

  describe("internal actions", () => {
    it("resolveInbound: 50 concurrent calls with one identity create exactly one contact and one identity", async () => {
      const r = await createTenant(t, { tier: "PLUS" });
      const externalId = `5511${uid()}@s.whatsapp.net`;
      const results = (await Promise.all(
        Array.from({ length: 50 }, () =>
          t.core.broker.call("contacts.resolveInbound", { tenantId: r.tenantId, channelType: "whatsapp", externalId, name: "Racer" }),
        ),
      )) as Array<{ id: number; created: boolean; name: string }>;
      const ids = new Set(results.map((x) => x.id));
      expect(ids.size).toBe(1);
      expect(results.filter((x) => x.created)).toHaveLength(1);
      expect(results[0].name).toBe("Racer");
      expect(await countRows(t, "SELECT COUNT(*) AS n FROM contacts WHERE tenantId = ?", [r.tenantId])).toBe(1);
      expect(await countRows(t, "SELECT COUNT(*) AS n FROM contact_identities WHERE tenantId = ?", [r.tenantId])).toBe(1);
    });

    it("resolveInbound with a phone: 50 concurrent calls on two channels end on one contact with two identities", async () => {
      const r = await createTenant(t, { tier: "PLUS" });
      const p = mobile();
      const results = (await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.core.broker.call("contacts.resolveInbound", {
            tenantId: r.tenantId,
            channelType: i % 2 ? "whatsapp" : "waba",
            externalId: i % 2 ? `${p.digits}@s.whatsapp.net` : p.digits,
            phone: `+${p.digits}`,
          }),
        ),
      )) as Array<{ id: number; number: string }>;
      expect(new Set(results.map((x) => x.id)).size).toBe(1);
      expect(results[0].number).toBe(p.digits);
      expect(await countRows(t, "SELECT COUNT(*) AS n FROM contacts WHERE tenantId = ?", [r.tenantId])).toBe(1);
      expect(await countRows(t, "SELECT COUNT(*) AS n FROM contact_identities WHERE tenantId = ?", [r.tenantId])).toBe(2);
    });

    it("resolveInbound links a new identity to the contact with that number, and is scoped by tenant", async () => {
      const p = mobile();
      const c = await t.api.post("/contacts", { name: "Known", number: p.typed }, f.admin);
      const got = (await t.core.broker.call("contacts.resolveInbound", {
        tenantId: f.tenantId,
        channelType: "telegram",
        externalId: `tg-${uid()}`,
        name: "Telegram name",
        phone: p.typed,
        avatarUrl: "https://cdn.example.com/pic.jpg",
      })) as { id: number; name: string; created: boolean; profilePicUrl: string };
      expect(got).toMatchObject({ id: c.body.id, name: "Known", created: false, profilePicUrl: "https://cdn.example.com/pic.jpg" });
      // A phone given as a channel address (WhatsApp JID) is read for its digits.
      const jid = (await t.core.broker.call("contacts.resolveInbound", {
        tenantId: f.tenantId,
        channelType: "whatsapp",
        externalId: `${p.digits}@s.whatsapp.net`,
        phone: `${p.digits}@s.whatsapp.net`,
      })) as { id: number };
      expect(jid.id).toBe(c.body.id);
      // The same identity in another tenant is another person.
      const elsewhere = (await t.core.broker.call("contacts.resolveInbound", { tenantId: other.tenantId, channelType: "telegram", externalId: "tg-shared", phone: p.typed })) as {
        id: number;
      };
      expect(elsewhere.id).not.toBe(c.body.id);
      const again = (await t.core.broker.call("contacts.resolveInbound", { tenantId: other.tenantId, channelType: "telegram", externalId: "tg-shared" })) as { id: number };
      expect(again.id).toBe(elsewhere.id);
    });

    it("resolveInbound keeps an unusual number the network reports, and names the contact from what it has", async () => {
      const got = (await t.core.broker.call("contacts.resolveInbound", {
        tenantId: f.tenantId,
        channelType: "whatsapp",
        externalId: `old-${uid()}`,
        phone: "551187770000",
      })) as { name: string; number: string };
      expect(got).toMatchObject({ name: "551187770000", number: "551187770000" });
    });

    it("summaries, searchIds and identityFor answer per tenant", async () => {
      const p = mobile();
      const c = await t.api.post("/contacts", { name: "Summary Person", number: p.typed, email: "summary@x.test" }, f.admin);
      const b = t.core.broker;
      expect(await b.call("contacts.summaries", { tenantId: f.tenantId, ids: [c.body.id, 999999] })).toEqual([
        { id: c.body.id, name: "Summary Person", number: p.digits, profilePicUrl: null },
      ]);
      expect(await b.call("contacts.summaries", { tenantId: other.tenantId, ids: [c.body.id] })).toEqual([]);
      for (const q of ["summary pers", p.digits.slice(-7), "summary@x"]) {
        expect(await b.call("contacts.searchIds", { tenantId: f.tenantId, q })).toEqual([c.body.id]);
      }
      expect(await b.call("contacts.searchIds", { tenantId: other.tenantId, q: "Summary" })).toEqual([]);
      // Without an identity: the number (or the e-mail for e-mail channels); with one: what the channel reported.
      expect(await b.call("contacts.identityFor", { tenantId: f.tenantId, contactId: c.body.id, channelType: "whatsapp" })).toBe(p.digits);
      expect(await b.call("contacts.identityFor", { tenantId: f.tenantId, contactId: c.body.id, channelType: "email" })).toBe("summary@x.test");
      await b.call("contacts.resolveInbound", { tenantId: f.tenantId, channelType: "whatsapp", externalId: `${p.digits}@s.whatsapp.net`, phone: p.digits });
      expect(await b.call("contacts.identityFor", { tenantId: f.tenantId, contactId: c.body.id, channelType: "whatsapp" })).toBe(`${p.digits}@s.whatsapp.net`);
      expect(await b.call("contacts.identityFor", { tenantId: other.tenantId, contactId: c.body.id, channelType: "whatsapp" })).toBeNull();
    });

    it("getInternal and count answer per tenant", async () => {
      const c = await t.api.post("/contacts", { name: "Internal" }, f.admin);
      expect(await t.core.broker.call("contacts.getInternal", { tenantId: f.tenantId, id: c.body.id })).toMatchObject({ id: c.body.id, name: "Internal" });
      expect(await t.core.broker.call("contacts.getInternal", { tenantId: other.tenantId, id: c.body.id })).toBeNull();
      const n = (await t.core.broker.call("contacts.count", { tenantId: f.tenantId })) as number;
      expect(n).toBe(await countRows(t, "SELECT COUNT(*) AS n FROM contacts WHERE tenantId = ?", [f.tenantId]));
    });
  });

  describe("contact plan limit", () => {
    it(`a FREE tenant at ${FREE_PLAN_MAX_CONTACTS} contacts gets 410 ERR_CONTACT_LIMIT with code:current:max, on create and on import`, async () => {
      const free = await createTenant(t);
      await insertContacts(
        t,
        free.tenantId,
        Array.from({ length: FREE_PLAN_MAX_CONTACTS - 1 }, (_, i) => ({ name: `Bulk ${i}` })),
      );
      // The last seat is still free…
      expect((await t.api.post("/contacts", { name: "Seat 500", number: mobile().typed }, free.agent)).status).toBe(201);
      // …and then the cap holds.
      const r = await t.api.post("/contacts", { name: "Seat 501", number: mobile().typed }, free.agent);
      expectError(r, 410, "ERR_CONTACT_LIMIT");
      const max = FREE_PLAN_MAX_CONTACTS;
      expect(r.body.data).toMatchObject({ current: max, max, code: `ERR_CONTACT_LIMIT:${max}:${max}` });
      const [, current, cap] = String(r.body.data.code).split(":");
      expect([Number(current), Number(cap)]).toEqual([max, max]);
      expect(r.body.message).toContain(String(max));
      expect(await t.core.broker.call("contacts.count", { tenantId: free.tenantId })).toBe(max);

      const start = await t.api.post("/contacts/import", { csv: `name,number\nOver A,${mobile().typed}\nOver B,\n` }, free.admin);
      const done = await waitImport(t, free.admin, start.body.importId);
      expect(done.body).toMatchObject({ status: "completed", processed: 2, total: 2, imported: 0, limit: { current: max, max, code: `ERR_CONTACT_LIMIT:${max}:${max}` } });
      expect(done.body.errors).toEqual([
        { row: 2, field: null, code: "ERR_CONTACT_LIMIT" },
        { row: 3, field: null, code: "ERR_CONTACT_LIMIT" },
      ]);
      expect(await t.core.broker.call("contacts.count", { tenantId: free.tenantId })).toBe(max);

      // Deleting one frees a seat.
      const one = (await t.api.get("/contacts?searchParam=Seat 500", free.admin)).body.contacts[0];
      expect((await t.api.del(`/contacts/${one.id}`, free.admin)).status).toBe(200);
      expect((await t.api.post("/contacts", { name: "Seat again" }, free.agent)).status).toBe(201);
    });

    it("an import stops at the cap: rows up to it are kept, the rest are refused", async () => {
      const free = await createTenant(t);
      await insertContacts(t, free.tenantId, Array.from({ length: FREE_PLAN_MAX_CONTACTS - 2 }, (_, i) => ({ name: `Bulk ${i}` })));
      const rows = Array.from({ length: 4 }, (_, i) => `Cap ${i},${mobile().typed}`);
      const start = await t.api.post("/contacts/import", { csv: ["name,number", ...rows].join("\n") }, free.admin);
      const done = await waitImport(t, free.admin, start.body.importId);
      expect(done.body).toMatchObject({ status: "completed", processed: 4, total: 4, imported: 2, errorCount: 2 });
      expect(done.body.errors.map((x: { row: number; code: string }) => [x.row, x.code])).toEqual([
        [4, "ERR_CONTACT_LIMIT"],
        [5, "ERR_CONTACT_LIMIT"],
      ]);
      expect(await t.core.broker.call("contacts.count", { tenantId: free.tenantId })).toBe(FREE_PLAN_MAX_CONTACTS);
    });

    it("paid tiers have no contact cap", async () => {
      const paid = await createTenant(t, { tier: "BASIC" });
      await insertContacts(t, paid.tenantId, Array.from({ length: FREE_PLAN_MAX_CONTACTS }, (_, i) => ({ name: `Bulk ${i}` })));
      expect((await t.api.post("/contacts", { name: "Beyond" }, paid.agent)).status).toBe(201);
      const limits = (await t.core.broker.call("licence.limits", { tenantId: paid.tenantId })) as { contacts: number | null };
      expect(limits.contacts).toBeNull();
    });
  });
});

describe("contacts with tickets (the real tickets service, tickets opened through a channel)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let connectionId: number;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    const c = await t.api.post("/connections", { name: "Site", type: "channel-webchat" }, f.admin);
    connectionId = c.body.id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  /** A ticket for the contact, opened as an agent does (POST /tickets). */
  const openTicket = async (contactId: number) => {
    const r = await t.api.post("/tickets", { contactId, connectionId, status: "pending" }, f.admin);
    expect(r.status).toBe(201);
    return r.body.id as number;
  };

  it("refuses to delete a contact that has tickets with 409 ERR_CONTACT_HAS_TICKETS", async () => {
    const c = await t.api.post("/contacts", { name: "Has tickets" }, f.admin);
    const ticketId = await openTicket(c.body.id);
    const r = await t.api.del(`/contacts/${c.body.id}`, f.admin);
    expectError(r, 409, "ERR_CONTACT_HAS_TICKETS");
    expect(r.body.data.count).toBe(1);
    expect((await t.api.get(`/contacts/${c.body.id}`, f.admin)).status).toBe(200);
    expect((await t.api.del(`/tickets/${ticketId}`, f.admin)).status).toBe(200);
    expect((await t.api.del(`/contacts/${c.body.id}`, f.admin)).status).toBe(200);
  });

  it("merging duplicates moves their tickets to the kept contact", async () => {
    const a = await t.api.post("/contacts", { name: "Keep", email: "move@t.test" }, f.admin);
    const b = await t.api.post("/contacts", { name: "Drop", email: "move@t.test" }, f.admin);
    const ticketId = await openTicket(b.body.id);
    const r = await t.api.post("/contacts/delete-duplicates", {}, f.admin);
    expect(r.body).toMatchObject({ removed: 1 });
    expect((await t.api.get(`/tickets/${ticketId}`, f.admin)).body.contactId).toBe(a.body.id);
  });
});

describe("contacts on sqlite: create, search, resolveInbound race", () => {
  let t: TestCore;
  let f: TenantFixture;
  beforeAll(async () => {
    t = await startCore({ dialect: "sqlite" });
    f = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("creates, refuses a duplicate number and searches", async () => {
    const p = mobile();
    const c = await t.api.post("/contacts", { name: "Lite Contact", number: p.typed, email: "lite@x.test", birthday: "2001-12-31" }, f.admin);
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ number: p.digits, birthday: "2001-12-31" });
    expectError(await t.api.post("/contacts", { name: "Again", number: p.digits }, f.admin), 409, "ERR_CONTACT_ALREADY_EXISTS");
    expect((await t.api.post("/contacts", { name: "No number 1" }, f.admin)).status).toBe(201);
    expect((await t.api.post("/contacts", { name: "No number 2" }, f.admin)).status).toBe(201);
    expectError(await t.api.get("/contacts?searchParam=l", f.agent), 400, "ERR_SEARCH_TOO_SHORT");
    for (const q of ["LITE", p.digits.slice(-5), "x.test"]) {
      expect((await t.api.get(`/contacts?searchParam=${q}`, f.agent)).body.contacts.map((x: { id: number }) => x.id)).toEqual([c.body.id]);
    }
    const page = await t.api.get("/contacts?pageSize=2", f.agent);
    expect(page.body).toMatchObject({ hasMore: true, pageNumber: 1, pageSize: 2 });
  });

  it("50 concurrent resolveInbound calls create exactly one contact and one identity", async () => {
    const externalId = `lite-${uid()}`;
    const results = (await Promise.all(
      Array.from({ length: 50 }, () => t.core.broker.call("contacts.resolveInbound", { tenantId: f.tenantId, channelType: "webchat", externalId, name: "Visitor" })),
    )) as Array<{ id: number; created: boolean }>;
    expect(new Set(results.map((x) => x.id)).size).toBe(1);
    expect(results.filter((x) => x.created)).toHaveLength(1);
    expect(await countRows(t, "SELECT COUNT(*) AS n FROM contacts WHERE tenantId = ? AND name = 'Visitor'", [f.tenantId])).toBe(1);
    expect(await countRows(t, "SELECT COUNT(*) AS n FROM contact_identities WHERE tenantId = ?", [f.tenantId])).toBe(1);
  });
});
