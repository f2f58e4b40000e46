/**
 * The public pages in Chromium against a real core: login (validation, the slider check,
 * a refused password, phone or e-mail), the terms of use and the privacy consent after a
 * first login, the redirect to the page that was asked for, the language, and the password
 * reset through a real local SMTP server.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import type { Browser, Page } from "playwright-core";
import { createSuper, createTenant, PASSWORD, startCore, TestCore, TenantFixture, uid } from "@openatende/core/testkit";
import { launchBrowser, newPage, notices, screenshot } from "./browser";

type P = Page & { errors: string[] };

async function fillLogin(page: Page, identifier: string, password: string) {
  await page.fill("#login-identifier", identifier);
  await page.fill("#login-password", password);
  // The slider check, from the keyboard (the pointer drag is the same handler).
  await page.focus("[data-testid=captcha-handle]");
  await page.keyboard.press("End");
  await page.waitForSelector(".oa-captcha-ok");
}

/**
 * The page's errors, less the remotes of plugins whose UI is not built in this tree (their
 * 404s are the plugin host's business, not these pages').
 */
const ownErrors = (page: P) => page.errors.filter((e) => !/\/api\/plugins\/|status of 404/.test(e));

/** The hash route the page shows, without its query. */
const route = (page: Page) => new URL(page.url()).hash.replace(/^#/, "").split("?")[0];

async function waitRoute(page: Page, path: string) {
  await page.waitForFunction((p) => window.location.hash.replace(/^#/, "").split("?")[0] === p, path, { timeout: 15_000 });
}

describe("public pages", () => {
  let t: TestCore;
  let free: TenantFixture;
  let paid: TenantFixture;
  let browser: Browser;
  const mails: string[] = [];
  let smtp: SMTPServer;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, _session, cb) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          mails.push(Buffer.concat(chunks).toString("utf8"));
          cb();
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, "127.0.0.1", r));
    t = await startCore();
    free = await createTenant(t);
    paid = await createTenant(t, { tier: "PLUS" });
    const master = await createSuper(t);
    const port = (smtp.server.address() as AddressInfo).port;
    expect((await t.api.put("/settings/global/smtp", { value: { host: "127.0.0.1", port, secure: false, senderEmail: "noreply@atende.test" } }, master)).status).toBe(200);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await new Promise<void>((r) => smtp?.close(() => r()));
  });

  let page: P;
  beforeEach(async () => {
    page = await newPage(browser);
  });
  afterEach(async () => {
    await page.context().close();
  });

  it("checks the form before calling the API, keeps a refused login in the card and asks for the check again", async () => {
    const logins: string[] = [];
    page.on("request", (r) => r.url().includes("/api/auth/login") && logins.push(r.url()));
    await page.goto(`${t.url}/#/login`);
    await page.waitForSelector("[data-testid=login-form]");
    await page.click("[data-testid=login-submit]");
    await page.waitForSelector("#login-identifier-error");
    expect(await page.textContent("#login-identifier-error")).toBe("Informe seu e-mail ou telefone.");
    expect(await page.textContent("#login-password-error")).toBe("Informe sua senha.");
    expect(await page.isVisible("text=Arraste o controle até o fim antes de entrar.")).toBe(true);
    await page.fill("#login-identifier", "não é e-mail");
    await page.click("[data-testid=login-submit]");
    expect(await page.textContent("#login-identifier-error")).toBe("Informe um e-mail válido ou um telefone com código do país e DDD.");
    expect(logins).toEqual([]);

    await fillLogin(page, free.emails.agent, "Errada123");
    await page.click("[data-testid=login-submit]");
    await page.waitForSelector("[data-testid=form-failure]");
    const failure = await page.textContent("[data-testid=form-failure] strong");
    const shown = await notices(page);
    expect(shown[shown.length - 1]).toMatchObject({ kind: "error", title: failure });
    expect(logins).toHaveLength(1);
    // Each attempt needs its own check.
    expect(await page.getAttribute("[data-testid=captcha-handle]", "aria-valuenow")).toBe("0");
    await screenshot(page, "login-refused");
    expect(ownErrors(page).filter((e) => !/status of 401/.test(e))).toEqual([]);
  });

  it("a tenant admin's first login: terms of use, then privacy consent, then the dashboard", async () => {
    await page.goto(`${t.url}/#/login`);
    await fillLogin(page, free.emails.admin, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await waitRoute(page, "/terms-of-use");
    await page.waitForSelector("[data-testid=terms]");
    expect(await page.isDisabled("[data-testid=terms-accept]")).toBe(true);
    await screenshot(page, "terms-of-use");
    await page.check("[data-testid=terms-agree]");
    await page.click("[data-testid=terms-accept]");
    await waitRoute(page, "/lgpd-consent");
    await page.waitForSelector("[data-testid=consent]");
    await screenshot(page, "lgpd-consent");
    await page.click("[data-testid=consent-accept]");
    await waitRoute(page, "/home");
    await page.waitForSelector("[data-testid=main-layout]");
    await page.waitForSelector("[data-testid=kpi-open]");

    const admin = await t.api.login(free.emails.admin);
    expect((await t.api.get(`/tenants/${free.tenantId}`, admin)).body).toMatchObject({ termsAccepted: true });
    expect((await t.api.get(`/users/${admin.userId}`, admin)).body).toMatchObject({ lgpdAccepted: true });
    // Answered once: the next login goes straight in.
    const again = await newPage(browser);
    try {
      await again.goto(`${t.url}/#/login`);
      await fillLogin(again, free.emails.admin, PASSWORD);
      await again.click("[data-testid=login-submit]");
      await waitRoute(again, "/home");
    } finally {
      await again.context().close();
    }
    expect(ownErrors(page)).toEqual([]);
  });

  it("a paid system accepts the terms by itself; the page asked for before login opens after it", async () => {
    await page.goto(`${t.url}/#/contatos`);
    await waitRoute(page, "/login");
    expect(new URL(page.url()).hash).toBe("#/login?redirect=%2Fcontatos");
    await fillLogin(page, paid.emails.admin, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await waitRoute(page, "/lgpd-consent");
    await page.click("[data-testid=consent-accept]");
    await waitRoute(page, "/contatos");
    const admin = await t.api.login(paid.emails.admin);
    expect((await t.api.get(`/tenants/${paid.tenantId}`, admin)).body.termsAccepted).toBe(true);
  });

  it("refusing the consent deactivates the account and ends its session; reactivated by an admin, it is asked again", async () => {
    await page.goto(`${t.url}/#/login`);
    await fillLogin(page, paid.emails.supervisor, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await waitRoute(page, "/lgpd-consent");
    const token = (await page.evaluate(() => localStorage.getItem("token")))!;
    const sessionId = (await page.evaluate(() => localStorage.getItem("sessionId")))!;
    await page.click("[data-testid=consent-reject]");
    await page.click("[data-testid=consent-reject-confirm]");
    await waitRoute(page, "/login");
    await page.waitForSelector("[data-testid=login-form]");
    expect((await notices(page)).some((n) => n.title === "Consentimento recusado")).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem("token"))).toBeNull();
    // The core ended that session and deactivated the account (spec §4).
    expect((await t.api.get("/auth/me", { token, sessionId, userId: 0, tenantId: 0 })).status).toBe(401);
    const admin = await t.api.login(paid.emails.admin);
    const users = (await t.api.get(`/users?searchParam=${encodeURIComponent(paid.emails.supervisor)}`, admin)).body;
    const sup = users.users.find((u: { email: string }) => u.email === paid.emails.supervisor);
    expect(sup).toMatchObject({ active: false });

    // Its next login is refused with the catalogue's words.
    await fillLogin(page, paid.emails.supervisor, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await page.waitForSelector("[data-testid=form-failure]");
    expect(await page.textContent("[data-testid=form-failure] strong")).toBe("Usuário inativo");
    expect(route(page)).toBe("/login");

    // An admin reactivates it: the consent is asked again.
    expect((await t.api.put(`/users/${sup.id}`, { active: true }, admin)).status).toBe(200);
    await fillLogin(page, paid.emails.supervisor, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await waitRoute(page, "/lgpd-consent");
  });

  it("when the main area's code does not arrive, says so and reloads on the next move", async () => {
    // Terms and consent answered: after login the admin goes straight to /home.
    const admin = await t.api.login(paid.emails.admin);
    expect((await t.api.put(`/tenants/${paid.tenantId}/terms-acceptance`, { accepted: true }, admin)).status).toBe(200);
    expect((await t.api.put(`/users/${admin.userId}/lgpd-consent`, { accepted: true }, admin)).status).toBe(200);
    await page.goto(`${t.url}/#/login`);
    await page.waitForSelector("[data-testid=login-form]");
    await page.route("**/static/js/async/**", (r) => r.abort());
    await fillLogin(page, paid.emails.admin, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await page.waitForFunction(() => (window as any).__openatende.ui.history.some((n: any) => n.title === "Falha ao carregar a página"));
    expect(await page.locator("[data-testid=main-layout]").count()).toBe(0);
    await page.unroute("**/static/js/async/**");
    await page.evaluate(() => (window.location.hash = "#/contatos"));
    await page.waitForSelector("[data-testid=main-layout]");
    await waitRoute(page, "/contatos");
  });

  it("logs in with a phone number too", async () => {
    const phone = `55119${uid().replace(/\D/g, "").padEnd(8, "7").slice(0, 8)}`;
    // The admin logged in in the browser above (one session per user): a fresh API session.
    expect((await t.api.put(`/users/${paid.agent.userId}`, { phoneNumber: phone }, await t.api.login(paid.emails.admin))).status).toBe(200);
    await page.goto(`${t.url}/#/login`);
    await fillLogin(page, `+${phone.slice(0, 2)} (${phone.slice(2, 4)}) ${phone.slice(4, 9)}-${phone.slice(9)}`, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await waitRoute(page, "/lgpd-consent");
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem("userId") ?? "0"))).toBe(paid.agent.userId);
  });

  it("speaks the browser's language, and the one chosen on the page after a reload", async () => {
    const es = await newPage(browser, { locale: "es-ES" });
    try {
      await es.goto(`${t.url}/#/login`);
      await es.waitForSelector("[data-testid=login-form]");
      expect(await es.textContent("h1")).toBe("Iniciar sesión");
    } finally {
      await es.context().close();
    }
    await page.goto(`${t.url}/#/login`);
    expect(await page.textContent("h1")).toBe("Entrar");
    await page.selectOption("[data-testid=language-select]", "ru");
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Вход");
    expect(await page.getAttribute("html", "lang")).toBe("ru");
    await screenshot(page, "login-ru");
    await page.reload();
    await page.waitForSelector("[data-testid=login-form]");
    expect(await page.textContent("h1")).toBe("Вход");
    await page.selectOption("[data-testid=language-select]", "en");
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Sign in");
  });

  it("the language a user saved in the main area comes back with their login", async () => {
    const sup = await t.api.login(free.emails.agent);
    expect((await t.api.put(`/users/${sup.userId}/configs`, { language: "es" }, sup)).status).toBe(200);
    await page.goto(`${t.url}/#/login`);
    expect(await page.textContent("h1")).toBe("Entrar");
    await fillLogin(page, free.emails.agent, PASSWORD);
    await page.click("[data-testid=login-submit]");
    await waitRoute(page, "/lgpd-consent");
    await page.waitForFunction(() => document.querySelector("h1")?.textContent === "Privacidad y protección de datos");
    expect(await page.evaluate(() => localStorage.getItem("user-locale"))).toBe("es");
  });

  it("forgot password: the e-mailed link opens the reset page, which sets the new password", async () => {
    const email = free.emails.supervisor;
    await page.goto(`${t.url}/#/login`);
    await page.fill("#login-identifier", email);
    await page.click("[data-testid=forgot-link]");
    await page.waitForSelector("[data-testid=forgot-form]");
    expect(await page.inputValue("#forgot-email")).toBe(email);
    const before = mails.length;
    await page.click("[data-testid=forgot-form] button[type=submit]");
    await page.waitForSelector("[data-testid=forgot-sent]");
    expect(mails.length).toBe(before + 1);
    const text = mails[mails.length - 1].replace(/=\r?\n/g, "").replace(/=3D/g, "=");
    const token = decodeURIComponent(/#\/redefining\?token=([A-Za-z0-9_%-]+)/.exec(text)![1]);

    await page.goto(`${t.url}/#/redefining?token=${encodeURIComponent(token)}`);
    await page.waitForSelector("[data-testid=reset-form]");
    await page.fill("#reset-password", "fraca");
    expect(await page.locator(".oa-rules li[data-ok=true]").count()).toBe(2); // lower case, letters and digits only
    await page.click("[data-testid=reset-submit]");
    expect(await page.textContent("#reset-password-error")).toBe("A senha ainda não atende a todas as regras.");
    await page.fill("#reset-password", "NovaSenha42");
    expect(await page.locator(".oa-rules li[data-ok=true]").count()).toBe(5);
    await page.fill("#reset-confirm", "NovaSenha43");
    await page.click("[data-testid=reset-submit]");
    expect(await page.textContent("#reset-confirm-error")).toBe("As senhas não conferem.");
    await screenshot(page, "reset-password");
    await page.fill("#reset-confirm", "NovaSenha42");
    await page.click("[data-testid=reset-submit]");
    await waitRoute(page, "/login");
    expect((await notices(page)).some((n) => n.kind === "success" && n.title === "Senha alterada")).toBe(true);
    expect((await t.api.post("/auth/login", { email, password: "NovaSenha42" })).status).toBe(200);

    // The link works once.
    await page.goto(`${t.url}/#/redefining?token=${encodeURIComponent(token)}`);
    await page.reload();
    await page.fill("#reset-password", "OutraSenha42");
    await page.fill("#reset-confirm", "OutraSenha42");
    await page.click("[data-testid=reset-submit]");
    await page.waitForSelector("[data-testid=form-failure]");
    expect(route(page)).toBe("/redefining");
  });

  it("a reset link without its token says so and leads to a new one", async () => {
    await page.goto(`${t.url}/#/redefining`);
    await page.waitForSelector("[data-testid=reset-invalid]");
    await page.click("[data-testid=reset-invalid] button");
    await page.waitForSelector("[data-testid=forgot-form]");
    expect(ownErrors(page)).toEqual([]);
  });
});
