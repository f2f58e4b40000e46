/**
 * SMS campaigns through a real core on MariaDB and Redis, the SMS channel and the local
 * Comtele (spec §5 SMS, §6 PREMIUM): the connection must be an SMS one whose token works;
 * repeated and invalid numbers are refused naming them (CSV lines, contacts); credits are
 * checked before a campaign is scheduled — short, ERR_SMS_INSUFFICIENT_CREDITS says how many of
 * the first contacts they cover, and scheduling again with `limitTo` that many sends exactly to
 * those; a campaign cut short by a restart sends each number once; a BASIC tenant is refused and
 * another tenant's campaign is not found.
 */
import { createTenant, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeComtele, type FakeAccount } from "../../channel-sms/test/fake-comtele";
import { connectSms, createSmsConnection } from "../../channel-sms/test/helpers";
import { allow, contact, createSuper, mobile, ROUTE, startSmsCampaignCore, waitFor } from "./setup";

jest.setTimeout(240_000);

let api: FakeComtele;
let t: TestCore;
let sup: Auth;
let a: TenantFixture;
let b: TenantFixture;
let basic: TenantFixture;
let account: FakeAccount;
let conn: number;
const HOUR = 3_600_000;

const codeOf = async (p: Promise<Res>) => {
  const r = await p;
  return [r.status, (r.body as { error?: string })?.error];
};
const draft = (over: Record<string, unknown> = {}) => ({ name: `SMS ${uid()}`, startAt: Date.now() + HOUR, connectionIds: [conn], minIntervalSeconds: 0, maxIntervalSeconds: 0, content: { text: "Oi {{firstName}}, 20% off hoje!" }, ...over });
async function create(who: Auth, over: Record<string, unknown> = {}): Promise<number> {
  const r = await t.api.post(ROUTE, draft(over), who);
  if (r.status !== 200) throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.id as number;
}
const link = (id: number, source: Record<string, unknown>, who: Auth = a.admin) => t.api.post(`${ROUTE}/item/contacts`, { id, source }, who);
const schedule = (id: number, extra: Record<string, unknown> = {}, who: Auth = a.admin) => t.api.post(`${ROUTE}/item/schedule`, { id, ...extra }, who);
/** The numbers Comtele received a campaign's text on. */
const received = (text: RegExp) => api.sendsOf(account.token).filter((m) => text.test(m.content)).map((m) => m.receiver);

beforeAll(async () => {
  api = await FakeComtele.start();
  t = await startSmsCampaignCore();
  sup = await createSuper(t);
  [a, b, basic] = await Promise.all([createTenant(t, { tier: "PREMIUM" }), createTenant(t, { tier: "PREMIUM" }), createTenant(t, { tier: "BASIC" })]);
  for (const f of [a, b, basic]) await allow(t, sup, f.tenantId);
  await waitFor(`the ${ROUTE} routes`, () => t.api.get(ROUTE, a.admin), (r) => r.status !== 404);
  account = api.addAccount({ credits: 1000 });
  conn = (await connectSms(t, a, api, account, "SMS Loja")).id;
});

afterAll(async () => {
  await t?.stop();
  await api?.close();
});

describe("tier and tenants", () => {
  it("refuses a BASIC tenant on the SMS campaign routes (PREMIUM)", async () => {
    expect(await codeOf(t.api.get(ROUTE, basic.admin))).toEqual([403, "ERR_LICENSE_TIER_REQUIRED"]);
    expect(await codeOf(t.api.post(ROUTE, draft(), basic.admin))).toEqual([403, "ERR_LICENSE_TIER_REQUIRED"]);
  });

  it("answers another tenant's campaign as not found on its routes", async () => {
    const id = await create(a.admin);
    expect(await codeOf(t.api.get(`${ROUTE}/item?id=${id}`, b.admin))).toEqual([404, "ERR_CAMPAIGN_NOT_FOUND"]);
    expect(await codeOf(schedule(id, {}, b.admin))).toEqual([404, "ERR_CAMPAIGN_NOT_FOUND"]);
    expect(await codeOf(link(id, { kind: "csv", csv: mobile() }, b.admin))).toEqual([404, "ERR_CAMPAIGN_NOT_FOUND"]);
    expect(await codeOf(t.api.put(`${ROUTE}/item`, { id, ...draft() }, b.admin))).toEqual([404, "ERR_CAMPAIGN_NOT_FOUND"]);
    expect((await t.api.get(`${ROUTE}/item?id=${id}`, a.admin)).status).toBe(200);
  });
});

