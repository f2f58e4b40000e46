/**
 * The core's template routes (Step 11), against channel-waba and its local Graph API:
 * GET/POST/DELETE /templates reach a connection's templates through the channel contract
 * (listing for any user, managing for PLUS admins), and
 * POST /messages/{ticketId}/template: an approved template sent from the chat goes
 * to the channel by name, language and variables (the channel builds the provider's payload;
 * here channel-waba against its local Graph API), and the chat stores the filled text. A
 * channel without templates refuses it before anything is stored; bad names and languages
 * are validation errors; another tenant's ticket is not found.
 * Real MariaDB, Redis, the web-chat and WABA channel plugins.
 */
import { startCore, createTenant, TestCore, TenantFixture, Res, uid } from "./helpers";
import { FakeGraph } from "../../plugins/channel-waba/test/fake-graph";
import { FakeTemplates } from "../../plugins/channel-waba/test/fake-graph-templates";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

describe("template sends from the chat (MariaDB)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  let graph: FakeGraph;
  let fake: FakeTemplates;

  async function connection(x: TenantFixture, type: string, settings: Record<string, unknown>) {
    const c = await t.api.post("/connections", { name: `${type} ${uid()}`, type, settings, queueId: x.queueIds[0] }, x.admin);
    expect(c.status).toBe(201);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, x.admin)).status).toBe(200);
    return c.body.id as number;
  }
  const inbound = async (x: TenantFixture, connectionId: number, ext: string) =>
    ((await t.core.broker.call("channels.inbound", { tenantId: x.tenantId, connectionId, providerMessageId: `wamid.${uid()}`, timestamp: Date.now() - 30 * 3_600_000, from: { externalId: ext, name: "Cliente" }, body: "oi" })) as { ticketId: number }).ticketId;
  const messagesOf = async (ticketId: number) => (await t.api.get(`/messages/${ticketId}`, f.admin)).body.messages as Array<{ id: number; body: string; fromMe: boolean; status: string }>;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    fake = new FakeTemplates(graph);
    t = await startCore({ env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
    await graph?.close();
  });

  const template = { name: "pedido_enviado", language: "pt_BR", body: "Olá Maria, seu pedido 1234 saiu para entrega.", components: { body: ["Maria", "1234"] } };

  it("sends a template by name and variables through a WABA connection, and stores the filled text", async () => {
    const n = graph.addNumber();
    const waba = await connection(f, "channel-waba", { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url });
    const customer = `55119${String(Date.now()).slice(-8)}`;
    const ticketId = await inbound(f, waba, customer);
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.admin)).status).toBe(200);

    const r = await t.api.post(`/messages/${ticketId}/template`, template, f.admin);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ fromMe: true, body: template.body, status: "sent" });
    const sent = graph.sentTo(n.pnid, customer).filter((b) => b.type === "template");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: customer, type: "template", template: { name: "pedido_enviado", language: { code: "pt_BR" } } });
    const components = (sent[0]!.template as { components: Array<{ type: string; parameters: Array<{ type: string; text: string }> }> }).components;
    expect(components.find((c) => c.type === "body")?.parameters.map((p) => p.text)).toEqual(["Maria", "1234"]);
    expect((await messagesOf(ticketId)).filter((m) => m.fromMe).map((m) => m.body)).toEqual([template.body]);
  });

  it("sends a template whose header is an image: the file is stored, shown in the chat, and uploaded to the provider for the header", async () => {
    const n = graph.addNumber();
    const waba = await connection(f, "channel-waba", { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url });
    const customer = `55118${String(Date.now()).slice(-8)}`;
    const ticketId = await inbound(f, waba, customer);
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.admin)).status).toBe(200);
    // A 1×1 PNG.
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const r = await t.api.post(`/messages/${ticketId}/template`, { ...template, components: { ...template.components, header: { media: { data: png, mimeType: "image/png", fileName: "promo.png" } } } }, f.admin);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ mediaType: "image", body: template.body });
    const [sent] = graph.sentTo(n.pnid, customer).filter((b) => b.type === "template");
    const header = (sent!.template as { components: Array<{ type: string; parameters: Array<{ type: string; image?: { id?: string } }> }> }).components.find((c) => c.type === "header");
    expect(header?.parameters[0]?.type).toBe("image");
    const uploaded = graph.uploads.get(header!.parameters[0]!.image!.id!);
    expect(uploaded).toMatchObject({ pnid: n.pnid, mimeType: "image/png" });
    expect(uploaded!.data.equals(Buffer.from(png, "base64"))).toBe(true);
    // Not base64: a validation error, nothing sent.
    const bad = await t.api.post(`/messages/${ticketId}/template`, { ...template, components: { header: { media: { data: "not base64!", mimeType: "image/png", fileName: "x.png" } } } }, f.admin);
    expectError(bad, 400, "ERR_VALIDATION");
    expect(graph.sentTo(n.pnid, customer).filter((b) => b.type === "template")).toHaveLength(1);
  });

  it("sends a template's button values — a URL's suffix, a copy code, a quick reply's payload — as the Cloud API's button components; a button out of range is a validation error", async () => {
    const n = graph.addNumber();
    fake.add(n.wabaId, {
      name: "cupom_botoes",
      components: [
        { type: "BODY", text: "Olá {{1}}, seu cupom chegou.", example: { body_text: [["Ana"]] } },
        { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Quero" }, { type: "URL", text: "Pedido", url: "https://loja.test/p/{{1}}", example: ["123"] }, { type: "COPY_CODE", example: "NATAL10" }] },
      ],
    });
    const waba = await connection(f, "channel-waba", { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url });
    const customer = `55117${String(Date.now()).slice(-8)}`;
    const ticketId = await inbound(f, waba, customer);
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.admin)).status).toBe(200);
    const coupon = { name: "cupom_botoes", language: "pt_BR", body: "Olá Ana, seu cupom chegou.", components: { body: ["Ana"], buttons: [{ index: 0, value: "quero-ana" }, { index: 1, value: "9876" }, { index: 2, value: "ANA10" }] } };
    const r = await t.api.post(`/messages/${ticketId}/template`, coupon, f.admin);
    expect(r.status).toBe(201);
    const [sent] = graph.sentTo(n.pnid, customer).filter((b) => b.type === "template");
    expect((sent!.template as { components: unknown[] }).components).toEqual([
      { type: "body", parameters: [{ type: "text", text: "Ana" }] },
      { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "payload", payload: "quero-ana" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "9876" }] },
      { type: "button", sub_type: "copy_code", index: "2", parameters: [{ type: "coupon_code", coupon_code: "ANA10" }] },
    ]);
    for (const buttons of [[{ index: 12, value: "x" }], [{ index: 0, value: "" }], [{ index: 0 }]]) {
      expectError(await t.api.post(`/messages/${ticketId}/template`, { ...coupon, components: { body: ["Ana"], buttons } }, f.admin), 400, "ERR_VALIDATION");
    }
    expect(graph.sentTo(n.pnid, customer).filter((b) => b.type === "template")).toHaveLength(1);
  });

  it("is refused on a channel without templates, with nothing stored; bad names are validation errors; another tenant's ticket is not found", async () => {
    const site = await connection(f, "channel-webchat", { title: "Loja" });
    const ticketId = await inbound(f, site, `v-${uid()}`);
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.admin)).status).toBe(200);
    expectError(await t.api.post(`/messages/${ticketId}/template`, template, f.admin), 400, "ERR_CHANNEL_UNSUPPORTED");
    expect((await messagesOf(ticketId)).filter((m) => m.fromMe)).toEqual([]);

    const bad = await t.api.post(`/messages/${ticketId}/template`, { ...template, name: "Pedido Enviado" }, f.admin);
    expectError(bad, 400, "ERR_VALIDATION");
    expectError(await t.api.post(`/messages/${ticketId}/template`, { ...template, language: "portuguese" }, f.admin), 400, "ERR_VALIDATION");
    expectError(await t.api.post(`/messages/${ticketId}/template`, { ...template, body: "" }, f.admin), 400, "ERR_VALIDATION");

    expectError(await t.api.post(`/messages/${ticketId}/template`, template, other.admin), 404, "ERR_TICKET_NOT_FOUND");
  });

  it("lists a connection's templates for any user, creates and deletes them for PLUS admins, and refuses other channels, tenants and tiers", async () => {
    const n = graph.addNumber();
    const waba = await connection(f, "channel-waba", { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url });
    fake.add(n.wabaId, { name: "boas_vindas", status: "APPROVED" });
    fake.add(n.wabaId, { name: "cobranca", status: "APPROVED" });

    const list = await t.api.get(`/templates?connectionId=${waba}&limit=1`, f.agent);
    expect({ status: list.status, body: list.status === 200 ? null : list.body }).toEqual({ status: 200, body: null });
    expect(list.body.templates.map((x: { name: string }) => x.name)).toEqual(["boas_vindas"]);
    const next = await t.api.get(`/templates?connectionId=${waba}&limit=1&after=${encodeURIComponent(list.body.next)}`, f.agent);
    expect(next.body).toMatchObject({ templates: [{ name: "cobranca", status: "APPROVED" }], next: null });

    const template = { name: "pedido_pronto", language: "pt_BR", category: "UTILITY", body: { text: "Olá {{1}}, seu pedido está pronto.", example: ["Ana"] } };
    const made = await t.api.post("/templates", { connectionId: waba, template }, f.admin);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: "PENDING" });
    expect(made.body.id).toEqual(expect.any(String));
    // The channel's own refusal, naming the field (spec §5: the variables must match their examples).
    const noExample = await t.api.post("/templates", { connectionId: waba, template: { ...template, name: "sem_exemplo", body: { text: "Olá {{1}}, tudo bem?" } } }, f.admin);
    expect(noExample.status).toBeGreaterThanOrEqual(400);
    expect(noExample.status).toBeLessThan(500);
    expect(JSON.stringify(noExample.body)).toMatch(/body\.text\.example/);
    expectError(await t.api.post("/templates", { connectionId: waba, template }, f.agent), 403, "ERR_NO_PERMISSION");
    expect((await t.api.del(`/templates?connectionId=${waba}&name=pedido_pronto`, f.admin)).status).toBe(200);
    expect((await t.api.get(`/templates?connectionId=${waba}`, f.agent)).body.templates.map((x: { name: string }) => x.name)).not.toContain("pedido_pronto");

    // Another tenant's connection, a channel without templates, a tenant below PLUS managing them.
    expectError(await t.api.get(`/templates?connectionId=${waba}`, other.admin), 404, "ERR_CONNECTION_NOT_FOUND");
    const site = await connection(f, "channel-webchat", { title: "Loja" });
    expectError(await t.api.get(`/templates?connectionId=${site}`, f.agent), 400, "ERR_CHANNEL_UNSUPPORTED");
    const free = await createTenant(t);
    const n2 = graph.addNumber();
    const freeWaba = await connection(free, "channel-waba", { phoneNumberId: n2.pnid, accessToken: n2.token, businessAccountId: n2.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url });
    expect((await t.api.get(`/templates?connectionId=${freeWaba}`, free.agent)).status).toBe(200);
    const refused = await t.api.post("/templates", { connectionId: freeWaba, template }, free.admin);
    expectError(refused, 403, "ERR_LICENSE_TIER_REQUIRED");
    expect(refused.body.data ?? refused.body).toMatchObject({ requiredTier: "PLUS" });
  });
});
