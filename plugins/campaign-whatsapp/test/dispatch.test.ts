/**
 * A normal campaign through a real core on MariaDB and Redis, with the campaign test channel
 * (which counts every hand-over and acks delivered then read): contacts linked, scheduled, sent
 * through two connections by the core's scheduler, a rate-limited connection that slows the
 * campaign down instead of failing contacts, the core stopped mid-campaign and started again
 * on the same database and Redis (nothing sent twice, nothing lost), and the counts from acks.
 *
 * One file alone: NODE_PATH=/tmp/campaign-link npx jest plugins/campaign-whatsapp/test/dispatch.test.ts
 * (NODE_PATH only until npm install links @openatende/campaign-engine).
 */
import { createConnection } from "mysql2/promise";
import { createTenant, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { allow, CHANNEL_SERVICE, connection, createSuper, routesReady, startCampaignCore, visitor, waitFor } from "./setup";

jest.setTimeout(240_000);

let t: TestCore;
let sup: Auth;
let a: TenantFixture;

afterAll(async () => {
  await t?.stop();
});

type Handed = { tenantId: number; connectionId: number; to: string; body: string };

it("sends each contact exactly once across a restart, slows down on a rate limit, and counts the acks", async () => {
  t = await startCampaignCore();
  sup = await createSuper(t);
  a = await createTenant(t, { tier: "BASIC" });
  await allow(t, sup, a.tenantId);
  await routesReady(t, a.admin);
  const c1 = await connection(t, a, "Loja");
  const c2 = await connection(t, a, "Filial");
  const keys = Array.from({ length: 12 }, (_, i) => `${uid()}-${i}`);
  const contactIds: number[] = [];
  for (const k of keys) contactIds.push(await visitor(t, a.tenantId, c1, k));

  const created = await t.api.post("/campanhas", { name: "Natal", startAt: Date.now(), connectionIds: [c1, c2], minIntervalSeconds: 0, maxIntervalSeconds: 0, content: { messages: ["Feliz Natal, {{name}}!", "Boas festas, {{name}}!"] } }, a.admin);
  expect(created.status).toBe(200);
  const id = created.body.id as number;
  expect((await t.api.post("/campanhas/item/contacts", { id, source: { kind: "contacts", contactIds } }, a.admin)).body).toEqual({ added: 12, total: 12 });

  // The first connection answers "rate limited" twice; each send takes a while, so the stop comes mid-campaign.
  await t.core.broker.call(`${CHANNEL_SERVICE}.limit`, { tenantId: a.tenantId, connectionId: c1, n: 2 });
  await t.core.broker.call(`${CHANNEL_SERVICE}.slow`, { ms: 250 });
  const handed = async () => ((await t.core.broker.call(`${CHANNEL_SERVICE}.handed`, { tenantId: a.tenantId })) as Handed[]).filter((h) => /Feliz Natal|Boas festas/.test(h.body));
  const before = (await handed()).length;
  const scheduled = await t.api.post("/campanhas/item/schedule", { id }, a.admin);
  expect(scheduled.body).toMatchObject({ id, status: "scheduled" });
  await waitFor("a few sends", handed, (h) => h.length - before >= 4);

  // Stopped mid-campaign (its dispatch run cut short), then started again on the same installation.
  const store = t.store;
  await t.stop({ keep: true });
  t = await startCampaignCore(store);
  const admin = await t.api.login(a.emails.admin);
  await routesReady(t, admin);

  const done = await waitFor("the campaign to finish and its acks to arrive", async () => (await t.api.get(`/campanhas/item?id=${id}`, admin)).body, (c) => c.status === "finished" && c.counts.read === 12, 120_000);
  expect(done.counts).toEqual({ contacts: 12, toSend: 0, delivered: 12, received: 12, read: 12, played: 0, failed: 0 });

  // Exactly once: one message per contact in the core, each handed over once; nobody lost.
  const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "", database: store.dbName });
  try {
    const [rows] = await db.query("SELECT contactId, status, failReason, idempotencyKey FROM messages WHERE tenantId = ? AND idempotencyKey LIKE ? ORDER BY id", [a.tenantId, `campaign-whatsapp:campaign:${id}:%`]);
    const list = rows as Array<{ contactId: number; status: string; failReason: string | null; idempotencyKey: string }>;
    const sent = list.filter((m) => m.status !== "failed");
    expect(sent.map((m) => m.contactId).sort((x, y) => x - y)).toEqual([...contactIds].sort((x, y) => x - y));
    // The two refusals were never handed over: failed messages with the channel's code, sent again under the next attempt's key.
    expect(list.filter((m) => m.status === "failed").map((m) => m.failReason)).toEqual(["ERR_RATE_LIMITED", "ERR_RATE_LIMITED"]);
    expect(list.filter((m) => /:retry:/.test(m.idempotencyKey)).length).toBeGreaterThanOrEqual(1);
  } finally {
    await db.end();
  }
  const all = (await t.core.broker.call(`${CHANNEL_SERVICE}.handed`, { tenantId: a.tenantId })) as Handed[];
  const toVisitors = all.filter((h) => /Feliz Natal|Boas festas/.test(h.body));
  const perVisitor = new Map<string, number>();
  for (const h of toVisitors) perVisitor.set(h.to, (perVisitor.get(h.to) ?? 0) + 1);
  expect([...perVisitor.values()]).toEqual(Array(12).fill(1));
  // The refused connection backed off while the other went on (round robin itself: the engine's tests).
  expect(toVisitors.every((h) => h.connectionId === c1 || h.connectionId === c2)).toBe(true);
  expect(toVisitors.some((h) => h.connectionId === c2)).toBe(true);

  const contacts = await t.api.get(`/campanhas/item/contacts?id=${id}&limit=50`, admin);
  expect(contacts.body.count).toBe(12);
  expect(contacts.body.rows.every((r: { status: string; messageId: number | null }) => r.status === "read" && r.messageId !== null)).toBe(true);
});