describe("connection and text", () => {
  it("takes only SMS connections whose provider accepts the token, and a text of at most 10 parts", async () => {
    // A connection whose token Comtele does not know: the token is required to work.
    const stranger = await createSmsConnection(t, a, api, { token: "NOT-A-COMTELE-KEY", credits: 0, callbacks: {} }, "SMS sem token");
    const refused = await t.api.post(ROUTE, draft({ connectionIds: [stranger.id] }), a.admin);
    expect([refused.status, refused.body.error]).toEqual([400, "ERR_SMS_INVALID_TOKEN"]);
    expect(refused.body.title).toBe("Token de SMS inválido");
    expect(await codeOf(t.api.post(ROUTE, draft({ connectionIds: [conn, 2_000_000_000] }), a.admin))).toEqual([404, "ERR_CONNECTION_NOT_FOUND"]);
    // A web chat connection has no credits: not an SMS connection.
    const chat = await t.api.post("/connections", { type: "webchat", name: `Chat ${uid()}`, queueId: a.queueIds[0], settings: {} }, a.admin);
    expect(chat.status).toBe(201);
    const notSms = await t.api.post(ROUTE, draft({ connectionIds: [conn, chat.body.id] }), a.admin);
    expect([notSms.status, notSms.body.error, notSms.body.data.connectionId]).toEqual([400, "ERR_CAMPAIGN_SMS_CONNECTION_NOT_SMS", chat.body.id]);
    expect(await codeOf(t.api.post(ROUTE, draft({ content: { text: "   " } }), a.admin))).toEqual([400, "ERR_CAMPAIGN_SMS_CONTENT_INVALID"]);
    expect(await codeOf(t.api.post(ROUTE, draft({ content: { text: "x".repeat(153 * 10 + 1) } }), a.admin))).toEqual([400, "ERR_VALIDATION"]);
    expect(await codeOf(t.api.post(ROUTE, draft({ content: { text: "ç".repeat(67 * 10 + 1) } }), a.admin))).toEqual([400, "ERR_CAMPAIGN_SMS_CONTENT_INVALID"]);
  });
});

describe("numbers", () => {
  it("refuses a CSV with repeated or invalid numbers, naming them and their lines, and links nothing", async () => {
    const id = await create(a.admin);
    const [n1, n2] = [mobile(), mobile()];
    await contact(t, a, `Ana ${uid()}`, n1);
    await contact(t, a, `Bia ${uid()}`, n2);
    const dup = await link(id, { kind: "csv", csv: `nome,numero\nAna,${n1}\nBia,${n2}\nAna de novo,+${n1}\n` });
    expect([dup.status, dup.body.error]).toEqual([400, "ERR_CAMPAIGN_SMS_DUPLICATE_NUMBERS"]);
    expect(dup.body.data.numbers).toBe(`${n1} (lines 2, 4)`);
    const short = await link(id, { kind: "csv", csv: `nome,numero\nAna,${n1}\nCurto,123456789\n` });
    expect([short.status, short.body.error, short.body.data.numbers]).toEqual([400, "ERR_CAMPAIGN_SMS_INVALID_NUMBERS", "123456789 (line 3)"]);
    const garbage = await link(id, { kind: "csv", csv: `nome,numero\nAna,${n1}\nLixo,abc\n` });
    expect([garbage.status, garbage.body.error, garbage.body.data.lines]).toEqual([400, "ERR_CAMPAIGN_SMS_INVALID_NUMBERS", [3]]);
    expect((await t.api.get(`${ROUTE}/item/contacts?id=${id}`, a.admin)).body.count).toBe(0);
    expect((await link(id, { kind: "csv", csv: `${n1}\n${n2}\n` })).body).toEqual({ added: 2, total: 2 });
  });

  it("refuses contacts of the list without a valid SMS number, naming them", async () => {
    const id = await create(a.admin);
    const ok = await contact(t, a, `Caio ${uid()}`, mobile());
    // A short code (5 digits, a carrier's service) texted in: a contact with no number an SMS reaches.
    const name = `Serviço ${uid()}`;
    expect(await api.reply(account.token, { from: "29000", name, text: "SAIR" })).toBe(200);
    const bad = await waitFor("the short number's contact", async () => ((await t.api.get(`/contacts?searchParam=${encodeURIComponent(name)}`, a.admin)).body.contacts ?? [])[0]?.id as number | undefined, (v) => !!v);
    const r = await link(id, { kind: "contacts", contactIds: [ok, bad!] });
    expect([r.status, r.body.error]).toEqual([400, "ERR_CAMPAIGN_SMS_INVALID_NUMBERS"]);
    expect(r.body.data.contactIds).toEqual([bad]);
    expect(r.body.message).toContain(name);
    expect((await link(id, { kind: "contacts", contactIds: [ok] })).body).toEqual({ added: 1, total: 1 });
  });
});

