/**
 * The internal chat (plugins/module-internal-chat) in a real browser against a real core: two
 * users of one PLUS tenant, each in a browser context of their own, have /chat-interno open.
 * The admin writes to the agent: the agent's list shows the unread count live, and opening
 * the chat clears it; the agent answers with an image, which the admin sees at once. The admin
 * then creates a group on /configuracoes/grupos with the agent in it: it appears in the agent's
 * list without a reload, and a message to it raises its count there.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { createSuper, createTenant, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { acceptTerms, launchBrowser, newPage, poll, screenErrors, sessionLogin, shot, waitCount, waitText } from "./browser";

jest.setTimeout(300_000);

type P = Page & { errors: string[] };

let t: TestCore;
let a: TenantFixture;
let browser: Browser;
let image: string;
/** Kept for API checks once the browser logins have ended the fixture's sessions. */
let agentId: number;
let adminId: number;

/** A PNG of one colour, w×h (big enough to be seen in the screenshots). */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.concat(Array.from({ length: w }, () => Buffer.from(rgb)))]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

async function ok<T = any>(p: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `internal-chat-browser-${uid()}` } });
  const sup = await createSuper(t);
  a = await createTenant(t, { tier: "PLUS", name: `Aurora ${uid()}` });
  await ok(t.api.put(`/plugins/module-internal-chat/tenants/${a.tenantId}`, { allowed: true }, sup));
  await acceptTerms(t, a);
  await ok(t.api.put(`/users/${a.agent.userId}/lgpd-consent`, { accepted: true }, a.agent));
  const agent: Auth = a.agent;
  await poll(() => t.api.get("/chat-interno/conversations", agent), (r) => r.status === 200, "the internal chat's routes");
  agentId = a.agent.userId;
  adminId = a.admin.userId;
  image = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ic-")), "foto.png");
  fs.writeFileSync(image, png(120, 80, [19, 168, 168]));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const conv = (page: Page, key: string) => page.locator(`[data-testid=ic-conv][data-key="${key}"]`);
const unread = (page: Page, key: string) => conv(page, key).locator("[data-testid=ic-unread]");
const bodies = (page: Page) => page.locator("[data-testid=ic-message-body]").allInnerTexts();

async function openChat(email: string): Promise<P> {
  const page = (await newPage(browser, { viewport: { width: 1280, height: 760 } })) as P;
  await sessionLogin(page, t.url, email, "/chat-interno");
  await page.waitForSelector("[data-testid=ic-list]", { timeout: 30_000 });
  return page;
}

async function send(page: Page, text: string) {
  await page.fill("[data-testid=ic-input]", text);
  await page.press("[data-testid=ic-input]", "Enter");
}

test("two users chat live: unread count, read on opening, an image back; a group made in the settings reaches the other's list live", async () => {
  const admin = await openChat(a.emails.admin);
  const agent = await openChat(a.emails.agent);
  try {
    await admin.waitForSelector("[data-testid=main-menu] >> text=Chat interno");
    await waitCount(unread(agent, `u:${adminId}`), 0);

    // The admin writes twice; the agent's list counts them as they arrive.
    await conv(admin, `u:${agentId}`).click();
    await waitText(admin.locator("[data-testid=ic-pane-title]"), "Agent");
    await send(admin, "Olá! Pode revisar o pedido 42?");
    await poll(() => bodies(admin), (b) => b.join("|") === "Olá! Pode revisar o pedido 42?", "the admin's own message");
    await waitText(unread(agent, `u:${adminId}`), "1", 15_000);
    await send(admin, "É urgente");
    await waitText(unread(agent, `u:${adminId}`), "2", 15_000);
    await waitText(conv(agent, `u:${adminId}`), "É urgente");
    await shot(agent, "internal-chat-unread");

    // Opening the chat shows both and clears the count (on the server too).
    await conv(agent, `u:${adminId}`).click();
    await poll(() => bodies(agent), (b) => b.join("|") === "Olá! Pode revisar o pedido 42?|É urgente", "the history on the agent's side");
    await waitCount(unread(agent, `u:${adminId}`), 0);

    // The agent answers with a text and an image; the admin, in the chat, sees them at once and counts nothing.
    await send(agent, "Claro, já vejo");
    await agent.setInputFiles("[data-testid=ic-image-input]", image);
    await poll(() => bodies(admin), (b) => b.includes("Claro, já vejo"), "the answer on the admin's side", 15_000);
    await admin.locator("[data-testid=ic-image]").first().waitFor({ timeout: 15_000 });
    expect(await admin.locator("[data-testid=ic-image]").first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
    await waitText(conv(admin, `u:${agentId}`), "Imagem"); // the list's last message names a file's kind
    await waitCount(unread(admin, `u:${agentId}`), 0);
    await shot(admin, "internal-chat-admin-live");

    // The admin makes a group with the agent on /configuracoes/grupos: it shows up in the agent's list live.
    await admin.evaluate(() => (window.location.hash = "#/configuracoes/grupos"));
    await admin.click("[data-testid=ic-new-group]");
    await admin.click(".ant-modal .ant-btn-primary");
    await admin.waitForSelector(".ant-modal >> text=Informe o nome do grupo");
    await admin.fill("[data-testid=ic-group-name]", "Equipe Suporte");
    await admin.click("[data-testid=ic-group-users]");
    for (const name of ["Admin", "Agent"]) await admin.locator(".ant-select-dropdown .ant-select-item-option", { hasText: name }).click();
    await admin.click(".ant-modal-title"); // closes the dropdown (Escape would close the modal)
    await admin.setInputFiles("[data-testid=ic-group-image-input]", image);
    await waitText(admin.locator("[data-testid=ic-group-image-name]"), "foto.png");
    await shot(admin, "internal-chat-group-form");
    await admin.click(".ant-modal .ant-btn-primary");
    await admin.locator('[data-testid=ic-group-row][data-name="Equipe Suporte"]').waitFor();
    await waitCount(admin.locator("[data-testid=ic-group-row] .ant-avatar img"), 1);
    await shot(admin, "internal-chat-groups");
    const group = agent.locator("[data-testid=ic-conv][data-name='Equipe Suporte']");
    await group.waitFor({ timeout: 15_000 });

    // A message to the group raises its count in the agent's list (the agent is in another chat).
    await admin.evaluate(() => (window.location.hash = "#/chat-interno"));
    await admin.locator("[data-testid=ic-conv][data-name='Equipe Suporte']").click();
    await send(admin, "Reunião às 15h");
    await waitText(group.locator("[data-testid=ic-unread]"), "1", 15_000);
    await shot(agent, "internal-chat-group-unread");

    expect(screenErrors(admin)).toEqual([]);
    expect(screenErrors(agent)).toEqual([]);
  } finally {
    await admin.context().close();
    await agent.context().close();
  }
});
