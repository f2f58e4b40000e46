/**
 * Settings › Templates (/configuracoes/templates, issue 16 item 3; spec §3–§6 Template) in a
 * real browser against a real core and channel-waba, Meta's template API a local fake: a PLUS
 * admin sees the business account's templates, creates one (a missing variable example refused
 * on its field before anything reaches Meta), sees it PENDING, and sees it turn APPROVED live
 * when Meta's signed review webhook arrives; deletes another. A FREE tenant meets the notice
 * naming PLUS instead of the screen. A 360dialog connection (channel-360, the same library) is
 * on the same screen, which both plugins register and the shell shows once. A template with an
 * image header asks for its sample file (refused on its field when missing or of another type),
 * which the plugin uploads through Meta's Resumable Upload API before submitting the template.
 */
import type { Browser } from "playwright-core";
import { startCore, createTenant, type TestCore, type TenantFixture } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, notices, poll, screenErrors, screenshot, sessionLogin, waitAttr, waitCount } from "./browser";
import { FakeGraph } from "../../plugins/channel-waba/test/fake-graph";
import { FakeTemplates } from "../../plugins/channel-waba/test/fake-graph-templates";
import { connectWaba, LOOPBACK_FAKES, type WabaConnection } from "../../plugins/channel-waba/test/helpers";
import { envelope } from "../../plugins/channel-waba/test/meta-payloads";
import { Fake360 } from "../../plugins/channel-360/test/fake-360";
import { connect360 } from "../../plugins/channel-360/test/helpers";

jest.setTimeout(180_000);

