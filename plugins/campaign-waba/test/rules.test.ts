/**
 * The WABA campaign's template checks and access through a real core on MariaDB and Redis: the
 * template must exist on every connection of the campaign, be APPROVED, and get exactly its
 * header's and body's number of variables, and a value for each button that needs one, on save
 * and again on schedule; a connection whose
 * channel has no templates is refused with its code; the routes are PREMIUM; another tenant's
 * campaign is not found on every route.
 */
import { createTenant, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { allow, connection, createSuper, routesReady, startWabaCore, templatesOn, visitor } from "./setup";
import { BUTTONS, BUTTONS_CONTENT, IMAGE_HEADER, LOCATION_HEADER, PENDING, PROMO, PROMO_CONTENT } from "./templates";

jest.setTimeout(180_000);

let t: TestCore;
let sup: Auth;
let a: TenantFixture;
let c1: number;
let c2: number;

const expectError = (r: Res, status: number, error: string, data?: Record<string, unknown>) => {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error });
  if (data) expect(r.body.data).toMatchObject(data);
};
const draft = (over: Record<string, unknown> = {}) => ({ name: `Natal ${uid()}`, startAt: Date.now() + 3_600_000, connectionIds: [c1, c2], minIntervalSeconds: 0, maxIntervalSeconds: 0, content: PROMO_CONTENT, ...over });

beforeAll(async () => {
  t = await startWabaCore();
  sup = await createSuper(t);
  a = await createTenant(t, { tier: "PREMIUM" });
  await allow(t, sup, a.tenantId);
  await routesReady(t, a.admin);
  c1 = await connection(t, a, "Oficial");
  c2 = await connection(t, a, "Oficial 2");
  await templatesOn(t, a.tenantId, c1, [PENDING, IMAGE_HEADER, LOCATION_HEADER, PROMO, BUTTONS]);
  await templatesOn(t, a.tenantId, c2, [PROMO]);
});
afterAll(async () => {
  await t?.stop();
});

it("saves a campaign whose template is approved on each connection, with the template's texts", async () => {
  // A client's own copy of the texts is replaced by the connection's.
  const forged = { ...PROMO_CONTENT, preview: { header: null, body: "Pague agora", footer: null } };
  const r = await t.api.post("/campanhaswaba", draft({ content: forged }), a.admin);
  expect(r.status).toBe(200);
  const got = await t.api.get(`/campanhaswaba/item?id=${r.body.id}`, a.admin);
  expect(got.body).toMatchObject({ status: "pending", connectionIds: [c1, c2] });
  expect(got.body.content).toEqual({ ...PROMO_CONTENT, preview: { header: PROMO.header!.text, body: PROMO.body.text, footer: PROMO.footer!.text } });
});

