/**
 * The contact reports against a real core on MariaDB. Tenant A's contacts and tags exist before
 * the plugin is allowed, so the first query backfills them through the core API; each page's
 * rows and counts are checked by hand; changes arrive by contact and tag events; Excel and PDF
 * are read back; another tenant's tags and states select none of A's.
 *
 * Tenant A, by hand (tags VIP, Atacado, Inativa):
 *   Ana Souza     SP  VIP            ana@x.test   created 10/03/2026 12:00 UTC
 *   Bruno Lima    RJ  VIP, Atacado
 *   Carla Dias    SP  —              carla@x.test
 *   Eduardo Reis  —   —
 *   Диана Орлова  MG  Atacado
 */
import ExcelJS from "exceljs";
import { createConnection } from "mysql2/promise";
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { pdfText } from "@openatende/report-kit/src/pdf-text";
import { download, expectError, ok, waitFor } from "../../report-tickets/test/kit";

jest.setTimeout(240_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
const tag = {} as Record<"vip" | "atacado" | "inativa" | "bVip", number>;
const who = {} as Record<"ana" | "bruno" | "diana", number>;
type Row = { id: number; name: string; number: string | null; email: string | null; state: string | null; tags: Array<{ name: string }> };
const rows = (base: string, q: string, as: Auth = a.supervisor) => ok<{ rows: Row[]; hasMore: boolean }>(t.api.get(`/relatorios/contatos/${base}/rows?${q}`, as));
const names = async (base: string, q: string, as?: Auth) => (await rows(base, q, as)).rows.map((r) => r.name);
const summary = (base: string, q: string, as: Auth = a.supervisor) => ok<{ total: number; groups: Array<{ key: string; label: string; count: number }> }>(t.api.get(`/relatorios/contatos/${base}/summary?${q}`, as));

async function contact(f: TenantFixture, name: string, number: string, extra: Record<string, unknown> = {}): Promise<number> {
  return (await ok(t.api.post("/contacts", { name, number, ...extra }, f.admin), 201)).id;
}
const newTag = async (f: TenantFixture, name: string) => (await ok(t.api.post("/tags", { name }, f.admin), 201)).id as number;

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `report-contacts-${uid()}` } });
  const sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "BASIC" }), createTenant(t, { tier: "BASIC" }), createTenant(t)]);
  tag.vip = await newTag(a, "VIP");
  tag.atacado = await newTag(a, "Atacado");
  tag.inativa = await newTag(a, "Inativa");
  who.ana = await contact(a, "Ana Souza", "5511940000001", { email: "ana@x.test", state: "SP", tagIds: [tag.vip] });
  who.bruno = await contact(a, "Bruno Lima", "5511940000002", { state: "RJ", tagIds: [tag.vip, tag.atacado] });
  await contact(a, "Carla Dias", "5511940000003", { email: "carla@x.test", state: "SP" });
  await contact(a, "Eduardo Reis", "5511940000005");
  who.diana = await contact(a, "Диана Орлова", "5511940000004", { state: "MG", tagIds: [tag.atacado] });
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: t.config.database.database, timezone: "Z" });
  await db.query("UPDATE contacts SET createdAt = ? WHERE id = ?", [new Date(Date.UTC(2026, 2, 10, 12)), who.ana]);
  await db.end();
  tag.bVip = await newTag(b, "VIP");
  await contact(b, "Outra Empresa", "5511940000009", { state: "SP", tagIds: [tag.bVip] });
  for (const f of [a, b, free]) await ok(t.api.put(`/plugins/report-contacts/tenants/${f.tenantId}`, { allowed: true }, sup));
  await waitFor("the report's routes", () => t.api.get(`/relatorios/contatos/lista/rows`, a.supervisor), (r) => r.status === 200);
});

afterAll(async () => {
  await t?.stop();
});

