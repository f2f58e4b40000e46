/**
 * A WhatsApp connection end to end in a real browser against a real core, with the plugin's
 * sessions on fake sockets that speak Baileys' events (plugins/channel-whatsapp/test/
 * live-plugin.ts replaces the loaded plugin service with one made with a fake socket factory;
 * everything else is the real core, gateway, database and plugin tables): the admin makes
 * the connection in /configuracoes/canais with the plugin's form, connects it and sees the QR
 * code live, asks a pairing code instead; the fake "scans" and the status turns connected
 * live. In /atendimento a customer's message arrives, the agent accepts and replies, and the
 * fake socket sends it; a group message lands in the Groups tab, where the admin creates a
 * new WhatsApp group with a contact and answers a group's join requests; a reset from the
 * form unlinks the phone for a new QR code.
 */
import type { Browser, Page } from "playwright-core";
import type { GroupMetadata } from "@whiskeysockets/baileys";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { useFakeWhatsApp, type FakeWhatsApp } from "../../plugins/channel-whatsapp/test/live-plugin";
import { textMessage, type FakeSocket } from "../../plugins/channel-whatsapp/test/session/support/fake-socket";
import { waMessage } from "../../plugins/channel-whatsapp/test/fixtures/wa";
import type { WASocketLike } from "../../plugins/channel-whatsapp/src/session/socket-factory";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, screenshot, scrollTo, sessionLogin, shot, waitAttr, waitCount, waitText } from "./browser";

jest.setTimeout(300_000);

type P = Page & { errors: string[] };

const CUSTOMER = "5511988887777";
const GROUP = "120363055555555555@g.us";

let t: TestCore;
let f: TenantFixture;
let wa: FakeWhatsApp;
let browser: Browser;
/** A second admin for API checks: the browser's login ends the first admin's API session. */
let admin2: Auth;