describe("credits", () => {
  it("short: the code says how many of the first contacts the credits cover; limitTo sends exactly to those, once", async () => {
    account.credits = 5;
    const id = await create(a.admin, { startAt: Date.now(), content: { text: "Queima de estoque {{name}}" } });
    const numbers = Array.from({ length: 7 }, () => mobile());
    for (const [i, n] of numbers.entries()) await contact(t, a, `Cliente ${i} ${uid()}`, n);
    expect((await link(id, { kind: "csv", csv: numbers.join("\n") })).body).toEqual({ added: 7, total: 7 });

    const short = await schedule(id);
    expect([short.status, short.body.error]).toEqual([402, "ERR_SMS_INSUFFICIENT_CREDITS"]);
    expect(short.body.data).toEqual({ credits: 5, needed: 7, affordable: 5 });
    expect((await t.api.get(`${ROUTE}/item?id=${id}`, a.admin)).body).toMatchObject({ status: "pending", counts: { contacts: 7 } });

    // The user chose to continue with the first 5: the other 2 are unlinked and 5 are sent.
    const go = await schedule(id, { limitTo: 5 });
    expect(go.status).toBe(200);
    expect(go.body).toMatchObject({ status: "scheduled", counts: { contacts: 5 } });
    const done = await waitFor("the campaign to finish", async () => (await t.api.get(`${ROUTE}/item?id=${id}`, a.admin)).body, (c) => c.status === "finished", 60_000);
    expect(done.counts).toMatchObject({ contacts: 5, toSend: 0, delivered: 5, failed: 0 });
    expect(received(/^Queima de estoque/).sort()).toEqual(numbers.slice(0, 5).sort());
    expect(account.credits).toBe(0);
  });

  it("enough: scheduled at once, every part counted (a 2-part text to 2 contacts needs 4)", async () => {
    account.credits = 3;
    const text = `Aviso: ${"a".repeat(170)}`;
    const id = await create(a.admin, { content: { text } });
    const numbers = [mobile(), mobile()];
    for (const n of numbers) await contact(t, a, `Duo ${uid()}`, n);
    await link(id, { kind: "csv", csv: numbers.join("\n") });
    const short = await schedule(id);
    expect([short.status, short.body.data]).toEqual([402, { credits: 3, needed: 4, affordable: 1 }]);
    account.credits = 4;
    expect((await schedule(id)).body).toMatchObject({ status: "scheduled", counts: { contacts: 2 } });
    expect(await codeOf(t.api.post(`${ROUTE}/item/cancel`, { id }, a.admin))).toEqual([200, undefined]);
  });
});

describe("exactly once", () => {
  it("a campaign cut short by a restart sends each number once and loses none", async () => {
    account.credits = 100;
    const id = await create(a.admin, { startAt: Date.now(), minIntervalSeconds: 1, maxIntervalSeconds: 1, content: { text: "Reinício {{firstName}}" } });
    const numbers = Array.from({ length: 6 }, () => mobile());
    for (const n of numbers) await contact(t, a, `Rei ${uid()}`, n);
    await link(id, { kind: "csv", csv: numbers.join("\n") });
    expect((await schedule(id)).body).toMatchObject({ status: "scheduled" });
    await waitFor("two sends", async () => received(/^Reinício/).length, (n) => n >= 2);

    const store = t.store;
    await t.stop({ keep: true });
    t = await startSmsCampaignCore(store);
    const admin = await t.api.login(a.emails.admin);
    const done = await waitFor("the campaign to finish after the restart", async () => (await t.api.get(`${ROUTE}/item?id=${id}`, admin)).body, (c) => c.status === "finished", 90_000);
    expect(done.counts).toMatchObject({ contacts: 6, toSend: 0, delivered: 6, failed: 0 });
    const got = received(/^Reinício/);
    expect(got.sort()).toEqual([...numbers].sort());
    expect(account.credits).toBe(94);
  });
});
