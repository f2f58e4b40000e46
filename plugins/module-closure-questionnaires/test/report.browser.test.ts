/**
 * The closure questionnaires report in the built shell, in Debian's Chromium, against a real
 * core: a supervisor opens /relatorios/relatorio-closure-questionnaires with one ticket answered,
 * sees its cards, and downloads the Excel and the PDF from the buttons beside print (the files
 * the server streams, named by the report). The page had no errors. Browser support is
 * report-tickets' (imported, not copied).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Browser } from "playwright-core";
import { createTenant, startCore, uid, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, screenErrors, sessionLogin, shot, waitText } from "../../report-tickets/test/support/browser";
import { ok } from "../../report-tickets/test/kit";

jest.setTimeout(240_000);

let t: TestCore;
let f: TenantFixture;
let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(path.resolve(__dirname, "../dist/ui/remoteEntry.js"))) throw new Error("module-closure-questionnaires' UI is not built: run `node scripts/build-ui.cjs`");
  t = await startCore({ env: { NAMESPACE: `closure-ui-${uid()}` } });
  f = await createTenant(t, { tier: "PLUS" });
  await ok(t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin));
  await ok(t.api.put(`/users/${f.supervisor.userId}/lgpd-consent`, { accepted: true }, f.supervisor));
  const qn = await ok(
    t.api.post("/closure-questionnaires", { name: "Pós-atendimento", questions: [{ question: "Motivo", type: "select", options: ["Dúvida", "Compra"], reportType: "bar" }, { question: "Valor", type: "currency" }] }, f.admin),
  );
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0], settings: {} }, f.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, f.admin));
  const { ticketId } = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: c.id, providerMessageId: `m-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}`, name: "Carla" }, body: "Olá" })) as { ticketId: number };
  const [motivo, valor] = qn.questions.map((q: { id: string }) => q.id);
  await ok(t.api.post("/closure-questionnaires/answers", { ticketId, answers: [{ questionnaireId: qn.id, values: { [motivo]: "Compra", [valor]: "149,90" } }] }, f.admin));
  await ok(t.api.put(`/tickets/${ticketId}`, { status: "closed" }, f.admin));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

it("shows the answers by question and downloads them as Excel and PDF", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.supervisor, "/relatorios/relatorio-closure-questionnaires");
  await waitText(page.locator('[data-testid="cq-report-answered"]'), "1", 30_000);
  await waitText(page.locator('[data-testid="cq-report"]'), "149,90");
  for (const [format, ext] of [
    ["xlsx", "xlsx"],
    ["pdf", "pdf"],
  ]) {
    const button = page.locator(`[data-testid="cq-report-export-${format}"]`);
    expect(await button.innerText()).toBe(format === "xlsx" ? "Excel" : "PDF");
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 }), button.click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^Questionários de encerramento — Pós-atendimento \\d{4}-\\d\\d-\\d\\d \\d{4}-\\d\\d-\\d\\d\\.${ext}$`));
    const file = await download.path();
    expect(fs.statSync(file!).size).toBeGreaterThan(1000);
  }
  await shot(page, "relatorio-closure-questionnaires");
  expect(screenErrors(page)).toEqual([]);
});
