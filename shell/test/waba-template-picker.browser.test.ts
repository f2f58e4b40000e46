/**
 * The WhatsApp Cloud API's template picker in the chat (issue 16 items 2–3), in a real browser
 * against a real core and channel-waba (its Graph API a local fake with Meta's template API):
 * a customer silent for 25 hours cannot get free text, so the composer gives way to the
 * plugin's picker, which says the window closed, lists the connection's approved templates
 * only (every page of them), previews the chosen one with its variables (the body's {{1}} already the contact's
 * first name), refuses to send it half filled, and sends it: Meta gets the template with its
 * body parameters, the chat shows the filled text, and the picker stays for the next one. A
 * 360dialog ticket (channel-360, the same library's picker) gets the same, its send going to
 * 360dialog's /messages.
 */
import type { Browser } from "playwright-core";
import { startCore, createTenant, uid, type TestCore, type TenantFixture } from "@openatende/core/testkit";
import { launchBrowser, newPage, poll, screenErrors, screenshot, sessionLogin } from "./browser";
import { FakeGraph } from "../../plugins/channel-waba/test/fake-graph";
import { FakeTemplates } from "../../plugins/channel-waba/test/fake-graph-templates";
import { Fake360 } from "../../plugins/channel-360/test/fake-360";
import { connect360 } from "../../plugins/channel-360/test/helpers";

jest.setTimeout(180_000);

const HOUR = 3_600_000;
const FILLED = "Olá Maria, seu pedido 1234 saiu para entrega.";

