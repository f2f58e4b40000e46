/**
 * plugin-sdk dev, through the real bin: the scaffold's connect form served alone against the
 * stub shell runtime, driven in Debian's Chromium (playwright-core, never a downloaded browser).
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { freePort, runCli, startCli, tempDir } from "./testing";
import { REPO_ROOT } from "./workspace";

jest.setTimeout(180_000);

const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = path.join(REPO_ROOT, "artifacts/screenshots");

describe("plugin-sdk dev", () => {
  let tmp: string;
  let plugin: string;
  let browser: Browser;

  beforeAll(async () => {
    tmp = tempDir("dev");
    const created = await runCli(["create", "channel-acme", "--kind", "channel", "--dir", tmp, "--name", "Acme"]);
    expect(created.code).toBe(0);
    plugin = path.join(tmp, "channel-acme");
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"] });
  });
  afterAll(async () => {
    await browser?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("serves the connect form with its fields; submitting empty shows the validation errors, in the chosen language; then it stops on SIGTERM", async () => {
    const port = await freePort();
    const dev = await startCli(["dev", plugin, "--port", String(port)], /UI on (http:\/\/\S+\/) \(Ctrl\+C to stop\)/);
    const url = dev.match[1];
    expect(url).toBe(`http://127.0.0.1:${port}/`);
    let page: Page | undefined;
    try {
      page = await browser.newPage({ viewport: { width: 1280, height: 820 }, locale: "pt-BR" });
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`console: ${m.text()}`);
      });
      await page.goto(url);

      const form = page.getByTestId("channel-acme-connect-form");
      await form.getByLabel("URL de envio").waitFor({ timeout: 60_000 });
      await expect(form.getByLabel("URL de envio").isVisible()).resolves.toBe(true);
      await expect(form.getByLabel("Segredo do webhook").isVisible()).resolves.toBe(true);

      await page.getByTestId("dev-submit").click();
      await expect(page.getByTestId("dev-form-errors").innerText()).resolves.toBe("outboundUrl Campo obrigatório\nsecret Campo obrigatório");
      // The form shows them under its fields, as the shell would.
      await form.getByText("Campo obrigatório").nth(1).waitFor();
      await page.waitForTimeout(400); // antd's help-text motion
      await page.screenshot({ path: path.join(ARTIFACTS, "plugin-sdk-dev-connect-form-errors.png") });

      await page.getByTestId("dev-locale").getByText("en", { exact: true }).click();
      await form.getByLabel("Outbound URL").waitFor();
      await expect(page.getByTestId("dev-form-errors").innerText()).resolves.toBe("outboundUrl Required field\nsecret Required field");

      await form.getByLabel("Outbound URL").fill("ftp://example.com");
      await form.getByLabel("Webhook secret").fill("short");
      await page.getByTestId("dev-submit").click();
      await expect(page.getByTestId("dev-form-errors").innerText()).resolves.toBe("outboundUrl Enter a valid http(s) address\nsecret At least 8 characters");

      await form.getByLabel("Outbound URL").fill("https://provider.example/hook");
      await form.getByLabel("Webhook secret").fill("a-long-enough-secret");
      await page.getByTestId("dev-saved-connection").click();
      await page.getByTestId("dev-submit").click();
      await expect(page.getByTestId("dev-form-values").innerText().then((t) => JSON.parse(t))).resolves.toEqual({ outboundUrl: "https://provider.example/hook", secret: "a-long-enough-secret" });
      await expect(page.getByTestId("channel-acme-inbound-url").innerText()).resolves.toBe(`http://127.0.0.1:${port}/api/acme/dev-token-0123456789abcdef/messages`);

      // The stub runtime's api answers from its table and logs each call; notices show as antd messages.
      const calls = await page.evaluate(async () => {
        const { runtime } = (globalThis as any).__pluginSdkDev;
        const made = await runtime.api.post("/connections", { name: "Acme 1", type: "acme" }, { successNotice: true });
        const list = await runtime.api.get("/connections");
        const missing = await runtime.api.get("/nowhere", { silent: true }).catch((e: any) => ({ status: e.status, code: e.code }));
        return { made, list, missing };
      });
      expect(calls).toEqual({ made: { id: 1, name: "Acme 1", type: "acme" }, list: [{ id: 1, name: "Acme 1", type: "acme" }], missing: { status: 404, code: "ERR_ROUTE_NOT_FOUND" } });
      await page.getByText("All good...").first().waitFor();
      await page.getByText("API calls (3)").waitFor();
      await page.waitForTimeout(400);
      await page.screenshot({ path: path.join(ARTIFACTS, "plugin-sdk-dev-connect-form-valid.png"), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page?.close();
      const exited = new Promise<number | null>((resolve) => dev.child.on("exit", (code) => resolve(code)));
      dev.child.kill("SIGTERM");
      await expect(exited).resolves.toBe(0);
    }
    expect(dev.output()).toContain("plugin-sdk dev: SIGTERM, stopping");
  });

  it("fails with exit 1 when the port is taken", async () => {
    const blocker = net.createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as net.AddressInfo).port)));
    try {
      const r = await runCli(["dev", plugin, "--port", String(port)], { timeoutMs: 60_000 });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^plugin-sdk dev: the dev server did not start: .*port/im);
    } finally {
      blocker.close();
    }
  });
});
