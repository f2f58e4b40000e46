/**
 * Debian's Chromium through playwright-core (never a downloaded browser), and a login that
 * stores the session the way the shell does (the same steps as shell/test/browser.ts, kept
 * here so this package's type-check needs no DOM library).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { PASSWORD } from "@openatende/core/testkit";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.resolve(__dirname, "../../../../artifacts/screenshots");
const REMOTE = path.resolve(__dirname, "../../dist/ui/remoteEntry.js");
const SHELL = path.resolve(__dirname, "../../../../shell/dist/index.html");

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  if (!fs.existsSync(SHELL) || !fs.existsSync(REMOTE)) throw new Error("the shell or this plugin's UI is not built: run `node scripts/build-ui.cjs` (npm test does)");
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"] });
}

/** A page that records its uncaught exceptions and console errors in `errors`. */
export async function newPage(browser: Browser, locale = "pt-BR"): Promise<Page & { errors: string[] }> {
  const ctx = await browser.newContext({ locale, viewport: { width: 1366, height: 900 } });
  const page = (await ctx.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  return page;
}

/** Logs in through the API, stores the session where the shell keeps it, and opens `route`. */
export async function sessionLogin(page: Page, baseUrl: string, email: string, route: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  await page.goto(`${baseUrl}/#/login`);
  const keys = ["token", "refreshToken", "sessionId", "userId", "profile", "tenantId", "isMaster", "username", "usuario", "queues", "image", "tenant"];
  const stored = Object.fromEntries(keys.map((k) => [k, k === "usuario" ? body.user : body[k]]).filter(([, v]) => v !== undefined));
  await page.evaluate((entries: Record<string, unknown>) => {
    // The page's own localStorage (this callback runs in the browser).
    const ls = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage;
    for (const [k, v] of Object.entries(entries)) ls.setItem(k, typeof v === "string" ? v : JSON.stringify(v));
  }, stored);
  await page.goto(`${baseUrl}/#${route}`);
  await page.reload();
}

export async function poll<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string, timeout = 15_000): Promise<T> {
  const end = Date.now() + timeout;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const waitText = (loc: Locator, s: string, timeout?: number) => poll(() => loc.first().innerText({ timeout: 1000 }).catch(() => ""), (v) => v.includes(s), `${loc} to contain "${s}"`, timeout);
export const waitValue = (loc: Locator, s: string, timeout?: number) => poll(() => loc.first().inputValue({ timeout: 1000 }).catch(() => null), (v) => v === s, `${loc} to hold "${s}"`, timeout);

/** A screenshot once drawers and notices have finished moving. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/** The page's errors that are this screen's (a call refused on purpose is logged by Chromium as a failed resource). */
export const screenErrors = (page: { errors: string[] }) => page.errors.filter((e) => !/Failed to load resource: the server responded with a status of 4\d\d/.test(e) && !/\/api\/plugins\/[^/]+\/remote\//.test(e));
