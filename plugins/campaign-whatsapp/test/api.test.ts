/**
 * The normal campaigns' API through the gateway of a real core on MariaDB (spec §4 Campaign
 * transitions, §5 Campaign rules, §8 campaign codes, §9 files): each rule answers its catalogue
 * code over HTTP, field validation names the field, a FREE tenant is refused by tier, another
 * tenant's campaign id is a 404 on every route, and the media upload keeps to 10 MB.
 */
import { createConnection } from "mysql2/promise";
import { createTenant, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { pluginDatabaseName } from "../../../core/src/plugins/data";
import { allow, connection, createSuper, routesReady, startCampaignCore, visitor } from "./setup";

jest.setTimeout(240_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
let conn: number;
let tagId: number;
let emptyTagId: number;
const tagged: number[] = [];
const HOUR = 3_600_000;

/** The status and catalogue code of an answer. */
const codeOf = async (p: Promise<Res>) => {
  const r = await p;
  return [r.status, (r.body as { error?: string })?.error];
};

const draft = (over: Record<string, unknown> = {}) => ({ name: `Promo ${uid()}`, startAt: Date.now() + HOUR, connectionIds: [conn], minIntervalSeconds: 1, maxIntervalSeconds: 3, content: { messages: ["Olá {{firstName}}!"] }, ...over });

async function create(who: Auth, over: Record<string, unknown> = {}): Promise<number> {
  const r = await t.api.post("/campanhas", draft(over), who);
  if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}

const op = (name: string, id: number, who: Auth = a.admin) => t.api.post(`/campanhas/item/${name}`, { id }, who);

beforeAll(async () => {
  t = await startCampaignCore();
  const sup = await createSuper(t);
  [a, b, free] = await Promise.all([createTenant(t, { tier: "BASIC" }), createTenant(t, { tier: "BASIC" }), createTenant(t)]);
  for (const f of [a, b]) await allow(t, sup, f.tenantId);
  const r = await t.api.put(`/plugins/campaign-whatsapp/tenants/${free.tenantId}`, { allowed: true }, sup);
  expect(r.status).toBe(200);
  await routesReady(t, a.admin);
  conn = await connection(t, a, "Loja");
  for (let i = 0; i < 2; i++) tagged.push(await visitor(t, a.tenantId, conn, `${uid()}-${i}`));
  tagId = (await t.api.post("/tags", { name: `VIP ${uid()}` }, a.admin)).body.id;
  emptyTagId = (await t.api.post("/tags", { name: `Vazia ${uid()}` }, a.admin)).body.id;
  for (const c of tagged) expect((await t.api.put(`/contacts/${c}/tags`, { tagIds: [tagId] }, a.admin)).status).toBe(200);
});

afterAll(async () => {
  await t?.stop();
});

describe("tier", () => {
  it("refuses a FREE tenant on every campaign route, the media upload included", async () => {
    expect(await codeOf(t.api.get("/campanhas", free.admin))).toEqual([403, "ERR_LICENSE_TIER_REQUIRED"]);
    expect(await codeOf(t.api.post("/campanhas", draft(), free.admin))).toEqual([403, "ERR_LICENSE_TIER_REQUIRED"]);
    expect(await codeOf(t.api.post("/campanhas/media", { file: { fileName: "a.txt", mimeType: "text/plain", data: "aGk=" } }, free.admin))).toEqual([403, "ERR_LICENSE_TIER_REQUIRED"]);
  });

  it("is a supervisor's and admin's: an agent is refused", async () => {
    const agent = await t.api.login(a.emails.agent);
    expect(await codeOf(t.api.get("/campanhas", agent))).toEqual([403, "ERR_NO_PERMISSION"]);
  });
});

describe("field validation (spec §5 Campaign)", () => {
  it.each([
    ["name", { name: "  " }],
    ["connectionIds", { connectionIds: [] }],
    ["content.messages", { content: { messages: ["1", "2", "3", "4"] } }],
    ["maxIntervalSeconds", { maxIntervalSeconds: 3601 }],
    ["startAt", { startAt: "amanhã" }],
  ])("names the field %s", async (field, over) => {
    const r = await t.api.post("/campanhas", draft(over), a.admin);
    expect([r.status, r.body.error]).toEqual([400, "ERR_VALIDATION"]);
    expect(r.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it("refuses a start in the past, a maximum below the minimum and a variant with no text and no file, with the campaign codes", async () => {
    expect(await codeOf(t.api.post("/campanhas", draft({ startAt: Date.now() - 2 * HOUR }), a.admin))).toEqual([400, "ERR_CAMPAIGN_PAST_DATE"]);
    expect(await codeOf(t.api.post("/campanhas", draft({ minIntervalSeconds: 10, maxIntervalSeconds: 5 }), a.admin))).toEqual([400, "ERR_INVALID_INTERVAL"]);
    const r = await t.api.post("/campanhas", draft({ content: { messages: ["ok", "  "] } }), a.admin);
    expect([r.status, r.body.error]).toEqual([400, "ERR_CAMPAIGN_WHATSAPP_CONTENT_INVALID"]);
    expect(r.body.data.problems).toEqual({ "messages.1": "ERR_CAMPAIGN_WHATSAPP_CONTENT_INVALID" });
    // The plugin's code comes with its catalogue text (pt-BR by default).
    expect(r.body.title).toBe("Mensagem da campanha inválida");
  });

  it("accepts the start in the current minute", async () => {
    const id = await create(a.admin, { startAt: Math.floor(Date.now() / 60_000) * 60_000 });
    expect((await t.api.get(`/campanhas/item?id=${id}`, a.admin)).body).toMatchObject({ id, status: "pending" });
  });
});

describe("contacts (spec §2: from tags, the contact list or a CSV)", () => {
  it("links a tag's contacts, the chosen ones and a CSV's, each once; refuses what selects no one or is not the tenant's", async () => {
    const id = await create(a.admin);
    expect((await t.api.post("/campanhas/item/contacts", { id, source: { kind: "tags", tagIds: [tagId] } }, a.admin)).body).toEqual({ added: 2, total: 2 });
    expect((await t.api.post("/campanhas/item/contacts", { id, source: { kind: "contacts", contactIds: tagged } }, a.admin)).body).toEqual({ added: 0, total: 2 });
    expect(await codeOf(t.api.post("/campanhas/item/contacts", { id, source: { kind: "tags", tagIds: [emptyTagId] } }, a.admin))).toEqual([400, "ERR_CAMPAIGN_CONTACTS_MISSING"]);
    expect(await codeOf(t.api.post("/campanhas/item/contacts", { id, source: { kind: "csv", csv: "nome;numero\nAna;abc" } }, a.admin))).toEqual([400, "ERR_CAMPAIGN_WHATSAPP_CSV_INVALID"]);
    const unknown = await t.api.post("/campanhas/item/contacts", { id, source: { kind: "csv", csv: "5511987650000" } }, a.admin);
    expect([unknown.status, unknown.body.error, unknown.body.data.numbers]).toEqual([400, "ERR_CAMPAIGN_WHATSAPP_CSV_UNKNOWN_NUMBERS", "5511987650000"]);
    const bContact = (await t.api.post("/contacts", { name: "Outra", number: "5511912345678" }, b.admin)).body.id as number;
    expect(await codeOf(t.api.post("/campanhas/item/contacts", { id, source: { kind: "contacts", contactIds: [bContact] } }, a.admin))).toEqual([404, "ERR_CONTACT_NOT_FOUND"]);
    const list = await t.api.get(`/campanhas/item/contacts?id=${id}`, a.admin);
    expect(list.body.rows.map((r: { contactId: number; status: string }) => [r.contactId, r.status]).sort()).toEqual(tagged.map((c) => [c, "pending"]).sort());
  });
});

describe("transitions (spec §4)", () => {
  it("allows each change only from its statuses, with its code otherwise", async () => {
    const id = await create(a.admin);
    // pending: no contacts yet
    expect(await codeOf(op("schedule", id))).toEqual([400, "ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE"]);
    expect(await codeOf(op("pause", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_PAUSABLE"]);
    expect(await codeOf(op("resume", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_RESUMABLE"]);
    await t.api.post("/campanhas/item/contacts", { id, source: { kind: "tags", tagIds: [tagId] } }, a.admin);
    const hasContacts = await t.api.del(`/campanhas/item?id=${id}`, a.admin);
    expect([hasContacts.status, hasContacts.body.error, hasContacts.body.data.contacts]).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_HAS_CONTACTS", 2]);

    // scheduled (an hour ahead: nothing is sent)
    expect((await op("schedule", id)).body).toMatchObject({ id, status: "scheduled" });
    expect(await codeOf(op("schedule", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_SCHEDULABLE"]);
    expect(await codeOf(t.api.put("/campanhas/item", { id, ...draft() }, a.admin))).toEqual([409, "ERR_CAMPAIGN_NOT_EDITABLE"]);
    expect(await codeOf(t.api.del(`/campanhas/item?id=${id}`, a.admin))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_DELETABLE"]);
    expect(await codeOf(t.api.del(`/campanhas/item/contacts?id=${id}`, a.admin))).toEqual([409, "ERR_CAMPAIGN_NOT_EDITABLE"]);
    expect(await codeOf(op("resume", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_RESUMABLE"]);

    // paused
    expect((await op("pause", id)).body).toMatchObject({ status: "paused" });
    expect(await codeOf(op("pause", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_PAUSABLE"]);
    expect(await codeOf(t.api.put("/campanhas/item", { id, ...draft() }, a.admin))).toEqual([409, "ERR_CAMPAIGN_NOT_EDITABLE"]);
    expect((await op("resume", id)).body).toMatchObject({ status: "scheduled" });

    // canceled: edited, emptied and deleted
    expect((await op("cancel", id)).body).toMatchObject({ status: "canceled" });
    expect(await codeOf(op("cancel", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_CANCELABLE"]);
    expect(await codeOf(op("pause", id))).toEqual([409, "ERR_CAMPAIGN_WHATSAPP_NOT_PAUSABLE"]);
    const edited = await t.api.put("/campanhas/item", { id, ...draft({ name: "Renomeada" }) }, a.admin);
    expect([edited.status, edited.body.name, edited.body.status]).toEqual([200, "Renomeada", "canceled"]);
    expect((await t.api.del(`/campanhas/item/contacts?id=${id}`, a.admin)).body).toEqual({ removed: 2, total: 0 });
    expect((await t.api.del(`/campanhas/item?id=${id}`, a.admin)).body).toEqual({ deleted: true });
    expect(await codeOf(t.api.get(`/campanhas/item?id=${id}`, a.admin))).toEqual([404, "ERR_CAMPAIGN_NOT_FOUND"]);
  });

  it("refuses to schedule a campaign whose start has passed meanwhile", async () => {
    const id = await create(a.admin);
    await t.api.post("/campanhas/item/contacts", { id, source: { kind: "tags", tagIds: [tagId] } }, a.admin);
    // The start an hour ago, as if the campaign had waited since (the plugin's own database).
    const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: pluginDatabaseName(t.store.dbName, "campaign-whatsapp") });
    try {
      const [res] = await db.query("UPDATE campaigns SET startAt = ? WHERE tenantId = ? AND id = ?", [Date.now() - HOUR, a.tenantId, id]);
      expect((res as { affectedRows: number }).affectedRows).toBe(1);
    } finally {
      await db.end();
    }
    expect(await codeOf(op("schedule", id))).toEqual([400, "ERR_CAMPAIGN_PAST_DATE"]);
    expect((await t.api.get(`/campanhas/item?id=${id}`, a.admin)).body.status).toBe("pending");
  });
});

describe("tenants", () => {
  it("answers another tenant's campaign id with 404 on every route, and lists only the tenant's own", async () => {
    const id = await create(a.admin);
    await t.api.post("/campanhas/item/contacts", { id, source: { kind: "tags", tagIds: [tagId] } }, a.admin);
    const NF = [404, "ERR_CAMPAIGN_NOT_FOUND"];
    const bc = b.admin;
    expect(await codeOf(t.api.get(`/campanhas/item?id=${id}`, bc))).toEqual(NF);
    expect(await codeOf(t.api.put("/campanhas/item", { id, ...draft() }, bc))).toEqual(NF);
    expect(await codeOf(t.api.del(`/campanhas/item?id=${id}`, bc))).toEqual(NF);
    expect(await codeOf(t.api.get(`/campanhas/item/contacts?id=${id}`, bc))).toEqual(NF);
    expect(await codeOf(t.api.del(`/campanhas/item/contacts?id=${id}`, bc))).toEqual(NF);
    const bTag = (await t.api.post("/tags", { name: `B ${uid()}` }, bc)).body.id;
    const bContact = (await t.api.post("/contacts", { name: "B", number: "5511955554444" }, bc)).body.id;
    await t.api.put(`/contacts/${bContact}/tags`, { tagIds: [bTag] }, bc);
    expect(await codeOf(t.api.post("/campanhas/item/contacts", { id, source: { kind: "tags", tagIds: [bTag] } }, bc))).toEqual(NF);
    for (const name of ["schedule", "pause", "resume", "cancel"]) expect([name, ...(await codeOf(op(name, id, bc)))]).toEqual([name, ...NF]);
    expect((await t.api.get("/campanhas", bc)).body.map((c: { id: number }) => c.id)).not.toContain(id);
    // Untouched by all of it.
    expect((await t.api.get(`/campanhas/item?id=${id}`, a.admin)).body).toMatchObject({ status: "pending", counts: { contacts: 2 } });
  });
});

describe("media (spec §9: 10 MB a file)", () => {
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

  it("stores a file among the tenant's files and a campaign sends it with an empty caption", async () => {
    const up = await t.api.post("/campanhas/media", { file: { fileName: "promo.png", mimeType: "image/png", data: png.toString("base64") } }, a.admin);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ fileName: "promo.png", mimeType: "image/png", size: png.length });
    const media = { path: up.body.path, mimeType: up.body.mimeType, fileName: up.body.fileName };
    const id = await create(a.admin, { content: { messages: [""], media } });
    expect((await t.api.get(`/campanhas/item?id=${id}`, a.admin)).body.content).toEqual({ messages: [""], media });
  });

  it("refuses a file over 10 MB, an empty one and active content", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 1).toString("base64");
    const r = await t.api.post("/campanhas/media", { file: { fileName: "big.bin", mimeType: "application/octet-stream", data: big } }, a.admin);
    expect([r.status, r.body.error, r.body.data.field]).toEqual([413, "ERR_MEDIA_TOO_LARGE", "media"]);
    expect(await codeOf(t.api.post("/campanhas/media", { file: { fileName: "vazio.txt", mimeType: "text/plain", data: "" } }, a.admin))).toEqual([400, "ERR_NO_FILE_UPLOADED"]);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString("base64");
    expect(await codeOf(t.api.post("/campanhas/media", { file: { fileName: "x.svg", mimeType: "image/svg+xml", data: svg } }, a.admin))).toEqual([415, "ERR_UNSUPPORTED_MEDIA_TYPE"]);
    // exactly 10 MB passes
    const max = Buffer.alloc(10 * 1024 * 1024, 1).toString("base64");
    expect((await t.api.post("/campanhas/media", { file: { fileName: "max.bin", mimeType: "application/octet-stream", data: max } }, a.admin)).status).toBe(200);
  });
});