describe("the template picker in the chat", () => {
  let t: TestCore;
  let f: TenantFixture;
  let graph: FakeGraph;
  let templates: FakeTemplates;
  let browser: Browser;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    templates = new FakeTemplates(graph);
    t = await startCore({ env: { OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
    f = await createTenant(t, { tier: "PLUS" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await graph?.close();
  });

  it("sends an approved template with its variables filled once the 24-hour window closed", async () => {
    const n = graph.addNumber();
    // More approved templates than one page holds (100), with the one to send on the second page.
    for (let i = 1; i <= 105; i++) templates.add(n.wabaId, { name: `aviso_${String(i).padStart(3, "0")}` });
    templates.add(n.wabaId, { name: "pedido_enviado", components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} saiu para entrega.", example: { body_text: [["Ana", "9876"]] } }] });
    templates.add(n.wabaId, { name: "oferta_imagem", components: [{ type: "HEADER", format: "IMAGE", example: { header_handle: ["4::aW1n"] } }, { type: "BODY", text: "Oferta da semana, {{1}}!", example: { body_text: [["Ana"]] } }] });
    templates.add(n.wabaId, { name: "promo_em_revisao", status: "PENDING", components: [{ type: "BODY", text: "Promoção para {{1}}", example: { body_text: [["Ana"]] } }] });
    const c = await t.api.post("/connections", { name: `waba ${uid()}`, type: "channel-waba", queueId: f.queueIds[0], settings: { phoneNumberId: n.pnid, accessToken: n.token, businessAccountId: n.wabaId, appId: "123456789012345", apiVersion: "v23.0", verifyToken: "verify-me-please-42", appSecret: "0123456789abcdef0123456789abcdef", graphUrl: graph.url } }, f.admin);
    expect(c.status).toBe(201);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);

    // A customer who last wrote 25 hours ago: Meta refuses free text to them (131047).
    const customer = `55119${String(Date.now()).slice(-8)}`;
    graph.windowClosed.add(customer);
    const { ticketId } = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: c.body.id, providerMessageId: `wamid.${uid()}`, timestamp: Date.now() - 25 * HOUR, from: { externalId: customer, name: "Maria Silva" }, body: "Meu pedido já saiu?" })) as { ticketId: number };
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);

    const page = await newPage(browser);
    await sessionLogin(page, t.url, f.emails.agent, `/atendimento/${ticketId}`);
    const picker = page.locator("[data-testid=waba-template-picker]");
    await picker.waitFor({ timeout: 30_000 });
    expect(await page.locator("[data-testid=composer]").count()).toBe(0);
    expect(await page.locator("[data-testid=window-closed]").count()).toBe(0);
    expect(await page.locator("[data-testid=waba-window-notice]").innerText()).toMatch(/janela de 24 horas/i);

    // Every page of approved templates is offered, and only approved ones.
    await page.locator("[data-testid=waba-template-select]").click();
    const options = page.locator(".ant-select-item-option");
    await options.first().waitFor();
    await page.keyboard.type("promo");
    await poll(() => options.count(), (c) => c === 0, "no option for the pending template");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("pedido");
    await poll(() => options.allInnerTexts(), (x) => x.length === 1 && x[0] === "pedido_enviado (pt_BR)", "the second page's template");
    await options.filter({ hasText: "pedido_enviado" }).click();

    // {{1}} is the contact's first name already; {{2}} is asked for, and sending without it is refused here.
    const v1 = page.locator("[data-testid='waba-template-var-body.1']");
    const v2 = page.locator("[data-testid='waba-template-var-body.2']");
    await poll(() => v1.inputValue(), (v) => v === "Maria", "the contact's first name in {{1}}");
    expect(await v2.getAttribute("placeholder")).toBe("Ex.: 9876");
    await page.locator("[data-testid=waba-template-send]").click();
    expect(await page.locator("[data-testid=waba-template-missing]").innerText()).toMatch(/Preencha todas as variáveis.*Variável 2/);
    expect(graph.sentTo(n.pnid, customer)).toEqual([]);

    await v2.fill("1234");
    expect(await page.locator("[data-testid=waba-template-preview]").innerText()).toContain(FILLED);
    expect(await page.locator("[data-testid=waba-template-missing]").count()).toBe(0);
    // (Once the select's list has faded out.)
    await page.locator(".ant-select-dropdown").waitFor({ state: "hidden" });
    await screenshot(page, "waba-template-picker");
    await page.locator("[data-testid=waba-template-send]").click();

    // Meta got the template with the body's parameters, once.
    const sent = await poll(async () => graph.sentTo(n.pnid, customer).filter((b) => b.type === "template"), (x) => x.length === 1, "the template send at Meta", 15_000);
    expect(sent[0]).toMatchObject({ to: customer, type: "template", template: { name: "pedido_enviado", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Maria" }, { type: "text", text: "1234" }] }] } });

    // The chat shows the filled text (the socket brought it); the picker stays, ready for the next one.
    await page.locator("[data-testid=message][data-from-me='1'] [data-testid=message-body]").filter({ hasText: FILLED }).waitFor({ timeout: 15_000 });
    await poll(() => v2.inputValue(), (v) => v === "", "the filled values cleared for the next send");
    expect(await picker.count()).toBe(1);
    expect(await page.locator("[data-testid=composer]").count()).toBe(0);
    const stored = (await t.api.get(`/messages/${ticketId}`, f.admin)).body.messages as Array<{ body: string; fromMe: boolean }>;
    expect(stored.filter((m) => m.fromMe).map((m) => m.body)).toEqual([FILLED]);
    await screenshot(page, "waba-template-picker-sent");

    // A template with an image header asks for its file (of the header's types) and sends it with the template.
    await page.locator("[data-testid=waba-template-select]").click();
    await page.keyboard.type("oferta_imagem");
    await options.filter({ hasText: "oferta_imagem" }).click();
    await page.locator(".ant-select-dropdown").waitFor({ state: "hidden" });
    await page.locator("[data-testid=waba-template-send]").click();
    await page.locator("[data-testid=waba-template-header-missing]").waitFor();
    const fileInput = page.locator("[data-testid=waba-template-header-input]");
    await fileInput.setInputFiles({ name: "nota.txt", mimeType: "text/plain", buffer: Buffer.from("x") });
    expect(await page.locator("[data-testid=waba-template-header-problem]").innerText()).toMatch(/image\/jpeg,image\/png/);
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await fileInput.setInputFiles({ name: "oferta.png", mimeType: "image/png", buffer: png });
    await poll(() => page.locator("[data-testid=waba-template-header-name]").innerText(), (x) => x === "oferta.png", "the chosen file's name");
    await screenshot(page, "waba-template-picker-header-file");
    await page.locator("[data-testid=waba-template-send]").click();
    const promo = await poll(async () => graph.sentTo(n.pnid, customer).filter((b) => b.type === "template" && (b.template as { name: string }).name === "oferta_imagem"), (x) => x.length === 1, "the image template at Meta", 15_000);
    const header = (promo[0]!.template as { components: Array<{ type: string; parameters: Array<{ type: string; image?: { id: string } }> }> }).components.find((x) => x.type === "header")!;
    expect(header.parameters[0]!.type).toBe("image");
    expect(graph.uploads.get(header.parameters[0]!.image!.id)!.data.equals(png)).toBe(true);
    await page.locator("[data-testid=message][data-from-me='1'] img").first().waitFor({ timeout: 15_000 });
    expect(screenErrors(page)).toEqual([]);
  });

  it("gives a 360dialog ticket whose window closed the same picker, sending through 360dialog", async () => {
    const d360 = await Fake360.start();
    try {
      // A tenant of its own: the first test's browser login ended its agent's API session.
      const f = await createTenant(t, { tier: "PLUS" });
      const c = await connect360(t, f, d360, { name: `360 ${uid()}` });
      expect(c.status).toBe("connected");
      d360.addTemplate(c.number, { name: "retomar_conversa", language: "pt_BR", category: "UTILITY", status: "approved", components: [{ type: "BODY", text: "Olá {{1}}, podemos retomar?", example: { body_text: [["Ana"]] } }] });
      d360.addTemplate(c.number, { name: "em_revisao", language: "pt_BR", category: "UTILITY", status: "submitted", components: [{ type: "BODY", text: "Revisão" }] });
      const customer = `55118${String(Date.now()).slice(-8)}`;
      d360.windowClosed.add(customer);
      const { ticketId } = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: c.id, providerMessageId: `wamid.${uid()}`, timestamp: Date.now() - 25 * HOUR, from: { externalId: customer, name: "Joana Lima" }, body: "Oi?" })) as { ticketId: number };
      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);

      const page = await newPage(browser);
      await sessionLogin(page, t.url, f.emails.agent, `/atendimento/${ticketId}`);
      const picker = page.locator("[data-testid=waba-template-picker]");
      await picker.waitFor({ timeout: 30_000 });
      // One picker (360dialog's), not WABA's as well.
      expect(await picker.count()).toBe(1);
      expect(await page.locator("[data-testid=composer]").count()).toBe(0);
      await page.locator("[data-testid=waba-template-select]").click();
      const options = page.locator(".ant-select-item-option");
      await poll(() => options.allInnerTexts(), (x) => x.length === 1 && x[0] === "retomar_conversa (pt_BR)", "the approved 360dialog template only");
      await options.first().click();
      await poll(() => page.locator("[data-testid='waba-template-var-body.1']").inputValue(), (v) => v === "Joana", "the contact's first name in {{1}}");
      await page.locator(".ant-select-dropdown").waitFor({ state: "hidden" });
      await page.locator("[data-testid=waba-template-send]").click();
      const sent = await poll(async () => d360.sentBy(c.number).filter((b) => b.type === "template"), (x) => x.length === 1, "the template send at 360dialog", 15_000);
      expect(sent[0]).toMatchObject({ to: customer, template: { name: "retomar_conversa", language: { code: "pt_BR" }, components: [{ type: "body", parameters: [{ type: "text", text: "Joana" }] }] } });
      await page.locator("[data-testid=message][data-from-me='1'] [data-testid=message-body]").filter({ hasText: "Olá Joana, podemos retomar?" }).waitFor({ timeout: 15_000 });
      await screenshot(page, "d360-template-picker-sent");
      expect(screenErrors(page)).toEqual([]);
    } finally {
      await d360.close();
    }
  });
});
