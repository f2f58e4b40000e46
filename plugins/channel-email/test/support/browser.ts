/**
 * Debian's Chromium through playwright-core (never a downloaded browser), and a login that
 * stores the session the way the shell does (the same steps as shell/test/browser.ts, kept
 * here so this package's type-check needs no DOM library).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { PASSWORD } from "@openatende/core/testkit";

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.resolve(__dirname, "../../../../artifacts/screenshots");
const REMOTE = path.resolve(__dirname, "../../dist/ui/remoteEntry.js");
const SHELL = path.resolve(__dirname, "../../../../shell/dist/index.html");

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (.ci/run does)`);
  if (!fs.existsSync(SHELL) || !fs.existsSync(REMOTE)) throw new Error("the shell or this plugin's UI is not built: run `node scripts/build-ui.cjs` (npm test does)");
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** A page that records its uncaught exceptions and console errors in `errors`. */
export async function newPage(browser: Browser, locale = "pt-BR"): Promise<Page & { errors: string[] }> {
  const ctx = await browser.newContext({ locale, viewport: { width: 1366, height: 820 } });
  const page = (await ctx.newPage()) as Page & { errors: string[] };
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") page.errors.push(`console: ${m.text()}`);
  });
  return page;
}

/** Logs in through the API, stores the session under the shell's localStorage keys, opens `route`. */
export async function sessionLogin(page: Page, baseUrl: string, email: string, route: string, password = PASSWORD): Promise<void> {
  const res = await fetch(`${baseUrl}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(body)}`);
  await page.goto(`${baseUrl}/#/login`);
  await page.evaluate((r: Record<string, unknown>) => {
    const storage = (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage;
    const put = (k: string, v: unknown) => storage.setItem(k, typeof v === "string" ? v : JSON.stringify(v));
    put("token", r.token);
    if (r.refreshToken) put("refreshToken", r.refreshToken);
    for (const k of ["sessionId", "userId", "profile", "tenantId", "isMaster", "username", "queues", "image", "tenant"]) put(k, r[k]);
    put("usuario", r.user);
  }, body);
  await page.goto(`${baseUrl}/#${route}`);
  await page.reload();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
}
