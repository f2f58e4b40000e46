/**
 * A WABA template campaign through a real core on MariaDB and Redis, with the official-API
 * test channel (which records every send as its provider got it and acks delivered then read):
 * contacts linked, scheduled, sent through two connections by the core's scheduler as the
 * approved template with each contact's own variables, the core stopped mid-campaign and
 * started again on the same database and Redis — each contact gets the template exactly once,
 * nobody is lost — and the counts from acks. A template with buttons gets each contact's own
 * button values, which reach the provider as the Cloud API's button components.
 */
import { createConnection } from "mysql2/promise";
import { createTenant, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { ProviderSend } from "./fixtures/channel-waba-campaign-fixture/src/service";
import { allow, CHANNEL_SERVICE, connection, createSuper, routesReady, startWabaCore, templatesOn, visitor, waitFor } from "./setup";
import { BUTTONS, BUTTONS_CONTENT, PROMO, PROMO_CONTENT } from "./templates";

jest.setTimeout(240_000);

let t: TestCore;
let sup: Auth;
let a: TenantFixture;

afterAll(async () => {
  await t?.stop();
});

it("sends the approved template to each contact with their own variables, exactly once across a restart, and counts the acks", async () => {
  t = await startWabaCore();
  sup = await createSuper(t);
  a = await createTenant(t, { tier: "PREMIUM" });
  await allow(t, sup, a.tenantId);
  await routesReady(t, a.admin);
  const c1 = await connection(t, a, "Oficial");
  const c2 = await connection(t, a, "Oficial 2");
  for (const c of [c1, c2]) await templatesOn(t, a.tenantId, c, [PROMO]);
  const base = Number(String(Date.now()).slice(-6)) * 100;
  const people = Array.from({ length: 10 }, (_, i) => ({ key: String(base + i), name: `Cliente${i} Souza ${uid()}` }));
  const contactIds: number[] = [];
  for (const p of people) contactIds.push(await visitor(t, a.tenantId, c1, p.key, p.name));

  const created = await t.api.post("/campanhaswaba", { name: "Natal WABA", startAt: Date.now(), connectionIds: [c1, c2], minIntervalSeconds: 0, maxIntervalSeconds: 0, content: PROMO_CONTENT }, a.admin);
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  expect((await t.api.post("/campanhaswaba/item/contacts", { id, source: { kind: "contacts", contactIds } }, a.admin)).body).toEqual({ added: 10, total: 10 });

  await t.core.broker.call(`${CHANNEL_SERVICE}.slow`, { ms: 250 });
  const sends = async () => ((await t.core.broker.call(`${CHANNEL_SERVICE}.sends`, { tenantId: a.tenantId })) as ProviderSend[]).filter((s) => s.kind === "template");
  expect((await t.api.post("/campanhaswaba/item/schedule", { id }, a.admin)).body).toMatchObject({ id, status: "scheduled" });
  await waitFor("a few sends", sends, (s) => s.length >= 3);

  // Stopped mid-campaign, then started again on the same installation.
  expect((await sends()).length).toBeLessThan(10);
  const store = t.store;
  await t.stop({ keep: true });
  t = await startWabaCore(store);
  const admin = await t.api.login(a.emails.admin);
  await routesReady(t, admin);
  const done = await waitFor("the campaign to finish and its acks to arrive", async () => (await t.api.get(`/campanhaswaba/item?id=${id}`, admin)).body, (c) => c.status === "finished" && c.counts.read === 10, 120_000);
  expect(done.counts).toEqual({ contacts: 10, toSend: 0, delivered: 10, received: 10, read: 10, played: 0, failed: 0 });

  // Exactly once at the provider: one template send per contact, with that contact's own variables.
  const all = await sends();
  expect(all.map((s) => s.to).sort()).toEqual(people.map((p) => `55119${p.key}`).sort());
  for (const s of all) {
    const p = people.find((x) => `55119${x.key}` === s.to)!;
    expect(s.template).toEqual({ name: "promo_natal", language: "pt_BR", components: { header: { text: [p.name.split(" ")[0]] }, body: [p.name, "NATAL10", "25/12"] } });
    expect([c1, c2]).toContain(s.connectionId);
  }
  expect(new Set(all.map((s) => s.connectionId)).size).toBe(2);

  // The chat's copy of each send is the template's text filled for its contact.
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: store.dbName });
  try {
    const [rows] = await db.query("SELECT contactId, body, status FROM messages WHERE tenantId = ? AND idempotencyKey LIKE ? ORDER BY id", [a.tenantId, `campaign-waba:campaign:${id}:%`]);
    const list = rows as Array<{ contactId: number; body: string; status: string }>;
    expect(list.map((m) => m.contactId).sort((x, y) => x - y)).toEqual([...contactIds].sort((x, y) => x - y));
    const first = people[0]!;
    const mine = list.find((m) => m.contactId === contactIds[0])!;
    expect(mine.body).toBe(`Oferta para ${first.name.split(" ")[0]}\n\nOlá ${first.name}, seu cupom NATAL10 vale até 25/12.\n\nLoja Exemplo`);
  } finally {
    await db.end();
  }
});