describe("the template management screen", () => {
  let t: TestCore;
  let f: TenantFixture;
  let graph: FakeGraph;
  let fake: FakeTemplates;
  let waba: WabaConnection;
  let browser: Browser;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    fake = new FakeTemplates(graph);
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    await acceptTerms(t, f);
    waba = await connectWaba(t, f, graph, { name: "WABA Loja" });
    expect(waba.status).toBe("connected");
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await graph?.close();
  });

  it("lists, creates (refusing a missing example on its field), turns APPROVED live and deletes", async () => {
    const seeded = fake.add(waba.number.wabaId, { name: "boas_vindas", components: [{ type: "BODY", text: "Olá! Como podemos ajudar?" }] });
    fake.add(waba.number.wabaId, { name: "promo_antiga", category: "MARKETING", status: "REJECTED", rejected_reason: "PROMOTIONAL" });

    const page = await newPage(browser);
    await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/templates");
    await page.waitForSelector("[data-testid=templates-page]", { timeout: 30_000 });
    // The plugin's tab sits among the settings children.
    expect(await page.locator("[data-testid=settings-tab-templates]").count()).toBe(1);
    const row = (name: string) => page.locator(`[data-testid=template-row-${name}]`);
    await waitAttr(row("boas_vindas").locator("[data-testid=template-status]"), "data-status", "APPROVED", 20_000);
    expect(await row("boas_vindas").innerText()).toContain(seeded.id);
    expect(await row("promo_antiga").locator("[data-testid=template-reason]").innerText()).toBe("PROMOTIONAL");

    // A new template whose body has two variables but one example: refused on the examples, nothing sent.
    await page.click("[data-testid=template-new]");
    await page.waitForSelector("[data-testid=template-form]");
    await page.fill("[data-testid=template-name]", "pedido_enviado");
    await page.fill("[data-testid=template-body]", "Olá {{1}}, seu pedido sai {{2}}.");
    await page.fill("[data-testid=template-example-body-1]", "Ana");
    await page.fill("[data-testid=template-footer]", "Loja Teste");
    await page.click("[data-testid=template-submit]");
    const exampleError = page.locator("[data-testid='template-error-body.text.example']");
    await waitCount(exampleError, 1);
    expect(await exampleError.innerText()).toMatch(/exemplo de cada variável/i);
    expect(fake.calls.filter((c) => c.method === "POST")).toHaveLength(0);
    await screenshot(page, "templates-screen-example-missing");

    // Fixed: submitted for review, shown PENDING at the top.
    await page.fill("[data-testid=template-example-body-2]", "hoje");
    await waitCount(exampleError, 0);
    await page.click("[data-testid=template-submit]");
    await waitCount(page.locator("[data-testid=template-form]"), 0);
    await waitAttr(row("pedido_enviado").locator("[data-testid=template-status]"), "data-status", "PENDING");
    const created = fake.templates.find((x) => x.name === "pedido_enviado");
    expect(created).toMatchObject({ status: "PENDING", language: "pt_BR", category: "UTILITY" });
    expect(created!.components).toEqual(
      expect.arrayContaining([
        { type: "BODY", text: "Olá {{1}}, seu pedido sai {{2}}.", example: { body_text: [["Ana", "hoje"]] } },
        { type: "FOOTER", text: "Loja Teste" },
      ]),
    );
    expect(await row("pedido_enviado").innerText()).toContain(created!.id);

    // Meta approves it: the signed webhook reaches the core and the row changes without a reload.
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    expect((await fake.statusWebhook(waba.webhook, waba.appSecret, created!, "APPROVED")).status).toBe(200);
    await waitAttr(row("pedido_enviado").locator("[data-testid=template-status]"), "data-status", "APPROVED", 20_000);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    expect(await row("pedido_enviado").locator("[data-testid=template-status]").innerText()).toBe("Aprovado");
    await page.waitForTimeout(400);
    await screenshot(page, "templates-screen");

    // Meta's own refusal (that name and language exist already) is said in the form, which stays open.
    await page.click("[data-testid=template-new]");
    await page.fill("[data-testid=template-name]", "boas_vindas");
    await page.fill("[data-testid=template-body]", "Olá de novo!");
    await page.click("[data-testid=template-submit]");
    await waitCount(page.locator("[data-testid=template-api-error]"), 1);
    expect(await page.locator("[data-testid=template-api-error]").innerText()).toMatch(/recusado pela Meta/i);
    await page.locator(".ant-modal-close").click();
    await waitCount(page.locator("[data-testid=template-form]"), 0);

    // Delete the rejected one (after confirming): gone here and at Meta.
    await row("promo_antiga").locator("[data-testid=template-delete]").click();
    await page.click("[data-testid=template-delete-ok]");
    await waitCount(row("promo_antiga"), 0);
    expect(fake.templates.some((x) => x.name === "promo_antiga")).toBe(false);
    expect(fake.calls.some((c) => c.method === "DELETE" && c.query.name === "promo_antiga")).toBe(true);

    // Refresh reads Meta again: the same three less one.
    await page.click("[data-testid=templates-refresh]");
    await waitCount(page.locator("[data-testid^=template-row-]"), 2);
    expect(screenErrors(page)).toEqual([]);
  });

  it("creates a template with an image header: the sample file is asked for, checked, uploaded to Meta and named by its handle", async () => {
    const png = Buffer.concat([Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), Buffer.alloc(2048, 5)]);
    const page = await newPage(browser);
    await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/templates");
    await page.waitForSelector("[data-testid=templates-page]", { timeout: 30_000 });
    await page.click("[data-testid=template-new]");
    await page.waitForSelector("[data-testid=template-form]");
    await page.fill("[data-testid=template-name]", "oferta_foto");
    await page.click("[data-testid=template-header-format]");
    await page.click(".ant-select-item-option[title='Imagem']");
    await page.fill("[data-testid=template-body]", "Olá {{1}}, chegou a coleção nova.");
    await page.fill("[data-testid=template-example-body-1]", "Ana");
    const uploads = fake.uploads.calls.length;

    // Sent without its file: refused on the file's field, nothing uploaded or submitted.
    await page.click("[data-testid=template-submit]");
    const fileError = page.locator("[data-testid='template-error-header.example']");
    await waitCount(fileError, 1);
    expect(await fileError.innerText()).toMatch(/arquivo de exemplo/i);
    // A GIF is not an image Meta takes for a header.
    await page.setInputFiles("[data-testid=template-header-sample-input]", { name: "anim.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
    await poll(() => fileError.innerText(), (x) => /image\/jpeg, image\/png/.test(x), "the type refusal");
    await screenshot(page, "templates-screen-image-header-type");
    expect(fake.uploads.calls.length).toBe(uploads);

    await page.setInputFiles("[data-testid=template-header-sample-input]", { name: "colecao.png", mimeType: "image/png", buffer: png });
    await waitCount(fileError, 0);
    expect(await page.locator("[data-testid=template-header-sample-name]").innerText()).toBe("colecao.png · 2 KB");
    await screenshot(page, "templates-screen-image-header");
    await page.click("[data-testid=template-submit]");
    await waitCount(page.locator("[data-testid=template-form]"), 0);
    await waitAttr(page.locator("[data-testid=template-row-oferta_foto] [data-testid=template-status]"), "data-status", "PENDING");
    const created = fake.templates.find((x) => x.name === "oferta_foto")!;
    const header = created.components.find((c) => c.type === "HEADER") as { example: { header_handle: string[] } };
    expect(header).toEqual({ type: "HEADER", format: "IMAGE", example: { header_handle: [expect.any(String)] } });
    const sample = fake.uploads.samples.get(header.example.header_handle[0])!;
    expect(sample).toMatchObject({ fileName: "colecao.png", fileType: "image/png", token: waba.number.token });
    expect(sample.data.equals(png)).toBe(true);
    expect(screenErrors(page)).toEqual([]);
  });

  it("pages a large account with Load more, for the connection chosen among several", async () => {
    const g = await createTenant(t, { tier: "PLUS" });
    await acceptTerms(t, g);
    const head = await connectWaba(t, g, graph, { name: "WABA Centro" });
    const second = await connectWaba(t, g, graph, { name: "WABA Zona Sul" });
    fake.add(head.number.wabaId, { name: "matriz_ola" });
    for (let i = 0; i < 27; i++) fake.add(second.number.wabaId, { name: `filial_${String(i).padStart(2, "0")}` });
    const page = await newPage(browser);
    await sessionLogin(page, t.url, g.emails.admin, "/configuracoes/templates");
    await page.waitForSelector("[data-testid=templates-connection]", { timeout: 30_000 });
    // The first connected one (by name) opens; the other is chosen in the selector.
    await waitCount(page.locator("[data-testid=template-row-matriz_ola]"), 1, 20_000);
    await page.click("[data-testid=templates-connection]");
    await page.click(".ant-select-item-option[title='WABA Zona Sul']");
    const rows = page.locator("[data-testid^=template-row-filial_]");
    await waitCount(rows, 25, 20_000);
    expect(await page.locator("[data-testid=template-row-matriz_ola]").count()).toBe(0);
    await page.click("[data-testid=templates-more]");
    await waitCount(rows, 27);
    await waitCount(page.locator("[data-testid=templates-more]"), 0);
    expect(screenErrors(page)).toEqual([]);
  });

  it("shows a 360dialog connection's templates on the same single tab, with its review statuses live", async () => {
    const d360 = await Fake360.start();
    try {
      const g = await createTenant(t, { tier: "PLUS" });
      await acceptTerms(t, g);
      const w = await connectWaba(t, g, graph, { name: "A WABA" });
      fake.add(w.number.wabaId, { name: "da_meta" });
      const c = await connect360(t, g, d360, { name: "B 360dialog" });
      expect(c.status).toBe("connected");
      d360.addTemplate(c.number, { name: "via_360", language: "pt_BR", category: "UTILITY", status: "approved", components: [{ type: "BODY", text: "Olá pela 360" }] });
      const review = d360.addTemplate(c.number, { name: "em_revisao", language: "pt_BR", category: "MARKETING", status: "submitted", components: [{ type: "BODY", text: "Oferta" }] });
      const page = await newPage(browser);
      await sessionLogin(page, t.url, g.emails.admin, "/configuracoes/templates");
      await page.waitForSelector("[data-testid=templates-connection]", { timeout: 30_000 });
      // Both plugins register the screen: one tab.
      expect(await page.locator("[data-testid=settings-tab-templates]").count()).toBe(1);
      await waitCount(page.locator("[data-testid=template-row-da_meta]"), 1, 20_000);
      await page.click("[data-testid=templates-connection]");
      await page.click(".ant-select-item-option[title='B 360dialog']");
      const row = (name: string) => page.locator(`[data-testid=template-row-${name}]`);
      await waitAttr(row("via_360").locator("[data-testid=template-status]"), "data-status", "APPROVED", 20_000);
      await waitAttr(row("em_revisao").locator("[data-testid=template-status]"), "data-status", "PENDING");
      expect(await page.locator("[data-testid=template-row-da_meta]").count()).toBe(0);
      // 360dialog relays Meta's review to the number's webhook: the row changes without a reload.
      const hook = { event: "APPROVED", message_template_id: Number(review.id), message_template_name: "em_revisao", message_template_language: "pt_BR", reason: "NONE" };
      const r = await d360.deliver(c.number, envelope([{ wabaId: c.number.wabaId, changes: [{ field: "message_template_status_update", value: hook }] }]), { origin: t.url });
      expect(r.status).toBe(200);
      await waitAttr(row("em_revisao").locator("[data-testid=template-status]"), "data-status", "APPROVED", 20_000);
      await screenshot(page, "templates-screen-360");
      expect(screenErrors(page)).toEqual([]);
    } finally {
      await d360.close();
    }
  });

  it("is PLUS: a FREE tenant's admin gets the notice naming PLUS instead of the screen", async () => {
    const free = await createTenant(t, { tier: "FREE" });
    await acceptTerms(t, free);
    const page = await newPage(browser);
    await sessionLogin(page, t.url, free.emails.admin, "/configuracoes/templates");
    await poll(() => notices(page), (n) => n.some((x) => x.kind === "warning" && /PLUS/.test(x.detail ?? "")), "the licence notice naming PLUS", 20_000);
    await poll(() => Promise.resolve(page.url()), (u) => u.endsWith("#/home"), "the way back to /home");
    expect(await page.locator("[data-testid=templates-page]").count()).toBe(0);
  });
});
