/**
 * `npm run bench:ui`: the shell's budget figures from the built output, in Chromium, as JSON.
 *
 * 1. /login without a session: every script the page fetched until the network was idle,
 *    gzipped as a server would send it (budget: 200 kB).
 * 2. /atendimento with 1,000 tickets in the list (seeded through the channels' inbound path):
 *    time to the first row, rows in the page (the list is virtualised), and while the list is
 *    scrolled to its end: frame intervals, long tasks (> 50 ms) and the time to reach the
 *    oldest ticket (pages load as the end comes into view).
 *
 * Flags: --tickets <n> (default 1000). Needs `npm run build` first.
 */
import { gzipSync } from "node:zlib";
import { api, benchArg, createBenchTenant, login, startBenchCore, summarise, tag } from "../../core/bench/common";
import { launchBrowser } from "../test/browser";

const TICKETS = benchArg("tickets", 1000);
const LOGIN_BUDGET = 200 * 1024;

async function main() {
  const b = await startBenchCore();
  const browser = await launchBrowser();
  try {
    const t = await createBenchTenant(b, { name: `UI ${tag()}`, queues: 2, users: 4, tier: "PLUS" });
    const admin = await login(b.url, t.users[0].email);
    const conn = await api<{ id: number }>(b.url, "POST", "/connections", { name: "Site", type: "channel-webchat", queueId: t.queueIds[0], settings: {} }, admin);
    await api(b.url, "POST", `/connections/${conn.body.id}/connect`, {}, admin);
    const base = Date.now() - TICKETS * 60_000;
    for (let i = 0; i < TICKETS; i += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, TICKETS - i) }, (_, k) =>
          b.core.broker.call("channels.inbound", {
            tenantId: t.tenantId,
            connectionId: conn.body.id,
            providerMessageId: `ui-${i + k}`,
            timestamp: base + (i + k) * 60_000,
            from: { externalId: `v-${i + k}`, name: `Visitante ${String(i + k).padStart(4, "0")}` },
            body: `Mensagem ${i + k}`,
          }),
        ),
      );
    }

    // 1. /login
    const ctx1 = await browser.newContext({ locale: "pt-BR" });
    const p1 = await ctx1.newPage();
    const scripts: Array<{ file: string; gzip: number; bytes: number }> = [];
    const pending: Array<Promise<void>> = [];
    p1.on("response", (r) => {
      if (r.request().resourceType() !== "script") return;
      pending.push(r.body().then((body) => void scripts.push({ file: r.url().replace(b.url, ""), bytes: body.length, gzip: gzipSync(body).length }), () => undefined));
    });
    await p1.goto(`${b.url}/#/login`);
    await p1.waitForLoadState("networkidle");
    await Promise.all(pending);
    await ctx1.close();
    const loginGzip = scripts.reduce((s, f) => s + f.gzip, 0);

    // 2. /atendimento with the tickets
    const r = await fetch(`${b.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: t.users[0].email, password: "Secret123" }) });
    const session = (await r.json()) as any;
    await api(b.url, "PUT", `/users/${session.userId}/lgpd-consent`, { accepted: true }, { token: session.token, sessionId: session.sessionId } as any);
    await api(b.url, "PUT", `/tenants/${t.tenantId}/terms-acceptance`, { accepted: true }, { token: session.token, sessionId: session.sessionId } as any);
    const ctx2 = await browser.newContext({ locale: "pt-BR", viewport: { width: 1366, height: 820 } });
    // tsx names the functions handed to page.evaluate with a helper the page lacks.
    await ctx2.addInitScript({ content: "globalThis.__name = globalThis.__name || ((f) => f);" });
    const page = await ctx2.newPage();
    await page.goto(`${b.url}/#/login`);
    await page.evaluate((s: any) => {
      const put = (k: string, v: unknown) => localStorage.setItem(k, typeof v === "string" ? v : JSON.stringify(v));
      for (const k of ["token", "refreshToken", "sessionId", "userId", "profile", "tenantId", "isMaster", "username", "queues", "image", "tenant"]) if (s[k] !== undefined) put(k, s[k]);
      put("usuario", { ...s.user, lgpdAccepted: true });
      put("tenant", { ...s.tenant, termsAccepted: true });
    }, session);
    const t0 = Date.now();
    await page.goto(`${b.url}/#/atendimento`);
    await page.reload();
    await page.waitForSelector("[data-testid=ticket-row]", { timeout: 60_000 });
    const firstRowMs = Date.now() - t0;
    const rowsAtStart = await page.locator("[data-testid=ticket-row]").count();

    await page.evaluate(() => {
      const w = window as any;
      w.__longTasks = [];
      w.__frames = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks.push(e.duration);
      }).observe({ type: "longtask", buffered: false });
      let last = performance.now();
      const tick = (now: number) => {
        w.__frames.push(now - last);
        last = now;
        if (!w.__stopFrames) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const oldest = `Visitante ${String(0).padStart(4, "0")}`;
    const s0 = Date.now();
    let maxRows = rowsAtStart;
    for (let i = 0; i < 400; i++) {
      const done = await page.evaluate((name) => {
        const el = document.querySelector("[data-testid=ticket-list]") as HTMLElement;
        el.scrollTop += 900;
        return [...document.querySelectorAll("[data-testid=ticket-row]")].some((r) => r.textContent?.includes(name));
      }, oldest);
      maxRows = Math.max(maxRows, await page.locator("[data-testid=ticket-row]").count());
      if (done) break;
      await page.waitForTimeout(30);
    }
    const reachedOldestMs = Date.now() - s0;
    const reached = (await page.locator("[data-testid=ticket-row]").filter({ hasText: oldest }).count()) > 0;
    const perf = await page.evaluate(() => {
      const w = window as any;
      w.__stopFrames = true;
      return { longTasks: w.__longTasks as number[], frames: (w.__frames as number[]).slice(1) };
    });
    await ctx2.close();

    const frames = summarise([...perf.frames].sort((a, b2) => a - b2));
    console.log(
      JSON.stringify(
        {
          login: {
            scripts: scripts.length,
            gzipBytes: loginGzip,
            gzipKB: +(loginGzip / 1024).toFixed(1),
            budgetKB: LOGIN_BUDGET / 1024,
            meets: loginGzip <= LOGIN_BUDGET,
            files: scripts.sort((a, c) => c.gzip - a.gzip).map((f) => ({ file: f.file, gzipKB: +(f.gzip / 1024).toFixed(1) })),
          },
          attendance: {
            tickets: TICKETS,
            firstRowMs,
            rowsInPageAtStart: rowsAtStart,
            maxRowsInPageWhileScrolling: maxRows,
            reachedOldestTicket: reached,
            scrollToOldestMs: reachedOldestMs,
            frameIntervalMs: { p50: +frames.p50.toFixed(1), p95: +frames.p95.toFixed(1), max: +frames.max.toFixed(1), n: frames.n },
            longTasks: { count: perf.longTasks.length, maxMs: perf.longTasks.length ? Math.round(Math.max(...perf.longTasks)) : 0 },
          },
        },
        null,
        2,
      ),
    );
  } finally {
    await browser.close();
    await b.stop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
