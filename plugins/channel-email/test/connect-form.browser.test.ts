/**
 * The plugin's connect form in the built shell, in Debian's Chromium, against a real core, a
 * real Dovecot and a local SMTP server: every field required, the TLS switch moving the port,
 * "Testar IMAP" / "Testar SMTP" showing the servers' real answers, the connection saved, and
 * the saved connection tested again with its masked passwords.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { createTenant, PASSWORD, startCore, uid, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { launchBrowser, newPage, screenshot, sessionLogin } from "./support/browser";
import { Dovecot, startDovecot } from "./support/dovecot";
import { startSmtpSink, SmtpSink } from "./support/smtp-sink";
import { dropRedisNamespace } from "./support/harness";

jest.setTimeout(180_000);

const support = { user: "support", pass: "support-pw" };
let t: TestCore;
let f: TenantFixture;
let admin2: Auth;
let browser: Browser;
let dv: Dovecot;
let smtp: SmtpSink;
/** The core's Moleculer namespace, also the prefix of the plugin's Redis keys. */
const namespace = `oa-email-${uid()}`;

beforeAll(async () => {
  [dv, smtp] = await Promise.all([startDovecot([support]), startSmtpSink()]);
  // The test Dovecot and SMTP sink are on loopback: the platform allow-lists it (outbound URL policy).
  t = await startCore({ env: { NAMESPACE: namespace, OUTBOUND_URL_ALLOWLIST: "127.0.0.1" } });
  f = await createTenant(t, { tier: "PLUS" });
  expect((await t.api.put(`/tenants/${f.tenantId}/terms-acceptance`, { accepted: true }, f.admin)).status).toBe(200);
  expect((await t.api.put(`/users/${f.admin.userId}/lgpd-consent`, { accepted: true }, f.admin)).status).toBe(200);
  const email = `admin2-${uid()}@t.test`;
  await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Admin Dois", email, password: PASSWORD, profile: "admin" });
  admin2 = await t.api.login(email);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await smtp?.stop();
  await dv?.destroy();
  await dropRedisNamespace(namespace);
});

async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 15_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const attr = (loc: Locator, name: string) => loc.first().getAttribute(name, { timeout: 1000 }).catch(() => null);
const waitAttr = (loc: Locator, name: string, value: string) => poll(() => attr(loc, name), (v) => v === value, `${loc} [${name}=${value}]`);
const text = (loc: Locator) => loc.first().innerText({ timeout: 1000 }).catch(() => "");
const drawer = (page: Page) => page.locator(".ant-drawer-body").last();
const shot = async (page: Page, name: string) => {
  await page.waitForTimeout(400);
  await screenshot(page, name);
};