describe("contact reports", () => {
  it("lista-contatos: backfills a tenant that had contacts before the plugin; by name, tags and all, with load more", async () => {
    const r = await rows("lista", "");
    expect(r.rows.map((x) => [x.name, x.number, x.email, x.state, x.tags.map((g) => g.name)])).toEqual([
      ["Ana Souza", "5511940000001", "ana@x.test", "SP", ["VIP"]],
      ["Bruno Lima", "5511940000002", null, "RJ", ["VIP", "Atacado"]],
      ["Carla Dias", "5511940000003", "carla@x.test", "SP", []],
      ["Eduardo Reis", "5511940000005", null, null, []],
      ["Диана Орлова", "5511940000004", null, "MG", ["Atacado"]],
    ]);
    const p3 = await rows("lista", "limit=2&page=3");
    expect([(await rows("lista", "limit=2&page=1")).hasMore, p3.rows.map((x) => x.name), p3.hasMore]).toEqual([true, ["Диана Орлова"], false]);
    expect((await summary("lista", "")).total).toBe(5);
  });

  it("contatos-por-etiquetas: contacts with any chosen tag, counted per tag", async () => {
    expect(await names("etiquetas", `tagIds=${tag.vip}`)).toEqual(["Ana Souza", "Bruno Lima"]);
    expect(await names("etiquetas", `tagIds=${tag.vip},${tag.atacado}`)).toEqual(["Ana Souza", "Bruno Lima", "Диана Орлова"]);
    expect(await summary("etiquetas", `tagIds=${tag.vip},${tag.atacado}`)).toEqual({ total: 3, groups: [{ key: String(tag.vip), label: "VIP", count: 2 }, { key: String(tag.atacado), label: "Atacado", count: 2 }] });
    expect(await summary("etiquetas", `tagIds=${tag.inativa}`)).toMatchObject({ total: 0 });
    expect(await names("etiquetas", `tagIds=${tag.inativa}`)).toEqual([]);
  });

  it("contatos-por-estado: contacts in any chosen state, counted per state; the choices are the states the contacts have", async () => {
    expect(await names("estados", "states=SP")).toEqual(["Ana Souza", "Carla Dias"]);
    expect(await names("estados", "states=SP,MG")).toEqual(["Ana Souza", "Carla Dias", "Диана Орлова"]);
    expect(await summary("estados", "states=SP,MG")).toEqual({ total: 3, groups: [{ key: "SP", label: "SP", count: 2 }, { key: "MG", label: "MG", count: 1 }] });
    expect(await names("estados", "states=AM")).toEqual([]);
    const o = await ok(t.api.get("/relatorios/contatos/options", a.supervisor));
    expect(o.states).toEqual([{ state: "MG", count: 1 }, { state: "RJ", count: 1 }, { state: "SP", count: 2 }]);
    expect(o.tags.map((g: { name: string }) => g.name).sort()).toEqual(["Atacado", "Inativa", "VIP"]);
  });

  it("asks for at least one tag or state with its code, translated", async () => {
    for (const path of ["etiquetas/rows", "etiquetas/summary", "etiquetas/export?format=xlsx", "estados/rows?states=", "estados/summary?states=%20,%20", "estados/export?format=pdf"]) {
      expectError(await t.api.get(`/relatorios/contatos/${path}`, a.supervisor), 400, "ERR_REPORT_CONTACTS_SELECTION_REQUIRED");
    }
    const en = await t.api.get("/relatorios/contatos/etiquetas/rows", a.supervisor, { "x-locale": "en" });
    expect(en.body).toMatchObject({ error: "ERR_REPORT_CONTACTS_SELECTION_REQUIRED", title: "Choose at least one item", data: { field: "tagIds" } });
    const ru = await t.api.get("/relatorios/contatos/estados/rows", a.supervisor, { "x-locale": "ru" });
    expect(ru.body.title).toBe("Выберите хотя бы один пункт");
  });

  it("keeps current by events: a new contact, a rename, tags put on and taken off, a deleted contact", async () => {
    const id = await contact(a, "Fábio Ramos", "5511940000006", { state: "SP", tagIds: [tag.vip] });
    await waitFor("the new contact", () => names("etiquetas", `tagIds=${tag.vip}`), (n) => n.includes("Fábio Ramos"));
    await ok(t.api.put(`/contacts/${id}`, { name: "Fábio Ramos Prado", state: "RJ" }, a.admin));
    await waitFor("its new name and state", () => names("estados", "states=RJ"), (n) => n.includes("Fábio Ramos Prado"));
    await ok(t.api.put(`/contacts/${who.bruno}/tags`, { tagIds: [tag.atacado] }, a.admin));
    await waitFor("Bruno without VIP", () => names("etiquetas", `tagIds=${tag.vip}`), (n) => !n.includes("Bruno Lima"));
    await ok(t.api.del(`/contacts/${id}`, a.admin));
    await waitFor("the deletion", () => names("lista", ""), (n) => !n.some((x) => x.startsWith("Fábio")));
    const temp = await newTag(a, "Temporária");
    const carla = (await rows("lista", "")).rows.find((r) => r.name === "Carla Dias")!.id;
    await ok(t.api.put(`/contacts/${carla}/tags`, { tagIds: [temp] }, a.admin));
    await waitFor("Carla under the new tag", () => summary("etiquetas", `tagIds=${temp}`), (s) => s.total === 1 && s.groups[0].count === 1);
    // A tag in use cannot be deleted (ERR_TAG_HAS_CONTACTS): taken off first, then deleted.
    await ok(t.api.put(`/contacts/${carla}/tags`, { tagIds: [] }, a.admin));
    await waitFor("Carla off the tag", () => summary("etiquetas", `tagIds=${temp}`), (s) => s.total === 0 && s.groups[0].count === 0);
    await ok(t.api.del(`/tags/${temp}`, a.admin));
    expect((await ok(t.api.get("/relatorios/contatos/options", a.supervisor))).tags.map((g: { id: number }) => g.id)).not.toContain(temp);
    expect((await rows("lista", "")).rows.find((r) => r.name === "Carla Dias")!.tags).toEqual([]);
  });

  it("exports a page as Excel and PDF, read back", async () => {
    const x = await download(t, `/relatorios/contatos/estados/export?states=SP&tz=UTC&format=xlsx`, a.supervisor);
    expect(x.status).toBe(200);
    expect(x.headers.get("content-disposition")).toContain("filename*=UTF-8''Contatos%20por%20estado.xlsx");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.getRow(2).values).toEqual([undefined, "Estados: SP"]);
    expect(ws.getRow(3).values).toEqual([undefined, "Nome", "Número", "E-mail", "Estado", "Etiquetas", "Criado em"]);
    const ana = ws.getRow(4).values as unknown[];
    expect(ana.slice(1, 6)).toEqual(["Ana Souza", "5511940000001", "ana@x.test", "SP", "VIP"]);
    expect((ana[6] as Date).getTime()).toBe(Date.UTC(2026, 2, 10, 12));
    expect(ws.getRow(5).getCell(1).value).toBe("Carla Dias");

    const p = await download(t, `/relatorios/contatos/lista/export?format=pdf&tz=UTC`, a.supervisor, "ru");
    expect(p.headers.get("content-type")).toBe("application/pdf");
    const text = (await pdfText(p.body)).pages.join("\n");
    expect(text).toContain("Список контактов");
    expect(text).toContain("Диана Орлова");
    expect(text).toContain("10/03/2026 12:00");
  });

  it("rebuilds the projection for admins only", async () => {
    expectError(await t.api.post("/relatorios/contatos/lista/rebuild", {}, a.supervisor), 403, "ERR_NO_PERMISSION");
    expect(await ok(t.api.post("/relatorios/contatos/estados/rebuild", {}, a.admin))).toMatchObject({ status: "ready", rows: 5 });
    expect(await names("estados", "states=SP")).toEqual(["Ana Souza", "Carla Dias"]);
  });

  it("keeps tenants apart: another tenant's tag or state selects none of A's contacts", async () => {
    expect(await names("lista", "", b.supervisor)).toEqual(["Outra Empresa"]);
    expect(await names("etiquetas", `tagIds=${tag.vip},${tag.atacado}`, b.supervisor)).toEqual([]);
    expect(await names("etiquetas", `tagIds=${tag.bVip}`)).toEqual([]);
    expect(await names("estados", "states=SP", b.supervisor)).toEqual(["Outra Empresa"]);
    expect((await ok(t.api.get("/relatorios/contatos/options", b.supervisor))).states).toEqual([{ state: "SP", count: 1 }]);
  });

  it("refuses agents, tenants below BASIC, a bad zone and a bad format", async () => {
    expectError(await t.api.get("/relatorios/contatos/lista/rows", a.agent), 403, "ERR_NO_PERMISSION");
    const r = await t.api.get("/relatorios/contatos/lista/rows", free.admin);
    expect(r.status).toBe(403);
    expect(r.body.error).toMatch(/^ERR_(LICENSE|PLUGIN)_/);
    expectError(await t.api.get("/relatorios/contatos/lista/rows?tz=Mars/Olympus", a.supervisor), 400, "ERR_REPORT_CONTACTS_PERIOD_INVALID");
    expect((await t.api.get("/relatorios/contatos/lista/export?format=csv", a.supervisor)).status).toBe(400);
    expect((await t.api.get("/relatorios/contatos/etiquetas/rows?tagIds=x", a.supervisor)).status).toBe(400);
  });
});