beforeAll(async () => {
  // A namespace of its own: the plugin's owner locks and the core's caches live in Redis under it.
  t = await startCore({ env: { NAMESPACE: `wa-browser-${uid()}` } });
  wa = await useFakeWhatsApp(t.core.broker);
  f = await createTenant(t, { tier: "PLUS" });
  await acceptTerms(t, f);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const drawer = (page: Page) => page.locator(".ant-drawer-body").last();
const row = (page: Page, text: string) => page.locator(".ant-table-tbody tr.ant-table-row", { hasText: text });
const socketsOf = (id: number) => wa.factory.of(id);
/** What the first test leaves for the second: the connection and its linked socket. */
let conn: { id: number; name: string };
let linked: FakeSocket;
const nthSocket = (id: number, n: number) => poll(async () => socketsOf(id)[n - 1], (s) => !!s, `socket #${n} of connection ${id}`, 15_000) as Promise<FakeSocket>;

test("an admin links WhatsApp with the plugin's form; messages flow both ways; groups are made and answered from the Groups tab", async () => {
  const page = (await newPage(browser)) as P;
  try {
    await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/canais");
    await page.waitForSelector('[data-testid="channels-page"]', { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });

    // New → WhatsApp: the plugin's own form; the link to WhatsApp comes once the connection exists.
    await page.click('[data-testid="channel-new"]');
    await page.click('[data-testid="channel-type-channel-whatsapp"]');
    const d = drawer(page);
    const form = d.locator('[data-testid="whatsapp-connect-form"]');
    await form.waitFor({ timeout: 15_000 });
    await d.locator('[data-testid="channel-name"]').fill("WhatsApp da loja");
    await waitText(d.locator('[data-testid="whatsapp-session-after-save"]'), "Conectar");
    await shot(page, "whatsapp-form-new");

    // The form's rules: a malformed proxy and dates in the wrong order stop the save.
    await d.locator('[data-testid="whatsapp-advanced"] .ant-collapse-header').click();
    await d.locator('input[name="proxyUrl"]').fill("proxy.local:3128");
    await d.locator('[data-testid="whatsapp-import-messages"]').click();
    await d.locator('[data-testid="whatsapp-import-from"]').fill("2024-06-02");
    await d.locator('[data-testid="whatsapp-import-to"]').fill("2024-06-01");
    await page.click('[data-testid="channel-save"]');
    await waitText(form, "Informe um proxy http(s):// ou socks4/5:// válido");
    await waitText(form, "A data inicial deve ser anterior ou igual à final");
    await scrollTo(d.locator('input[name="proxyUrl"]'));
    await shot(page, "whatsapp-form-invalid");
    await d.locator('input[name="proxyUrl"]').fill("");
    await d.locator('[data-testid="whatsapp-import-to"]').fill("2024-06-30");
    await d.locator('[data-testid="whatsapp-test"]').click();
    await waitText(d.locator('[data-testid="whatsapp-test-result"]'), "Configurações válidas");
    await page.click('[data-testid="channel-save"]');
    await waitCount(page.locator(".ant-drawer-body"), 0, 10_000);
    await waitCount(row(page, "WhatsApp da loja"), 1);

    conn = ((await t.api.get("/connections", admin2)).body as Array<{ id: number; name: string }>).find((c) => c.name === "WhatsApp da loja")!;
    const full = (await t.api.get(`/connections/${conn.id}`, admin2)).body;
    expect(full).toMatchObject({ type: "channel-whatsapp", status: "disconnected", settings: { importSettings: { messages: true, from: "2024-06-02", to: "2024-06-30" } } });

    // Connect: a socket starts, WhatsApp hands it a QR code, the row shows it live.
    // (The QR comes after the connect call's answer, as WhatsApp's does: the page takes that answer as the row's status.)
    const connectAnswer = page.waitForResponse((r) => r.url().endsWith(`/api/connections/${conn.id}/connect`));
    await page.click(`[data-testid="channel-connect-${conn.id}"]`);
    await connectAnswer;
    const first = await nthSocket(conn.id, 1);
    first.qr();
    await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "qrcode");
    await page.locator(`[data-testid="channel-row-${conn.id}"] button`, { hasText: "QR" }).first().click();
    const qrModal = page.locator(".ant-modal-container", { has: page.locator('img[src^="data:image/png"]') });
    await qrModal.waitFor({ timeout: 10_000 });
    await shot(page, "whatsapp-qr-modal");
    await page.keyboard.press("Escape");
    await waitCount(page.locator(".ant-modal-container"), 0);

    // The form shows the same QR code, and asks a pairing code for a number instead.
    await page.click(`[data-testid="channel-edit-${conn.id}"]`);
    const e = drawer(page);
    const panel = e.locator('[data-testid="whatsapp-session-panel"]');
    await panel.waitFor({ timeout: 15_000 });
    await waitAttr(panel, "data-status", "qrcode");
    await e.locator('[data-testid="whatsapp-qr-image"]').waitFor({ timeout: 10_000 });
    await scrollTo(e.locator('[data-testid="whatsapp-qr"]'));
    expect(await e.locator('[data-testid="whatsapp-qr-image"]').getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await shot(page, "whatsapp-form-qr");
    await e.locator('[data-testid="whatsapp-pairing-phone"]').fill("12 34");
    await e.locator('[data-testid="whatsapp-pairing-get"]').click();
    await waitText(e, "Informe o número com DDI e DDD");
    await e.locator('[data-testid="whatsapp-pairing-phone"]').fill("+55 11 97777-0000");
    await e.locator('[data-testid="whatsapp-pairing-get"]').click();
    await waitText(e.locator('[data-testid="whatsapp-pairing-code"]'), "K7QX-2MPA");
    expect(first.pairingRequests).toEqual(["5511977770000"]);
    await scrollTo(e.locator('[data-testid="whatsapp-pairing-code"]'));
    await shot(page, "whatsapp-form-pairing-code");

    // The phone links: creds registered, WhatsApp restarts the socket (515), the new one opens.
    first.paired({ id: "5511977770000:3@s.whatsapp.net", lid: "88000000000001:3@lid", name: "Loja" });
    first.close(515, "restart required");
    linked = await nthSocket(conn.id, 2);
    linked.open({ id: "5511977770000:3@s.whatsapp.net", lid: "88000000000001:3@lid", name: "Loja" });
    await waitAttr(panel, "data-status", "connected");
    await waitText(panel, "+5511977770000");
    await e.locator('[data-testid="whatsapp-health-refresh"]').click();
    await waitText(e.locator('[data-testid="whatsapp-health-status"]'), "Conectado");
    await scrollTo(e.locator('[data-testid="whatsapp-health"]'));
    await shot(page, "whatsapp-form-connected");
    await page.locator(".ant-drawer-close").click();
    await waitCount(page.locator(".ant-drawer-body"), 0);
    await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "connected");
    await shot(page, "whatsapp-connected");

    // /atendimento, live: a customer writes.
    await page.evaluate(() => (window.location.hash = "#/atendimento"));
    await page.waitForSelector("[data-testid=ticket-list-empty]", { timeout: 15_000 });
    await page.waitForFunction(() => (window as any).__openatende?.realtime.status === "connected", null, { timeout: 20_000 });
    await page.waitForTimeout(400);
    const question = `Oi! Vocês entregam no sábado? ${uid()}`;
    linked.upsert([{ ...textMessage({ from: `${CUSTOMER}@s.whatsapp.net`, text: question }), pushName: "Joana Pereira" }]);
    const ticketRow = page.locator("[data-testid=ticket-row]").filter({ hasText: question });
    await ticketRow.waitFor({ timeout: 20_000 });
    await waitText(ticketRow, "Joana Pereira");
    const ticketId = Number(await ticketRow.getAttribute("data-ticket-id"));
    await shot(page, "whatsapp-atendimento-live");

    await ticketRow.click();
    await page.waitForSelector(`[data-testid=chat-pane][data-ticket-id="${ticketId}"]`);
    await page.click("[data-testid=action-accept]");
    await page.waitForFunction(() => document.querySelector("[data-testid=chat-status]")?.textContent === "Com você");
    const reply = "Oi, Joana! Entregamos sim, até as 14h.";
    await page.fill("[data-testid=composer-input]", reply);
    await page.keyboard.press("Enter");
    const sent = await poll(async () => linked.sent.filter((s) => s.jid === `${CUSTOMER}@s.whatsapp.net`), (s) => s.length > 0, "the reply on the socket", 15_000);
    expect(sent.map((s) => (s.content as { text?: string }).text)).toEqual([reply]);
    await page.waitForFunction(
      (text) => [...document.querySelectorAll("[data-testid=message][data-from-me='1']")].some((m) => m.textContent?.includes(text) && !m.querySelector(".oa-tick.is-pending")),
      reply,
      { timeout: 15_000 },
    );
    expect(await page.locator("[data-testid=message-failed]").count()).toBe(0);
    await shot(page, "whatsapp-atendimento-reply");

    // A group message: the Groups tab.
    linked.groupMetadata = async (jid: string) => ({ id: jid, subject: "Clientes VIP", participants: [] }) as unknown as GroupMetadata;
    const groupText = `Bom dia, pessoal! ${uid()}`;
    linked.upsert([waMessage({ remoteJid: GROUP, participant: "5511911111111@s.whatsapp.net", pushName: "Dora", message: { conversation: groupText } })]);
    await page.click("[data-testid=tab-group]");
    const groupRow = page.locator("[data-testid=ticket-row]").filter({ hasText: groupText });
    await groupRow.waitFor({ timeout: 20_000 });
    await waitText(groupRow, "Clientes VIP");
    await shot(page, "whatsapp-groups-tab");

    // New WhatsApp group: name, the connection (the only connected one, chosen), a contact, a photo.
    const created: Array<[string, string[]]> = [];
    (linked as WASocketLike).groupCreate = async (subject: string, participants: string[]) => {
      created.push([subject, participants]);
      return { id: "120363066666666666@g.us", subject, participants: participants.map((id) => ({ id, admin: null })) } as unknown as GroupMetadata;
    };
    await page.click('[data-testid="chatlist-action-channel-whatsapp-new-group"]');
    const modal = page.locator(".ant-modal-container", { has: page.locator('[data-testid="wa-group-form"]') });
    await modal.waitFor({ timeout: 10_000 });
    await modal.locator('[data-testid="wa-group-create"]').click();
    await waitText(modal, "Informe o nome do grupo");
    await waitText(modal, "Escolha ao menos um contato");
    await modal.locator('[data-testid="wa-group-name"]').fill("Entregas de sábado");
    await waitText(modal.locator('[data-testid="wa-group-connection"]'), "WhatsApp da loja");
    await modal.locator('[data-testid="wa-group-contacts"] input').fill("Joana");
    await page.locator(".ant-select-item-option", { hasText: "Joana Pereira" }).click();
    await modal.locator('[data-testid="wa-group-name"]').click();
    await modal.locator('input[type="file"]').setInputFiles({ name: "nota.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.7") });
    await waitText(modal, "A foto deve ser uma imagem");
    await shot(page, "whatsapp-new-group-invalid");
    expect(created).toEqual([]);
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
    await modal.locator('input[type="file"]').setInputFiles({ name: "grupo.png", mimeType: "image/png", buffer: png });
    await poll(async () => modal.innerText(), (s) => !s.includes("A foto deve ser uma imagem"), "the photo accepted");
    await shot(page, "whatsapp-new-group");
    await modal.locator('[data-testid="wa-group-create"]').click();
    await waitCount(page.locator(".ant-modal-container", { has: page.locator('[data-testid="wa-group-form"]') }), 0, 15_000);
    expect(created).toEqual([["Entregas de sábado", [`${CUSTOMER}@s.whatsapp.net`]]]);

    // Join requests of the group that reached the Groups tab.
    const answered: Array<[string, string[], string]> = [];
    (linked as WASocketLike).groupRequestParticipantsList = async (jid: string) => (jid === GROUP ? [{ jid: "5511955554444@s.whatsapp.net", request_time: String(Math.floor(Date.now() / 1000)), request_method: "invite_link" }] : []);
    (linked as WASocketLike).groupRequestParticipantsUpdate = async (jid: string, participants: string[], action: "approve" | "reject") => {
      answered.push([jid, participants, action]);
      return participants.map((p) => ({ jid: p, status: "200" }));
    };
    await page.click('[data-testid="chatlist-action-channel-whatsapp-join-requests"]');
    const jr = page.locator(".ant-modal-container", { has: page.locator('[data-testid="wa-join-form"]') });
    await jr.waitFor({ timeout: 10_000 });
    await waitText(jr.locator('[data-testid="wa-join-connection"]'), "WhatsApp da loja");
    await jr.locator('[data-testid="wa-join-group"]').click();
    await page.locator(".ant-select-item-option", { hasText: "Clientes VIP" }).click();
    await waitText(jr.locator('[data-testid="wa-join-requests"]'), "+5511955554444");
    await jr.locator('[data-testid="wa-join-requests"] .ant-table-tbody .ant-checkbox-input').first().check();
    await shot(page, "whatsapp-join-requests");
    await jr.locator('[data-testid="wa-join-approve"]').click();
    await poll(async () => answered.length, (n) => n === 1, "the approval at WhatsApp");
    expect(answered).toEqual([[GROUP, ["5511955554444@s.whatsapp.net"], "approve"]]);
    await page.keyboard.press("Escape");

    expect(screenErrors(page)).toEqual([]);
  } catch (err) {
    await screenshot(page, "whatsapp-failure").catch(() => undefined);
    throw err;
  } finally {
    await page.context().close();
  }
});