it("creates an e-mail connection: required fields, real IMAP and SMTP tests, saved, tested again while masked, connected", async () => {
  const page = await newPage(browser);
  await sessionLogin(page, t.url, f.emails.admin, "/configuracoes/canais");
  await page.waitForSelector('[data-testid="channels-page"]');
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/api/connections")) posts.push(r.url());
  });
  await page.click('[data-testid="channel-new"]');
  await page.click('[data-testid="channel-type-channel-email"]');
  const d = drawer(page);
  const form = d.locator('[data-testid="email-connect-form"]');
  await form.waitFor({ timeout: 15_000 });
  await d.locator('[data-testid="channel-name"]').fill("E-mail atendimento");

  // Nothing filled in: the plugin's validate() names every required field, nothing is sent.
  await page.click('[data-testid="channel-save"]');
  await poll(() => form.locator(".ant-form-item-explain-error", { hasText: "Campo obrigatório" }).count(), (n) => n === 8, "8 required-field errors");
  expect(posts).toEqual([]);

  // IMAP: TLS on by default on 993; turning it off moves the port to 143.
  expect(await form.locator('input[name="imapPort"]').inputValue()).toBe("993");
  await form.locator('[data-testid="email-imap-tls"]').click();
  expect(await form.locator('input[name="imapPort"]').inputValue()).toBe("143");
  await form.locator('input[name="imapHost"]').fill(dv.host);
  await form.locator('input[name="imapPort"]').fill(String(dv.port));
  await form.locator('input[name="imapUser"]').fill(support.user);
  await form.locator('input[name="imapPassword"]').fill("senha-errada");
  await form.locator('[data-testid="email-test-imap"]').click();
  const imapResult = form.locator('[data-testid="email-test-imap-result"]');
  await waitAttr(imapResult, "data-code", "ERR_EMAIL_AUTH_FAILED");
  expect(await attr(imapResult, "data-ok")).toBe("false");
  expect(await text(imapResult)).toContain("Usuário ou senha recusados pelo servidor");
  expect(await text(imapResult)).toMatch(/AUTHENTICATIONFAILED|Authentication failed/i);
  await form.locator('input[name="imapPassword"]').fill(support.pass);
  await form.locator('[data-testid="email-test-imap"]').click();
  await waitAttr(imapResult, "data-ok", "true");
  expect(await text(imapResult)).toContain("Conexão aceita pelo servidor");
  expect(await text(imapResult)).toContain("IDLE supported");

  // SMTP and sender.
  expect(await form.locator('input[name="smtpPort"]').inputValue()).toBe("587");
  await form.locator('input[name="smtpHost"]').fill(smtp.host);
  await form.locator('input[name="smtpPort"]').fill(String(smtp.port));
  await form.locator('input[name="smtpUser"]').fill(smtp.user);
  await form.locator('input[name="smtpPassword"]').fill(smtp.pass);
  await form.locator('input[name="fromAddress"]').fill("atendimento");
  await form.locator('[data-testid="email-test-smtp"]').click();
  await poll(() => text(form), (s) => s.includes("E-mail inválido"), "the invalid sender address");
  await form.locator('input[name="fromAddress"]').fill("atendimento@support.test");
  await form.locator('input[name="fromName"]').fill("Atendimento");
  await form.locator('[data-testid="email-test-smtp"]').click();
  const smtpResult = form.locator('[data-testid="email-test-smtp-result"]');
  await waitAttr(smtpResult, "data-ok", "true");
  expect(await text(smtpResult)).toContain("Conexão aceita pelo servidor");
  await shot(page, "channel-email-form");

  await page.click('[data-testid="channel-save"]');
  await poll(() => page.locator(".ant-drawer-body").count(), (n) => n === 0, "the drawer to close");
  expect(posts).toHaveLength(1);
  const list = (await t.api.get("/connections", admin2)).body as Array<{ id: number; name: string }>;
  const conn = list.find((c) => c.name === "E-mail atendimento")!;
  const full = (await t.api.get(`/connections/${conn.id}`, admin2)).body;
  expect(full).toMatchObject({ type: "channel-email" });
  expect(full.settings).toEqual({
    imapHost: dv.host,
    imapPort: dv.port,
    imapTls: false,
    imapUser: support.user,
    imapPassword: "********",
    smtpHost: smtp.host,
    smtpPort: smtp.port,
    smtpTls: false,
    smtpUser: smtp.user,
    smtpPassword: "********",
    fromAddress: "atendimento@support.test",
    fromName: "Atendimento",
  });

  // Edit: the passwords come back masked; the tests use the saved ones (through the connection's token).
  await page.click(`[data-testid="channel-edit-${conn.id}"]`);
  const e = drawer(page).locator('[data-testid="email-connect-form"]');
  await e.waitFor({ timeout: 15_000 });
  await poll(() => e.locator('input[name="imapPassword"]').inputValue(), (v) => v === "********", "the masked password");
  await e.locator('[data-testid="email-test-imap"]').click();
  await waitAttr(e.locator('[data-testid="email-test-imap-result"]'), "data-ok", "true");
  await e.locator('[data-testid="email-test-smtp"]').click();
  await waitAttr(e.locator('[data-testid="email-test-smtp-result"]'), "data-ok", "true");
  await page.keyboard.press("Escape");
  await poll(() => page.locator(".ant-drawer-body").count(), (n) => n === 0, "the drawer to close");

  // Connect: the IMAP session opens and the row says so.
  await page.click(`[data-testid="channel-connect-${conn.id}"]`);
  await waitAttr(page.locator(`[data-testid="channel-status-${conn.id}"]`), "data-status", "connected");
  await shot(page, "channel-email-connected");
  expect(page.errors.filter((x) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(x))).toEqual([]);
});
