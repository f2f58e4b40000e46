/**
 * Browser-test helpers for the shell: Debian's Chromium through playwright-core (never a
 * downloaded browser), a login that stores the session the way the shell does, and
 * screenshots kept under artifacts/screenshots (CI keeps them).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { PASSWORD, type TenantFixture, type TestCore } from "@openatende/core/testkit";

export const CHROMIUM = "/usr/bin/chromium";
export const ARTIFACTS = path.resolve(__dirname, "../../artifacts/screenshots");
export const SHELL_DIST = path.resolve(__dirname, "../dist/index.html");

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  if (!fs.existsSync(SHELL_DIST)) throw new Error("shell/dist is missing: run `npm run build` (npm test does)");
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** A page that records its errors (uncaught exceptions and console errors) in `errors`. */
export async function newPage(browser: Browser, opts: { locale?: string; viewport?: { width: number; height: number } } = {}): Promise<Page & { errors: string[] }> {
  const ctx = await browser.newContext({ locale: opts.locale ?? "pt-BR", viewport: opts.viewport ?? { width: 1366, height: 820 } });
  const page = (await ctx.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  return page;
}

/**
 * Logs in through the API and stores the session in the page's localStorage with the keys
 * the shell uses (spec §3), then opens `route`. Use the login form itself where the form is
 * under test. One session per user: this ends any earlier session of the same user.
 */
export async function sessionLogin(page: Page, baseUrl: string, email: string, route = "/home", password = PASSWORD): Promise<any> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as any;
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  await page.goto(`${baseUrl}/#/login`);
  await page.evaluate((r: any) => {
    const put = (k: string, v: unknown) => localStorage.setItem(k, typeof v === "string" ? v : JSON.stringify(v));
    put("token", r.token);
    if (r.refreshToken) put("refreshToken", r.refreshToken);
    put("sessionId", r.sessionId);
    put("userId", r.userId);
    put("profile", r.profile);
    put("tenantId", r.tenantId);
    put("isMaster", r.isMaster);
    put("username", r.username);
    put("usuario", r.user);
    put("queues", r.queues);
    put("image", r.image);
    put("tenant", r.tenant);
  }, body);
  await page.goto(`${baseUrl}/#${route}`);
  await page.reload();
  return body;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

/** The notices the shell showed (the UiStore's history), newest last. */
export async function notices(page: Page): Promise<Array<{ kind: string; title: string; detail?: string; banner?: boolean }>> {
  return page.evaluate(() => (window as any).__openatende?.ui.history.map((n: any) => ({ ...n })) ?? []);
}

/**
 * The admin accepts the terms of use for the tenant and their own privacy consent through the
 * API, so a browser session opens the page asked for instead of those steps (spec §4).
 */
export async function acceptTerms(tc: TestCore, fx: TenantFixture) {
  expect((await tc.api.put(`/tenants/${fx.tenantId}/terms-acceptance`, { accepted: true }, fx.admin)).status).toBe(200);
  expect((await tc.api.put(`/users/${fx.admin.userId}/lgpd-consent`, { accepted: true }, fx.admin)).status).toBe(200);
}

/** Polls `read` until `ok` (playwright-core has no auto-waiting assertions). */
export async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 10_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** A screenshot once drawers, modals and notices have finished moving. */
export async function shot(page: Page, name: string) {
  await settled(page);
  await screenshot(page, name);
}

/**
 * Waits two frames (a render the last action caused has begun its transitions), then until
 * none of the page's finite animations and CSS transitions is running, for at most `maxMs`
 * (450 ms, the fixed wait every screenshot used to take; most pages are still well before).
 * Endless ones (spinners) are not waited for.
 */
export async function settled(page: Page, maxMs = 450): Promise<void> {
  await page.evaluate(async (max: number) => {
    const end = performance.now() + max;
    // A frame, or 50 ms where frames are not drawn.
    const frame = () => new Promise<void>((r) => (requestAnimationFrame(() => r()), setTimeout(r, 50)));
    await frame();
    await frame();
    const moving = () =>
      document.getAnimations().some((a) => a.playState === "running" && Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)));
    while (moving() && performance.now() < end) await frame();
  }, maxMs);
}
/**
 * The page's errors that are this screen's: a call refused on purpose is logged by Chromium as
 * "Failed to load resource", and plugin remotes not built in this checkout are the loader's concern.
 */
export function screenErrors(page: { errors: string[] }): string[] {
  return page.errors.filter((e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e) && !/\/api\/plugins\/[^/]+\/remote\//.test(e));
}
export const waitCount = (loc: Locator, n: number, timeout?: number) => poll(() => loc.count(), (c) => c === n, `${loc} ×${n}`, timeout);
export const waitText = (loc: Locator, s: string, timeout?: number) =>
  poll(() => loc.first().innerText({ timeout: 1000 }).catch(() => ""), (v) => v.includes(s), `${loc} to contain "${s}"`, timeout);
export const waitAttr = (loc: Locator, name: string, value: string, timeout?: number) =>
  poll(() => loc.first().getAttribute(name, { timeout: 1000 }).catch(() => null), (v) => v === value, `${loc} [${name}=${value}]`, timeout);
/**
 * Scrolls an element into view for a screenshot, again if a live update re-rendered it between
 * finding it and scrolling (Playwright refuses a detached element rather than finding it anew).
 */
export const scrollTo = (loc: Locator, timeout?: number) =>
  poll(() => loc.first().scrollIntoViewIfNeeded({ timeout: 1000 }).then(() => true, () => false), (ok) => ok, `${loc} to scroll into view`, timeout);