test("a reset from the form logs the phone out and shows a new QR code", async () => {
  expect(linked).toBeDefined();
  const page = (await newPage(browser)) as P;
  try {
    await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/canais");
    await page.waitForFunction(() => (window as any).__openatende?.plugins.loaded === true, null, { timeout: 15_000 });
    await page.click(`[data-testid="channel-edit-${conn.id}"]`);
    const r = drawer(page);
    await waitAttr(r.locator('[data-testid="whatsapp-session-panel"]'), "data-status", "connected");
    await scrollTo(r.locator('[data-testid="whatsapp-reset"]'));
    await r.locator('[data-testid="whatsapp-reset"]').click();
    await shot(page, "whatsapp-form-reset-confirm");
    await page.locator(".ant-popconfirm .ant-btn-dangerous").click();
    const fresh = await nthSocket(conn.id, 3);
    expect(linked.loggedOut).toBe(true);
    // A new link, by QR code: the number a pairing code was asked for before the reset is not asked again.
    fresh.qr();
    await waitAttr(r.locator('[data-testid="whatsapp-session-panel"]'), "data-status", "qrcode");
    await r.locator('[data-testid="whatsapp-qr-image"]').waitFor({ timeout: 10_000 });
    expect(fresh.pairingRequests).toEqual([]);
    expect(wa.factory.live.filter((s) => s.opts.ref.connectionId === conn.id)).toEqual([fresh]);
    await scrollTo(r.locator('[data-testid="whatsapp-qr"]'));
    await shot(page, "whatsapp-form-reset");
    expect(screenErrors(page)).toEqual([]);
  } catch (err) {
    await screenshot(page, "whatsapp-reset-failure").catch(() => undefined);
    throw err;
  } finally {
    await page.context().close();
  }
});
