/**
 * Bundle budget: opening /login without a session loads at most 200 kB of gzipped
 * JavaScript (every script the page fetched until the network is idle, gzipped here as a
 * server would send it). The public pages render without the UI kit, the router and the
 * socket, and in the browser's language only; those arrive after login.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { createTenant, startCore, TestCore, TenantFixture } from "@openatende/core/testkit";
import { ARTIFACTS, launchBrowser, newPage, screenshot, sessionLogin } from "./browser";

export const LOGIN_BUDGET_BYTES = 200 * 1024;

/** Text only these chunks carry: the UI kit (and its icons), react-router, socket.io-client. */
const MARKERS: Record<string, RegExp> = {
  antd: /anticon/,
  router: /flushSync` option to a router update/,
  socket: /Socket\.IO server in v2\.x/,
};

async function openPublic(t: TestCore, browser: Browser, route: string, locale = "pt-BR") {
  const page = await newPage(browser, { locale });
  const scripts = new Map<string, Buffer>();
  const pending: Array<Promise<void>> = [];
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));
  page.on("response", (r) => {
    if (r.request().resourceType() !== "script") return;
    pending.push(
      r.body().then(
        (b) => void scripts.set(r.url(), b),
        () => undefined,
      ),
    );
  });
  await page.goto(`${t.url}/#${route}`);
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);
  const files = [...scripts].map(([url, body]) => ({ file: url.replace(t.url, ""), bytes: body.length, gzip: gzipSync(body).length, text: body.toString("utf8") }));
  return { page, files, requests, total: files.reduce((s, f) => s + f.gzip, 0) };
}

describe("bundle budget of the public pages", () => {
  let t: TestCore;
  let f: TenantFixture;
  let browser: Browser;

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it(`/login loads at most ${LOGIN_BUDGET_BYTES / 1024} kB of gzipped JavaScript, without the UI kit, the router or the socket`, async () => {
    const { page, files, requests, total } = await openPublic(t, browser, "/login");
    try {
      await page.waitForSelector("[data-testid=login-form]");
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      fs.writeFileSync(
        path.join(ARTIFACTS, "../bundle-login.json"),
        JSON.stringify({ totalGzip: total, budget: LOGIN_BUDGET_BYTES, files: files.map(({ file, bytes, gzip }) => ({ file, bytes, gzip })) }, null, 2),
      );
      expect(files.length).toBeGreaterThan(3);
      expect(total).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
      const carried = Object.entries(MARKERS)
        .filter(([, re]) => files.some((f) => re.test(f.text)))
        .map(([name]) => name);
      expect(carried).toEqual([]);
      expect(requests.filter((u) => u.includes("/socket.io"))).toEqual([]);
      // One language's texts: the browser's.
      expect(files.filter((f) => /texts-/.test(f.file)).map((f) => f.file.replace(/^.*(texts-[^.]+).*$/, "$1"))).toEqual(["texts-pt-BR"]);
      expect(await page.locator(".ant-btn, .anticon").count()).toBe(0);
      await screenshot(page, "login-budget");
      expect(page.errors).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it("the markers do find the UI kit, the router and the socket once the main area loads", async () => {
    // Guards the test above against markers that match nothing: after login they must show up.
    const page = await newPage(browser);
    const seen = new Map<string, Buffer>();
    const pending: Array<Promise<void>> = [];
    page.on("response", (r) => {
      if (r.request().resourceType() === "script") pending.push(r.body().then((b) => void seen.set(r.url(), b), () => undefined));
    });
    try {
      await sessionLogin(page, t.url, f.emails.agent, "/home");
      await page.waitForSelector("[data-testid=main-layout]");
      await page.waitForLoadState("networkidle");
      await Promise.all(pending);
      const texts = [...seen.values()].map((b) => b.toString("utf8"));
      expect(Object.entries(MARKERS).filter(([, re]) => texts.some((x) => re.test(x))).map(([n]) => n)).toEqual(["antd", "router", "socket"]);
    } finally {
      await page.context().close();
    }
  });
});
