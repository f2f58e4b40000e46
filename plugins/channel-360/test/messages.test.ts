/**
 * A 360dialog number used like any WhatsApp Cloud connection, through the real core's API:
 * customers' messages become tickets, agents' replies go out as Meta's bodies at
 * `<base>/messages` and follow the sent → delivered → read statuses 360dialog relays, the
 * 24-hour window surfaces as ERR_D360_TEMPLATE_REQUIRED, and the templates (listed, created,
 * deleted, sent, their review statuses) go through /v1/configs/templates (WHATSAPP.md §3, §7.2).
 */
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { envelope, messagesValue, status, textMessage } from "../../channel-waba/test/meta-payloads";
import { Fake360 } from "./fake-360";
import { connect360, LOOPBACK_FAKES, messagesOf, newCustomer, pluginService, ticketWithMessages, waitFor, type D360Connection } from "./helpers";

describe("360dialog messages and templates, real core", () => {
  let fake: Fake360;
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let ca: D360Connection;
  let cb: D360Connection;
  const who = newCustomer("Bruna");
  let ticketId: number;

  const deliver = (c: D360Connection, value: Record<string, unknown>, field = "messages") => fake.deliver(c.number, envelope([{ wabaId: c.number.wabaId, changes: [{ field, value }] }]), { origin: t.url });

  beforeAll(async () => {
    fake = await Fake360.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    pluginService(t).settings.retryMs = [20, 40, 60];
    ca = await connect360(t, a, fake, { name: "360 mensagens" });
    cb = await connect360(t, b, fake, { name: "360 outra empresa" });
    expect((await deliver(ca, messagesValue(ca.number.pnid, { contacts: [who], messages: [textMessage(who, "Olá, preciso de ajuda")] }))).status).toBe(200);
    ticketId = (await ticketWithMessages(t, a.admin, who.name, 1)).ticket.id;
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.agent)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.stop();
    await fake?.close();
  });

  const messageOf = async (providerId: string) => (await messagesOf(t, a.admin, ticketId)).find((m) => m.providerId === providerId)!;

  it("an agent's reply goes to <base>/messages as Meta's body; 360dialog's statuses move it to delivered and read", async () => {
    const r = await t.api.post(`/messages/${ticketId}`, { body: "Claro! Em que posso ajudar?" }, a.agent);
    expect(r.body).toMatchObject({ fromMe: true, status: "sent" });
    expect(fake.sentBy(ca.number).filter((x) => x.type === "text").at(-1)).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: who.waId, type: "text", text: { body: "Claro! Em que posso ajudar?", preview_url: false } });
    const id = r.body.providerId as string;
    expect(id).toMatch(/^wamid\./);
    await deliver(ca, messagesValue(ca.number.pnid, { statuses: [status(id, who.waId, "delivered")] }));
    await waitFor("delivered", async () => (await messageOf(id)).status === "delivered");
    await deliver(ca, messagesValue(ca.number.pnid, { statuses: [status(id, who.waId, "read")] }));
    await waitFor("read", async () => (await messageOf(id)).status === "read");
    // A late "delivered" does not move it back.
    await deliver(ca, messagesValue(ca.number.pnid, { statuses: [status(id, who.waId, "delivered")] }));
    await pluginService(t).deliveries.idle();
    expect((await messageOf(id)).status).toBe("read");
  });

  it("a closed 24-hour window is ERR_D360_TEMPLATE_REQUIRED on the message", async () => {
    fake.windowClosed.add(who.waId);
    try {
      const r = await t.api.post(`/messages/${ticketId}`, { body: "Ainda está aí?" }, a.agent);
      expect(r.body).toMatchObject({ status: "failed", failReason: expect.stringContaining("ERR_D360_TEMPLATE_REQUIRED") });
    } finally {
      fake.windowClosed.delete(who.waId);
    }
  });

  it("lists the number's templates through the core (offset pages, 360dialog's lower-case statuses read), and only the tenant's own", async () => {
    for (let i = 0; i < 5; i++) fake.addTemplate(ca.number, { name: `modelo_${i}`, language: "pt_BR", category: "UTILITY", status: i === 4 ? "rejected" : "approved", ...(i === 4 ? { rejected_reason: "INVALID_FORMAT" } : {}), components: [{ type: "BODY", text: `Olá {{1}}, modelo ${i}` }] });
    const names: string[] = [];
    let after: string | null = null;
    let pages = 0;
    do {
      const r: { status: number; body: any } = await t.api.get(`/templates?connectionId=${ca.id}&limit=2${after ? `&after=${after}` : ""}`, a.admin);
      expect(r.status).toBe(200);
      names.push(...(r.body.templates as Array<{ name: string }>).map((x) => x.name));
      after = r.body.next;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(names).toEqual(["modelo_0", "modelo_1", "modelo_2", "modelo_3", "modelo_4"]);
    const rejected = await t.api.get(`/templates?connectionId=${ca.id}&status=REJECTED&limit=50`, a.admin);
    expect(rejected.body.templates).toEqual([expect.objectContaining({ name: "modelo_4", status: "REJECTED", rejectedReason: "INVALID_FORMAT" })]);
    // Another tenant's connection is not found, and B's own number lists only its own.
    expect((await t.api.get(`/templates?connectionId=${ca.id}`, b.admin)).status).toBe(404);
    expect((await t.api.get(`/templates?connectionId=${cb.id}`, b.admin)).body.templates).toEqual([]);
  });

  it("creates a template (PENDING while 360dialog reviews it), refuses one whose variables lack examples, deletes by name", async () => {
    const template = { name: "boas_vindas", language: "pt_BR", category: "UTILITY", body: { text: "Olá {{1}}!", example: ["Ana"] } };
    const created = await t.api.post("/templates", { connectionId: ca.id, template }, a.admin);
    expect(created.status).toBeLessThan(300);
    expect(created.body).toMatchObject({ status: "PENDING" });
    expect(fake.templates.get(ca.number.apiKey)!.find((x) => x.name === "boas_vindas")).toMatchObject({ language: "pt_BR", category: "UTILITY" });
    const bad = await t.api.post("/templates", { connectionId: ca.id, template: { ...template, name: "sem_exemplo", body: { text: "Olá {{1}} e {{2}}", example: ["Ana"] } } }, a.admin);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: "ERR_D360_TEMPLATE_INVALID" });
    const del = await t.api.call("DELETE", `/templates?connectionId=${ca.id}&name=boas_vindas`, undefined, a.admin);
    expect(del.status).toBeLessThan(300);
    expect(fake.templates.get(ca.number.apiKey)!.some((x) => x.name === "boas_vindas")).toBe(false);
    const gone = await t.api.call("DELETE", `/templates?connectionId=${ca.id}&name=boas_vindas`, undefined, a.admin);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: "ERR_D360_TEMPLATE_NOT_FOUND" });
  });

  it("sends an approved template with its variables past a closed window", async () => {
    fake.addTemplate(ca.number, { name: "retorno", language: "pt_BR", category: "UTILITY", status: "approved", components: [{ type: "BODY", text: "Olá {{1}}, podemos continuar?" }, { type: "BUTTONS", buttons: [{ type: "URL", text: "Abrir", url: "https://loja.test/{{1}}" }] }] });
    fake.windowClosed.add(who.waId);
    try {
      const r = await t.api.post(`/messages/${ticketId}/template`, { name: "retorno", language: "pt_BR", body: "Olá Bruna, podemos continuar?", components: { body: ["Bruna"], buttons: [{ index: 0, value: "p1" }] } }, a.agent);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ status: "sent", body: "Olá Bruna, podemos continuar?" });
      expect(fake.sentBy(ca.number).at(-1)).toEqual({
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: who.waId,
        type: "template",
        template: { name: "retorno", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Bruna" }] }, { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "p1" }] }] },
      });
    } finally {
      fake.windowClosed.delete(who.waId);
    }
  });

  it("records a template's review status that 360dialog relays to the number's webhook", async () => {
    const tpl = fake.addTemplate(ca.number, { name: "revisao", language: "pt_BR", category: "MARKETING", status: "submitted", components: [{ type: "BODY", text: "Oferta" }] });
    const r = await deliver(ca, { event: "APPROVED", message_template_id: Number(tpl.id), message_template_name: "revisao", message_template_language: "pt_BR", reason: "NONE" }, "message_template_status_update");
    expect(r.status).toBe(200);
    const statuses = await t.core.broker.call("v1.channel-360.templateStatuses", { tenantId: a.tenantId, connectionId: ca.id });
    expect(statuses).toEqual({ statuses: [expect.objectContaining({ id: tpl.id, name: "revisao", status: "APPROVED" })] });
    // Not another tenant's.
    expect(await t.core.broker.call("v1.channel-360.templateStatuses", { tenantId: b.tenantId, connectionId: cb.id })).toEqual({ statuses: [] });
  });
});