it("refuses templates missing, not approved, with other variables or media headers, and connections without templates, with their codes", async () => {
  const content = (o: Record<string, unknown>) => ({ content: { ...PROMO_CONTENT, ...o } });
  expectError(await t.api.post("/campanhaswaba", draft(content({ template: { name: "nao_existe", language: "pt_BR" } })), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_NOT_FOUND", { name: "nao_existe", connectionId: c1 });
  expectError(await t.api.post("/campanhaswaba", draft(content({ template: { name: PROMO.name, language: "en_US" } })), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_NOT_FOUND");
  // Approved on the first connection only: the second one is named.
  expectError(await t.api.post("/campanhaswaba", draft(content({ template: { name: PENDING.name, language: "pt_BR" } })), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_NOT_APPROVED", { status: "PENDING", connectionId: c1 });
  expectError(await t.api.post("/campanhaswaba", draft(content({ body: ["{{name}}", "NATAL10"] })), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_PARAMS_MISMATCH", { part: "body", expected: 3, got: 2 });
  expectError(await t.api.post("/campanhaswaba", draft(content({ header: [] })), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_PARAMS_MISMATCH", { part: "header", expected: 1, got: 0 });
  expectError(await t.api.post("/campanhaswaba", draft({ connectionIds: [c1], ...content({ template: { name: LOCATION_HEADER.name, language: "pt_BR" }, header: [] }) }), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_UNSUPPORTED", { part: "header LOCATION" });
  expectError(await t.api.post("/campanhaswaba", draft(content({ body: ["{{email}}", "NATAL10", "25/12"] })), a.admin), 400, "ERR_CAMPAIGN_WABA_CONTENT_INVALID");
  expectError(await t.api.post("/campanhaswaba", draft(content({ template: { name: "Promo Natal", language: "pt_BR" } })), a.admin), 400, "ERR_VALIDATION");

  const site = await connection(t, a, "Site", "channel-webchat", { title: "Loja" });
  expectError(await t.api.post("/campanhaswaba", draft({ connectionIds: [c1, site] }), a.admin), 400, "ERR_CAMPAIGN_WABA_CONNECTION_UNSUPPORTED", { connectionId: site });
  const other = await createTenant(t, { tier: "PREMIUM" });
  const theirs = await connection(t, other, "Deles");
  expectError(await t.api.post("/campanhaswaba", draft({ connectionIds: [theirs] }), a.admin), 404, "ERR_CONNECTION_NOT_FOUND");

  // An update is checked the same way.
  const made = await t.api.post("/campanhaswaba", draft(), a.admin);
  expectError(await t.api.put("/campanhaswaba/item", { id: made.body.id, ...draft(content({ body: [] })) }, a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_PARAMS_MISMATCH");
});

it("an image header takes a file of its kind, uploaded to the campaign's files; a text header takes none", async () => {
  const image = { template: { name: IMAGE_HEADER.name, language: "pt_BR" }, header: [], body: ["{{name}}", "NATAL10", "25/12"] };
  expectError(await t.api.post("/campanhaswaba", draft({ connectionIds: [c1], content: image }), a.admin), 400, "ERR_CAMPAIGN_WABA_HEADER_FILE_REQUIRED", { format: "IMAGE", types: "image/jpeg, image/png" });
  const upload = (fileName: string, mimeType: string, data: Buffer) => t.api.post("/campanhaswaba/media", { file: { fileName, mimeType, data: data.toString("base64") } }, a.admin);
  const text = await upload("nota.txt", "text/plain", Buffer.from("oi"));
  expect(text.status).toBe(200);
  const file = (b: { path: string; mimeType: string; fileName: string }) => ({ path: b.path, mimeType: b.mimeType, fileName: b.fileName });
  expectError(await t.api.post("/campanhaswaba", draft({ connectionIds: [c1], content: { ...image, headerMedia: file(text.body) } }), a.admin), 400, "ERR_CAMPAIGN_WABA_HEADER_FILE_REQUIRED");
  const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
  const up = await upload("oferta.png", "image/png", png);
  expect(up.status).toBe(200);
  const made = await t.api.post("/campanhaswaba", draft({ connectionIds: [c1], content: { ...image, headerMedia: file(up.body) } }), a.admin);
  expect(made.status).toBe(200);
  expect((await t.api.get(`/campanhaswaba/item?id=${made.body.id}`, a.admin)).body.content.headerMedia).toEqual(file(up.body));
  // A TEXT header with a file: the header's parameters do not match.
  expectError(await t.api.post("/campanhaswaba", draft({ content: { ...PROMO_CONTENT, headerMedia: file(up.body) } }), a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_PARAMS_MISMATCH", { part: "header" });
});

it("a URL button's {{1}} suffix and a copy code need a value, a quick reply's payload may be left empty, a button that takes none gets none", async () => {
  const buttons = (b: Array<{ index: number; value: string }>) => draft({ connectionIds: [c1], content: { ...BUTTONS_CONTENT, buttons: b } });
  const [reply, url, code] = BUTTONS_CONTENT.buttons;
  const made = await t.api.post("/campanhaswaba", buttons([reply!, url!, code!]), a.admin);
  expect(made.status).toBe(200);
  expect((await t.api.get(`/campanhaswaba/item?id=${made.body.id}`, a.admin)).body.content).toMatchObject({ buttons: BUTTONS_CONTENT.buttons, preview: { body: BUTTONS.body.text } });
  // The quick reply's payload is optional.
  expect((await t.api.post("/campanhaswaba", buttons([{ index: 0, value: "" }, url!, code!]), a.admin)).status).toBe(200);
  expect((await t.api.post("/campanhaswaba", buttons([url!, code!]), a.admin)).status).toBe(200);
  // The URL's suffix and the code are not.
  expectError(await t.api.post("/campanhaswaba", buttons([reply!, code!]), a.admin), 400, "ERR_CAMPAIGN_WABA_BUTTON_VALUE_REQUIRED", { button: "Meu pedido", kind: "URL", problems: { "buttons.2": "ERR_CAMPAIGN_WABA_BUTTON_VALUE_REQUIRED" } });
  expectError(await t.api.post("/campanhaswaba", buttons([reply!, url!, { index: 4, value: "   " }]), a.admin), 400, "ERR_CAMPAIGN_WABA_BUTTON_VALUE_REQUIRED", { button: "Copiar cupom", kind: "COPY_CODE" });
  // A fixed URL or a call button takes no value; an unknown field is the content's code.
  expectError(await t.api.post("/campanhaswaba", buttons([url!, code!, { index: 1, value: "x" }]), a.admin), 400, "ERR_CAMPAIGN_WABA_BUTTON_VALUE_UNEXPECTED", { button: "Loja", problems: { "buttons.1": "ERR_CAMPAIGN_WABA_BUTTON_VALUE_UNEXPECTED" } });
  expectError(await t.api.post("/campanhaswaba", buttons([url!, code!, { index: 3, value: "x" }]), a.admin), 400, "ERR_CAMPAIGN_WABA_BUTTON_VALUE_UNEXPECTED", { button: "Ligar" });
  expectError(await t.api.post("/campanhaswaba", buttons([{ index: 2, value: "{{email}}" }, code!]), a.admin), 400, "ERR_CAMPAIGN_WABA_CONTENT_INVALID");
  expectError(await t.api.post("/campanhaswaba", buttons([{ index: 12, value: "x" }, url!, code!]), a.admin), 400, "ERR_VALIDATION");
});

it("checks the template again on schedule: one paused since the campaign was saved is refused", async () => {
  const made = await t.api.post("/campanhaswaba", draft({ connectionIds: [c2] }), a.admin);
  const contactId = await visitor(t, a.tenantId, c2, String(Date.now()).slice(-8), "Bia Lima");
  expect((await t.api.post("/campanhaswaba/item/contacts", { id: made.body.id, source: { kind: "contacts", contactIds: [contactId] } }, a.admin)).status).toBe(200);
  await templatesOn(t, a.tenantId, c2, [{ ...PROMO, status: "PAUSED" }]);
  expectError(await t.api.post("/campanhaswaba/item/schedule", { id: made.body.id }, a.admin), 400, "ERR_CAMPAIGN_WABA_TEMPLATE_NOT_APPROVED", { status: "PAUSED" });
  expect((await t.api.get(`/campanhaswaba/item?id=${made.body.id}`, a.admin)).body.status).toBe("pending");
  await templatesOn(t, a.tenantId, c2, [PROMO]);
  expect((await t.api.post("/campanhaswaba/item/schedule", { id: made.body.id }, a.admin)).body).toMatchObject({ status: "scheduled" });
  expect((await t.api.post("/campanhaswaba/item/cancel", { id: made.body.id }, a.admin)).body).toMatchObject({ status: "canceled" });
});

it("is PREMIUM: a BASIC tenant is refused", async () => {
  const basic = await createTenant(t, { tier: "BASIC" });
  await t.api.put(`/plugins/campaign-waba/tenants/${basic.tenantId}`, { allowed: true }, sup);
  const r = await t.api.get("/campanhaswaba", basic.admin);
  expect(r.status).toBe(403);
  expect(r.body.error).toBe("ERR_LICENSE_TIER_REQUIRED");
  expect((await t.api.post("/campanhaswaba", draft(), basic.admin)).status).toBe(403);
});

it("answers another tenant's campaign as not found on every route", async () => {
  const made = await t.api.post("/campanhaswaba", draft(), a.admin);
  const id = made.body.id as number;
  const b = await createTenant(t, { tier: "PREMIUM" });
  await allow(t, sup, b.tenantId);
  const theirC = await connection(t, b, "B");
  await templatesOn(t, b.tenantId, theirC, [PROMO]);
  const nf = (r: Res) => expectError(r, 404, "ERR_CAMPAIGN_NOT_FOUND");
  nf(await t.api.get(`/campanhaswaba/item?id=${id}`, b.admin));
  nf(await t.api.put("/campanhaswaba/item", { id, ...draft({ connectionIds: [theirC] }) }, b.admin));
  nf(await t.api.get(`/campanhaswaba/item/contacts?id=${id}`, b.admin));
  nf(await t.api.post("/campanhaswaba/item/schedule", { id }, b.admin));
  nf(await t.api.post("/campanhaswaba/item/pause", { id }, b.admin));
  nf(await t.api.post("/campanhaswaba/item/cancel", { id }, b.admin));
  nf(await t.api.del(`/campanhaswaba/item?id=${id}`, b.admin));
  expect((await t.api.get("/campanhaswaba", b.admin)).body).toEqual([]);
  expect((await t.api.get(`/campanhaswaba/item?id=${id}`, a.admin)).status).toBe(200);
});
