/**
 * 360dialog's own protocol against a real core (WHATSAPP.md §7.2 item 10): every call to its
 * base URL with `D360-API-KEY` (never a Bearer) and no phone-number id in the paths; the
 * webhook registered on connect through /v1/configs/webhook with a secret header, and only
 * deliveries carrying it (or a partner's x-360dialog-signature) taken; received files fetched
 * from Meta's URL path on the 360dialog host; a delivery for tenant A's number never lands in B.
 */
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { envelope, mediaMessage, messagesValue, textMessage } from "../../channel-waba/test/meta-payloads";
import { Fake360 } from "./fake-360";
import { connect360, connectionOf, LOOPBACK_FAKES, newCustomer, PARTNER_SECRET, pluginService, ticketsOf, ticketWithMessages, type D360Connection } from "./helpers";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("360dialog protocol, real core", () => {
  let fake: Fake360;
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let ca: D360Connection;
  let cb: D360Connection;

  beforeAll(async () => {
    fake = await Fake360.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    ca = await connect360(t, a, fake, { name: "360 A" });
    cb = await connect360(t, b, fake, { name: "360 B", settings: { webhookSecret: PARTNER_SECRET } });
  });
  afterAll(async () => {
    await t?.stop();
    await fake?.close();
  });

  it("connects with the key header only, and registers the number's webhook with a secret header", async () => {
    expect(ca).toMatchObject({ status: "connected", statusDetail: null });
    const mine = fake.calls.filter((c) => c.key === ca.number.apiKey);
    expect(mine.length).toBeGreaterThan(1);
    expect(mine.every((c) => !c.bearer)).toBe(true);
    expect(mine.map((c) => `${c.method} ${c.path}`)).toEqual(["GET /v1/configs/webhook", "POST /v1/configs/webhook"]);
    const hook = ca.number.webhook!;
    // The core's public URL, the token in hex (360dialog takes no "_" in a webhook URL).
    expect(hook.url).toBe(`${t.config.publicUrl}/api/d360/${Buffer.from(ca.token).toString("hex")}/webhook`);
    expect(hook.url).not.toContain("_");
    expect(Object.keys(hook.headers)).toEqual(["x-openatende-webhook-secret"]);
    expect(hook.headers["x-openatende-webhook-secret"]).toMatch(/^[0-9a-f]{64}$/);
    // Each number's secret is its own.
    expect(cb.number.webhook!.headers["x-openatende-webhook-secret"]).not.toBe(hook.headers["x-openatende-webhook-secret"]);
  });

  it("takes a delivery with the registered header; refuses one without it or with another number's, reading nothing", async () => {
    const who = newCustomer("Rita");
    const ok = await fake.deliver(ca.number, envelope([{ wabaId: ca.number.wabaId, changes: [{ value: messagesValue(ca.number.pnid, { contacts: [who], messages: [textMessage(who, "Oi 360")] }) }] }]), { origin: t.url });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, accepted: 1 } });
    const { messages } = await ticketWithMessages(t, a.admin, who.name, 1);
    expect(messages[0]).toMatchObject({ fromMe: false, body: "Oi 360" });

    const intruder = newCustomer("Intrusa");
    const payload = envelope([{ wabaId: ca.number.wabaId, changes: [{ value: messagesValue(ca.number.pnid, { contacts: [intruder], messages: [textMessage(intruder, "falso")] }) }] }]);
    expect((await fake.deliver(ca.number, payload, { origin: t.url, skipRegistered: true })).status).toBe(401);
    expect((await fake.deliver(ca.number, payload, { origin: t.url, skipRegistered: true, headers: cb.number.webhook!.headers })).status).toBe(401);
    // A partner signature counts only for a connection holding the partner secret (A holds none).
    expect((await fake.deliver(ca.number, payload, { origin: t.url, skipRegistered: true, partnerSecret: PARTNER_SECRET })).status).toBe(401);
    // A token that is not hex, or no connection's, is not found.
    expect((await fetch(`${t.url}/api/d360/not_hex_at_all/webhook`, { method: "POST", body: "{}" })).status).toBe(404);
    expect((await fetch(`${t.url}/api/d360/${Buffer.from("no-such-token-123").toString("hex")}/webhook`, { method: "POST", body: "{}" })).status).toBe(404);
    // 360dialog has no verification handshake.
    expect((await fetch(`${t.url}/api/d360/${Buffer.from(ca.token).toString("hex")}/webhook?hub.mode=subscribe&hub.challenge=1`)).status).toBe(404);
    await pluginService(t).deliveries.idle();
    expect(await ticketsOf(t, a.admin, intruder.name)).toEqual([]);
  });

  it("takes a partner-signed delivery (bare-hex x-360dialog-signature) for a connection holding the partner secret", async () => {
    const who = newCustomer("Paula");
    const payload = envelope([{ wabaId: cb.number.wabaId, changes: [{ value: messagesValue(cb.number.pnid, { contacts: [who], messages: [textMessage(who, "assinado")] }) }] }]);
    expect((await fake.deliver(cb.number, payload, { origin: t.url, skipRegistered: true, partnerSecret: `${PARTNER_SECRET}x` })).status).toBe(401);
    expect((await fake.deliver(cb.number, payload, { origin: t.url, skipRegistered: true, partnerSecret: PARTNER_SECRET })).status).toBe(200);
    const { messages } = await ticketWithMessages(t, b.admin, who.name, 1);
    expect(messages[0].body).toBe("assinado");
  });

  it("downloads a received file from Meta's URL path on the 360dialog host, with the key", async () => {
    const who = newCustomer("Lia");
    const id = fake.addMedia(ca.number, PNG, "image/png");
    const before = fake.calls.length;
    const r = await fake.deliver(ca.number, envelope([{ wabaId: ca.number.wabaId, changes: [{ value: messagesValue(ca.number.pnid, { contacts: [who], messages: [mediaMessage(who, "image", { id, mime_type: "image/png", caption: "foto" })] }) }] }]), { origin: t.url });
    expect(r.status).toBe(200);
    const { messages } = await ticketWithMessages(t, a.admin, who.name, 1);
    expect(messages[0]).toMatchObject({ body: "foto", mediaType: "image", media: { mimeType: "image/png", size: PNG.length } });
    const calls = fake.calls.slice(before).filter((c) => c.key === ca.number.apiKey);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /${id}`, "GET /whatsapp_business/attachments/"]);
  });

  it("a delivery for tenant A's number never lands in tenant B, even posted to B's URL with B's header", async () => {
    const who = newCustomer("Cruzada");
    // B's URL and header, carrying A's number in its metadata: B's connection takes it (the URL is B's number) — never A.
    const r = await fake.deliver(cb.number, envelope([{ wabaId: ca.number.wabaId, changes: [{ value: messagesValue(ca.number.pnid, { contacts: [who], messages: [textMessage(who, "para quem?")] }) }] }]), { origin: t.url });
    expect(r.status).toBe(200);
    await ticketWithMessages(t, b.admin, who.name, 1);
    expect(await ticketsOf(t, a.admin, who.name)).toEqual([]);
    // Tenant A's connection id asked by B is not found.
    expect((await t.api.get(`/connections/${ca.id}`, b.admin)).status).toBe(404);
    expect((await connectionOf(t, a.admin, ca.id)).status).toBe("connected");
  });

  it("a refused key turns the connection to needs-new-credentials at connect", async () => {
    const n = fake.addNumber();
    const c = await connect360(t, a, fake, { name: "360 chave errada", number: n, settings: { apiKey: "WRONGKEY0123456789abcdef" } });
    expect(c).toMatchObject({ status: "disconnected", statusDetail: "ERR_D360_CREDENTIALS_REQUIRED" });
    expect(n.webhook).toBeNull();
  });
});