it("sends each contact's own button values: a URL suffix, a copy code and a quick reply's payload, as the Cloud API's button components", async () => {
  const b = await createTenant(t, { tier: "PREMIUM" });
  await allow(t, sup, b.tenantId);
  const admin = b.admin;
  await routesReady(t, admin);
  const c = await connection(t, b, "Cupons");
  await templatesOn(t, b.tenantId, c, [BUTTONS]);
  await t.core.broker.call(`${CHANNEL_SERVICE}.slow`, { ms: 0 });
  const base = Number(String(Date.now()).slice(-6)) * 100 + 50;
  const people = Array.from({ length: 3 }, (_, i) => ({ key: String(base + i), name: `Bia${i} Lima` }));
  const contactIds: number[] = [];
  for (const p of people) contactIds.push(await visitor(t, b.tenantId, c, p.key, p.name));
  const created = await t.api.post("/campanhaswaba", { name: "Cupons", startAt: Date.now(), connectionIds: [c], minIntervalSeconds: 0, maxIntervalSeconds: 0, content: BUTTONS_CONTENT }, admin);
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  await t.api.post("/campanhaswaba/item/contacts", { id, source: { kind: "contacts", contactIds } }, admin);
  expect((await t.api.post("/campanhaswaba/item/schedule", { id }, admin)).body).toMatchObject({ status: "scheduled" });
  await waitFor("the campaign to finish", async () => (await t.api.get(`/campanhaswaba/item?id=${id}`, admin)).body, (x) => x.status === "finished" && x.counts.toSend === 0, 60_000);

  const sends = ((await t.core.broker.call(`${CHANNEL_SERVICE}.sends`, { tenantId: b.tenantId })) as ProviderSend[]).filter((s) => s.kind === "template");
  expect(sends.map((s) => s.to).sort()).toEqual(people.map((p) => `55119${p.key}`).sort());
  for (const s of sends) {
    const p = people.find((x) => `55119${x.key}` === s.to)!;
    const first = p.name.split(" ")[0]!;
    expect(s.template!.components).toEqual({ body: [first], buttons: [{ index: 0, value: `quero-${first}` }, { index: 2, value: first }, { index: 4, value: "NATAL10" }] });
    expect(s.cloud).toEqual({
      name: "cupom_botoes",
      language: { code: "pt_BR" },
      components: [
        { type: "body", parameters: [{ type: "text", text: first }] },
        { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "payload", payload: `quero-${first}` }] },
        { type: "button", sub_type: "url", index: "2", parameters: [{ type: "text", text: first }] },
        { type: "button", sub_type: "copy_code", index: "4", parameters: [{ type: "coupon_code", coupon_code: "NATAL10" }] },
      ],
    });
  }
});
