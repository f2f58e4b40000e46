/**
 * Closure questionnaires in Chromium (plugins/module-closure-questionnaires), one journey: an
 * agent resolves a ticket of a queue with a questionnaire → the closing dialog asks → a
 * required answer left blank keeps the ticket open → answered, the ticket closes; then the
 * admin finds the questionnaire on /configuracoes/closure-questionnaires, makes another on its
 * form, and finds the answer on
 * /relatorios/relatorio-closure-questionnaires (reached from the /relatorios page). The API
 * refusal of the same close without answers is checked first.
 */
import type { Browser } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitText } from "./browser";

jest.setTimeout(300_000);

let t: TestCore;
let a: TenantFixture;
let browser: Browser;

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `closure-e2e-${uid()}` } });
  a = await createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` });
  await acceptTerms(t, a);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test("an agent's close asks the questionnaire, refuses without the required answer, closes with it; the answer shows in the report", async () => {
  await poll(async () => (await t.api.get("/closure-questionnaires", a.admin)).status, (s) => s === 200, "the plugin's routes", 60_000);
  const qn = (
    await t.api.post(
      "/closure-questionnaires",
      {
        name: "Pós-atendimento",
        description: "Por que o ticket foi resolvido",
        questions: [
          { question: "Motivo do contato", type: "select", required: true, options: ["Dúvida", "Compra", "Reclamação"], reportType: "pie", queueIds: [a.queueIds[0]] },
          { question: "Resumo", type: "text", queueIds: [a.queueIds[0]] },
        ],
      },
      a.admin,
    )
  ).body as { id: number; questions: Array<{ id: string }> };
  const [motivo, resumo] = qn.questions.map((q) => q.id);
  const conn = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: a.queueIds[0], settings: { title: "Loja" } }, a.admin);
  await t.api.post(`/connections/${conn.body.id}/connect`, {}, a.admin);
  const { ticketId } = (await t.core.broker.call("channels.inbound", { tenantId: a.tenantId, connectionId: conn.body.id, providerMessageId: `m-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}`, name: "Cliente Questionário" }, body: "Oi" })) as { ticketId: number };
  expect((await t.api.put(`/tickets/${ticketId}`, { status: "open", userId: a.agent.userId }, a.agent)).status).toBe(200);
  // The server refuses the agent's close while the required answer is missing.
  const refused = await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.agent);
  expect([refused.status, refused.body.error]).toEqual([422, "ERR_CLOSURE_ANSWERS_REQUIRED"]);
  const ticketStatus = async () => (await t.api.get(`/tickets/${ticketId}`, a.supervisor)).body.status as string;

  const page = await newPage(browser, { viewport: { width: 1600, height: 900 } });
  try {
    await sessionLogin(page, t.url, a.emails.agent, `/atendimento/${ticketId}`);
    await page.waitForSelector("[data-testid=composer-input]", { timeout: 30_000 });
    await page.click("[data-testid=action-resolve]");
    const dialog = page.getByRole("dialog", { name: "Questionário de encerramento" });
    await dialog.waitFor({ timeout: 20_000 });
    await waitText(dialog, "Motivo do contato");
    // Resolve with the required answer blank: the dialog says so and the ticket stays open.
    await page.click("[data-testid=cq-dialog-ok]");
    await waitText(dialog, "Resposta obrigatória");
    expect(await ticketStatus()).toBe("open");
    await shot(page, "closure-questionnaires-required");
    await page.click(`[data-testid=cq-answer-${motivo}]`);
    await page.click(".ant-select-dropdown .ant-select-item-option[title=Compra]");
    await page.fill(`[data-testid=cq-answer-${resumo}]`, "Comprou o plano anual");
    await shot(page, "closure-questionnaires-dialog");
    await page.click("[data-testid=cq-dialog-ok]");
    await poll(ticketStatus, (s) => s === "closed", "closed after the questionnaire", 20_000);
    expect(screenErrors(page)).toEqual([]);
  } finally {
    await page.context().close();
  }
  const stored = (await t.api.get(`/closure-questionnaires/closures?ticketId=${ticketId}`, a.supervisor)).body;
  expect(stored.answers.map((r: { answers: unknown }) => r.answers)).toEqual([{ [motivo]: "Compra", [resumo]: "Comprou o plano anual" }]);

  // The admin's API session ends with the browser login: API reads go through a second admin.
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: a.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin", queues: a.queueIds });
  const apiAdmin = await t.api.login(email);
  const admin = await newPage(browser);
  try {
    await sessionLogin(admin, t.url, a.emails.admin, "/configuracoes/closure-questionnaires");
    await waitText(admin.locator("[data-testid=cq-settings]"), "Pós-atendimento", 30_000);
    // A questionnaire made on the form: one required text question, for every queue.
    await admin.click("[data-testid=cq-new]");
    await admin.fill("[data-testid=cq-name]", "Triagem");
    await admin.fill("[data-testid=cq-question-0-text]", "Produto");
    await admin.locator("[data-testid=cq-question-0]").getByText("Obrigatória").click();
    await shot(admin, "closure-questionnaires-form");
    await admin.click("[data-testid=cq-save]");
    await waitText(admin.locator("[data-testid=cq-settings] .ant-table"), "Triagem", 15_000);
    const made = (await t.api.get("/closure-questionnaires", apiAdmin)).body.questionnaires.find((x: { name: string }) => x.name === "Triagem");
    expect(made).toMatchObject({ active: true, questions: [{ question: "Produto", type: "text", required: true, queueIds: [], showInReport: true, reportType: "list" }] });
    await shot(admin, "closure-questionnaires-settings");
    await admin.evaluate(() => (window.location.hash = "#/relatorios"));
    await admin.click("[data-testid=report-link-relatorio-closure-questionnaires]", { timeout: 30_000 });
    await waitText(admin.locator("[data-testid=cq-report-answered]"), "1", 30_000);
    await waitText(admin.locator(`[data-testid=cq-report-question-${motivo}]`), "Compra: 1");
    await waitText(admin.locator(`[data-testid=cq-report-question-${resumo}]`), "Comprou o plano anual");
    await shot(admin, "closure-questionnaires-report");
    expect(screenErrors(admin)).toEqual([]);
  } finally {
    await admin.context().close();
  }
});
