/**
 * The hub channel in a real core (gateway, MariaDB, Redis) against a local NotificaMe: connect
 * subscribes the webhook, customers' messages become tickets (each once), the public route is
 * rate-limited, the webhook's secret keeps out what the hub did not send, and no tenant
 * receives another's messages.
 */
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeNotificaMe } from "./fake-notificame";
import { connectHub, messagesOf, sleep, ticketsOf, ticketWithMessages, LOOPBACK_FAKES, type HubConnection } from "./helpers";

describe("hub channel, real core", () => {
  let hub: FakeNotificaMe;
  let t: TestCore;
  let f: TenantFixture;
  let c: HubConnection;

  beforeAll(async () => {
    hub = await FakeNotificaMe.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectHub(t, f, hub, { name: "Instagram da loja" });
  });
  afterAll(async () => {
    await t?.stop();
    await hub?.close();
  });

  const visitor = () => ({ from: `17841${Math.floor(1e9 + Math.random() * 8e9)}`, name: `Ana ${uid()}` });
  const deliver = (conn: HubConnection, event: unknown) => hub.post(conn.channel.id, event, { origin: t.url });

  it("connecting subscribes the hub to the connection's webhook, secret included", async () => {
    expect(c.status).toBe("connected");
    const sub = hub.subscriptionOf(c.channel.id)!;
    expect(sub.apiToken).toBe(c.channel.apiToken);
    expect(new URL(sub.url).pathname).toBe(`/api/hub/${c.token}/webhook/${c.secret}`);
    // The form shows the same address to its tenant's admins; nobody else learns the secret.
    const shown = await t.api.get(`/hub/webhook-url?token=${c.token}`, f.admin);
    expect(shown.status).toBe(200);
    expect(shown.body.path).toBe(`/api/hub/${c.token}/webhook/${c.secret}`);
    expect((await t.api.get(`/hub/webhook-url?token=${c.token}`, f.agent)).status).toBe(403);
  });

  it("a customer's message opens a ticket; the same delivery again stores nothing new", async () => {
    const who = visitor();
    const event = hub.messageEvent(c.channel.id, { ...who, text: "Oi, vocês têm o tênis 42?" });
    expect(await deliver(c, event)).toMatchObject({ status: 200, body: { ok: true, result: "stored" } });
    const { ticket, messages } = await ticketWithMessages(t, f.admin, who.name, 1);
    expect(messages[0]).toMatchObject({ body: "Oi, vocês têm o tênis 42?", fromMe: false });
    expect(Math.abs(messages[0].timestamp - Date.now())).toBeLessThan(60_000);
    expect(await deliver(c, event)).toMatchObject({ status: 200, body: { result: "duplicate" } });
    const burst = await Promise.all(Array.from({ length: 6 }, () => deliver(c, event)));
    expect(burst.map((r) => r.body.result)).toEqual(Array(6).fill("duplicate"));
    await sleep(200);
    expect(await messagesOf(t, f.admin, ticket.id)).toHaveLength(1);
    expect(await ticketsOf(t, f.admin, who.name)).toHaveLength(1);
    // Our own sends echoed back (direction OUT) are not messages from the customer.
    expect((await deliver(c, hub.messageEvent(c.channel.id, { ...who, text: "eco", direction: "OUT" }))).body.result).toBe("ignored");
  });

  it("a customer's file and location arrive as the hub gives them (the file by its URL)", async () => {
    const who = visitor();
    const file = { type: "file", fileUrl: "https://files.notificame.example/abc/foto.jpg", fileMimeType: "image", fileName: "foto.jpg" };
    await deliver(c, hub.messageEvent(c.channel.id, { ...who, contents: [file] }));
    await deliver(c, hub.messageEvent(c.channel.id, { ...who, contents: [{ type: "location", latitude: -23.55, longitude: -46.63 }] }));
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 2);
    const photo = messages.find((m) => m.media)!;
    expect(photo.media).toMatchObject({ url: file.fileUrl, fileName: "foto.jpg", mimeType: "image/jpeg" });
    expect(messages.some((m) => m.body === "-23.55, -46.63")).toBe(true);
  });

  it("disconnecting removes the hub's subscription and the webhook takes nothing more; connecting again subscribes once", async () => {
    const d = await connectHub(t, f, hub, { name: `Messenger ${uid()}`, variant: "facebook" });
    const first = hub.subscriptionOf(d.channel.id)!;
    expect((await t.api.post(`/connections/${d.id}/disconnect`, {}, f.admin)).status).toBe(200);
    expect(first.deleted).toBe(true);
    const who = visitor();
    const late = await hub.post(d.channel.id, hub.messageEvent(d.channel.id, { ...who, text: "tarde demais" }), { origin: t.url, url: first.url });
    expect(late.status).toBe(404);
    expect((await t.api.post(`/connections/${d.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    expect((await t.api.post(`/connections/${d.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    expect(hub.subscriptions.filter((s) => s.channel === d.channel.id && !s.deleted)).toHaveLength(1);
    expect((await deliver(d, hub.messageEvent(d.channel.id, { ...who, text: "agora sim" }))).body.result).toBe("stored");
    await sleep(200);
    expect((await ticketsOf(t, f.admin, who.name)).length).toBe(1);
  });

  it("a wrong or missing secret is refused with 401 and nothing is stored; an unknown token is 404", async () => {
    const who = visitor();
    const event = hub.messageEvent(c.channel.id, { ...who, text: "não devia entrar" });
    const at = (path: string) => fetch(`${t.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(event) });
    for (const secret of [`${c.secret}x`, c.secret.slice(0, -1), "x".repeat(c.secret.length)]) {
      const r = await at(`/api/hub/${c.token}/webhook/${secret}`);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ error: "ERR_TOKEN_INVALID", data: { reason: "webhook-secret" } });
    }
    expect((await at(`/api/hub/${c.token}/webhook`)).status).toBe(404);
    expect((await at(`/api/hub/${"y".repeat(32)}/webhook/${c.secret}`)).status).toBe(404);
    const bad = await fetch(`${t.url}/api/hub/${c.token}/webhook/${c.secret}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "ERR_HUB_PAYLOAD_INVALID" });
    await sleep(200);
    expect(await ticketsOf(t, f.admin, who.name)).toEqual([]);
  });

  it("a webhook for tenant A's connection never lands in tenant B, whatever the URL it reaches", async () => {
    const g = await createTenant(t, { tier: "PLUS" });
    const other = await connectHub(t, g, hub, { name: "Facebook da outra empresa", variant: "facebook" });
    const who = visitor();
    const aEvent = hub.messageEvent(c.channel.id, { ...who, text: "para a empresa A" });
    // A's event posted to B's address (B's secret): not B's channel, so not B's message.
    expect(await hub.post(c.channel.id, aEvent, { origin: t.url, url: hub.subscriptionOf(other.channel.id)!.url })).toMatchObject({ status: 200, body: { result: "ignored" } });
    // A's token with B's secret: refused.
    const mixed = await fetch(`${t.url}/api/hub/${c.token}/webhook/${other.secret}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(aEvent) });
    expect(mixed.status).toBe(401);
    await sleep(200);
    expect(await ticketsOf(t, g.admin, who.name)).toEqual([]);
    expect(await ticketsOf(t, f.admin, who.name)).toEqual([]);
    // Delivered right, it is A's only.
    expect((await deliver(c, aEvent)).body.result).toBe("stored");
    await ticketWithMessages(t, f.admin, who.name, 1);
    expect(await ticketsOf(t, g.admin, who.name)).toEqual([]);
    // B's admin cannot read A's webhook address; B's customer lands in B, and B's reply leaves from B's channel.
    expect((await t.api.get(`/hub/webhook-url?token=${c.token}`, g.admin)).status).toBe(404);
    const bia = { from: "9988776655", name: `Bia ${uid()}` };
    expect((await deliver(other, hub.messageEvent(other.channel.id, { ...bia, text: "oi B" }))).body.result).toBe("stored");
    const { ticket } = await ticketWithMessages(t, g.admin, bia.name, 1);
    expect(await ticketsOf(t, f.admin, bia.name)).toEqual([]);
    expect((await t.api.get(`/tickets/${ticket.id}`, f.admin)).status).toBe(404);
    expect((await t.api.put(`/tickets/${ticket.id}`, { status: "open" }, g.agent)).status).toBe(200);
    await t.api.post(`/messages/${ticket.id}`, { body: "Olá, Bia" }, g.agent);
    expect(hub.sends.at(-1)).toMatchObject({ variant: "facebook", from: other.channel.id, apiToken: other.channel.apiToken, to: bia.from });
  });

  it("the public webhook is rate-limited per connection: over the limit it answers 429 and stores nothing", async () => {
    const svc = t.core.broker.getLocalService({ name: "channel-hub", version: 1 }) as unknown as { settings: { limits: Record<string, number> } };
    const saved = { ...svc.settings.limits };
    const d = await connectHub(t, f, hub, { name: `Webchat ${uid()}`, variant: "webchat" });
    svc.settings.limits.perConnection = 3;
    try {
      const names = Array.from({ length: 5 }, () => `Caio ${uid()}`);
      const answers = [];
      for (const name of names) answers.push((await deliver(d, hub.messageEvent(d.channel.id, { from: `v-${uid()}`, name, text: "oi" }))).status);
      expect(answers).toEqual([200, 200, 200, 429, 429]);
      await sleep(200);
      expect(await ticketsOf(t, f.admin, names[3])).toEqual([]);
      expect(await ticketsOf(t, f.admin, names[4])).toEqual([]);
    } finally {
      svc.settings.limits = saved;
    }
  });

  it("the form's test and connect say when the hub refuses the API token", async () => {
    const channel = hub.addChannel("olx");
    const settings = { variant: "olx", channelToken: channel.id, apiToken: "not-the-account-token", webhookSecret: "w".repeat(40), apiUrl: hub.url };
    const tested = await t.api.post("/connections/test", { type: "channel-hub", settings }, f.admin);
    expect(tested.body).toMatchObject({ ok: false, detail: "The hub refused the API token" });
    const good = await t.api.post("/connections/test", { type: "channel-hub", settings: { ...settings, apiToken: channel.apiToken } }, f.admin);
    expect(good.body).toMatchObject({ ok: true });
    const made = await t.api.post("/connections", { name: `OLX ${uid()}`, type: "channel-hub", settings }, f.admin);
    const on = await t.api.post(`/connections/${made.body.id}/connect`, {}, f.admin);
    expect(on.body).toMatchObject({ status: "disconnected" });
    expect((await t.api.get(`/connections/${made.body.id}`, f.admin)).body.statusDetail).toMatch(/refused the API token/);
    // Spec §5: no connection token, no hub connection.
    const none = await t.api.post("/connections", { name: `OLX ${uid()}`, type: "channel-hub", settings: { ...settings, channelToken: undefined } }, f.admin);
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ error: "ERR_VALIDATION", data: { field: "settings.channelToken" } });
  });
});
