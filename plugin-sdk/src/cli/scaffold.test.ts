/**
 * plugin-sdk create → validate → test, through the real bin in a temp folder: the scaffold is
 * a working channel plugin (the conformance kit passes), and validate names what is broken.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { validateManifest } from "../manifest";
import { copyDir, editJson, runCli, tempDir } from "./testing";
import { REPO_NODE_MODULES, REPO_ROOT } from "./workspace";

jest.setTimeout(180_000);

describe("plugin-sdk create, validate and test", () => {
  let tmp: string;
  let plugin: string;

  beforeAll(() => {
    tmp = tempDir("scaffold");
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("answers --help for itself and every command, and refuses a bad command line with exit 2 and one line", async () => {
    const top = await runCli(["--help"]);
    expect(top.code).toBe(0);
    for (const cmd of ["create", "validate", "test", "dev", "pack", "publish"]) expect(top.stdout).toContain(`  ${cmd}`);
    for (const cmd of ["create", "validate", "test", "dev", "pack", "publish"]) {
      const r = await runCli([cmd, "--help"]);
      expect([cmd, r.code, r.stdout.startsWith(`Usage: plugin-sdk ${cmd}`)]).toEqual([cmd, 0, true]);
    }
    const bad: Array<[string[], RegExp]> = [
      [[], /^$/],
      [["frobnicate"], /unknown command "frobnicate"/],
      [["create", "channel-x"], /missing --kind \(supported kinds: channel, module\)/],
      [["create", "Channel_X", "--kind", "channel"], /the id "Channel_X" must be kebab-case/],
      [["create", "report-x", "--kind", "report"], /kind "report" cannot be scaffolded yet; supported kinds: channel, module/],
      [["create", "x", "--kind", "chanel"], /unknown kind "chanel"; supported kinds: channel, module/],
      [["create", "channel-x", "--kind", "channel", "--tier", "GOLD"], /unknown tier "GOLD"; tiers: FREE, BASIC, PLUS, PREMIUM/],
      [["create", "channel-x", "--kind", "channel", "--colour", "red"], /unknown option --colour/],
      [["validate", "a", "b"], /unexpected argument "b"/],
      [["dev", "--port", "http"], /--port must be a port number/],
      [["publish", "x.tgz"], /missing --registry/],
    ];
    for (const [args, message] of bad) {
      const r = await runCli(args, { cwd: tmp });
      expect([args, r.code]).toEqual([args, 2]);
      if (args.length) {
        expect(r.stderr).toMatch(message);
        expect(r.stderr.trim().split("\n")).toHaveLength(1);
      }
    }
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it("scaffolds a channel plugin that validate accepts and whose tests (the conformance kit) pass", async () => {
    const created = await runCli(["create", "channel-acme-hook", "--kind", "channel", "--dir", tmp, "--name", "Acme Hook", "--tier", "BASIC"]);
    expect(created.code).toBe(0);
    plugin = path.join(tmp, "channel-acme-hook");
    const files = created.stdout.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.trim());
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "src/service.ts",
        "src/ui/register.tsx",
        "src/ui/ConnectForm.tsx",
        "src/ui/texts.ts",
        "src/ui/validate.ts",
        "rsbuild.config.cjs",
        "test/conformance.test.ts",
        "README.md",
        "CHANGELOG.md",
        "tsconfig.json",
      ]),
    );
    for (const f of files) expect(fs.existsSync(path.join(plugin, f))).toBe(true);

    const pkg = JSON.parse(fs.readFileSync(path.join(plugin, "package.json"), "utf8"));
    const checked = validateManifest(pkg);
    expect(checked.ok && checked.manifest).toMatchObject({
      id: "channel-acme-hook",
      kind: "channel",
      tier: "BASIC",
      coreApi: "^1.0.0",
      displayName: { "pt-BR": "Acme Hook", en: "Acme Hook", es: "Acme Hook", ru: "Acme Hook" },
      ui: { remoteEntry: "remoteEntry.js", exposes: ["register"] },
      channel: { capabilities: ["text"] },
      settingsSchema: { outboundUrl: expect.objectContaining({ type: "string" }), secret: expect.objectContaining({ min: 8 }) },
    });
    const service = fs.readFileSync(path.join(plugin, "src/service.ts"), "utf8");
    expect(service).toContain('rest: "POST /acme-hook/:token/messages"');
    expect(service).toContain("export const acmeHookChannelPlugin = definePlugin(");
    const texts = fs.readFileSync(path.join(plugin, "src/ui/texts.ts"), "utf8");
    for (const locale of ['"pt-BR"', "en:", "es:", "ru:"]) expect(texts).toContain(locale);
    expect(fs.readFileSync(path.join(plugin, "src/ui/register.tsx"), "utf8")).toContain('type: "channel-acme-hook"');
    expect(fs.readFileSync(path.join(plugin, "test/conformance.test.ts"), "utf8")).toContain("runChannelConformance(");

    const valid = await runCli(["validate", plugin]);
    expect([valid.code, valid.stdout.trim(), valid.stderr]).toEqual([0, `channel-acme-hook@0.1.0: valid (${plugin})`, ""]);

    const tested = await runCli(["test", plugin]);
    const summary = `${tested.stdout}\n${tested.stderr}`;
    expect(tested.code).toBe(0);
    expect(summary).toMatch(/Test Suites: 2 passed, 2 total/);
    expect(summary).toMatch(/Tests: +21 passed, 21 total/);
    expect(summary).not.toMatch(/skipped/);
  });

  it("scaffolds a module plugin (own data, routes, error codes, realtime, core events, page and dashboard block) that validate accepts, whose tests pass and that type-checks", async () => {
    const created = await runCli(["create", "module-acme-board", "--kind", "module", "--dir", tmp, "--tier", "PLUS"]);
    expect(created.code).toBe(0);
    const mod = path.join(tmp, "module-acme-board");
    const files = created.stdout.split("\n").filter((l) => l.startsWith("  ")).map((l) => l.trim());
    expect(files).toEqual(
      expect.arrayContaining(["package.json", "migrations/0001-items.ts", "src/service.ts", "src/ui/register.tsx", "src/ui/Page.tsx", "src/ui/texts.ts", "test/conformance.test.ts", "test/items.test.ts", "README.md"]),
    );
    const checked = validateManifest(JSON.parse(fs.readFileSync(path.join(mod, "package.json"), "utf8")));
    expect(checked.ok && checked.manifest).toMatchObject({
      id: "module-acme-board",
      kind: "module",
      tier: "PLUS",
      displayName: { "pt-BR": "Acme Board" },
      ui: { exposes: ["register"], routes: ["acme-board"] },
      errors: { ERR_ACME_BOARD_ITEM_NOT_FOUND: { status: 404 } },
    });
    const service = fs.readFileSync(path.join(mod, "src/service.ts"), "utf8");
    expect(service).toContain('rest: "GET /acme-board/items"');
    expect(service).toContain("export const moduleAcmeBoardPlugin = definePlugin(");

    const valid = await runCli(["validate", mod]);
    expect([valid.code, valid.stderr]).toEqual([0, ""]);
    const tested = await runCli(["test", mod]);
    const summary = `${tested.stdout}\n${tested.stderr}`;
    expect(tested.code).toBe(0);
    expect(summary).toMatch(/Test Suites: 2 passed, 2 total/);
    expect(summary).toMatch(/Tests: +9 passed, 9 total/);

    const copy = copyDir(mod, path.join(tmp, "typecheck", "module-acme-board"));
    fs.symlinkSync(REPO_NODE_MODULES, path.join(copy, "node_modules"));
    const r = spawnSync(process.execPath, [path.join(REPO_NODE_MODULES, "typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: copy, encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`).toBe("");
  });

  it("refuses to create into an existing non-empty folder (exit 1), and creates into an empty one", async () => {
    const again = await runCli(["create", "channel-acme-hook", "--kind", "channel", "--dir", tmp]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(`plugin-sdk create: ${plugin} already exists and is not empty`);
    fs.mkdirSync(path.join(tmp, "empty", "channel-empty"), { recursive: true });
    const into = await runCli(["create", "channel-empty", "--kind", "channel"], { cwd: path.join(tmp, "empty") });
    expect(into.code).toBe(0);
    expect(fs.existsSync(path.join(tmp, "empty/channel-empty/src/service.ts"))).toBe(true);
  });

  it("the scaffold type-checks with its own tsconfig (server, UI and tests)", () => {
    const copy = copyDir(plugin, path.join(tmp, "typecheck", "channel-acme-hook"));
    fs.symlinkSync(REPO_NODE_MODULES, path.join(copy, "node_modules"));
    const r = spawnSync(process.execPath, [path.join(REPO_NODE_MODULES, "typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: copy, encoding: "utf8" });
    expect(`${r.stdout}${r.stderr}`).toBe("");
    expect(r.status).toBe(0);
  });

  it("validate names every problem: a broken manifest, an incompatible core API, a bad entry, a module the UI does not expose", async () => {
    const broken = copyDir(plugin, path.join(tmp, "broken", "channel-acme-hook"));
    editJson(path.join(broken, "package.json"), (p) => {
      p.platform.kind = "chanel";
      delete p.platform.displayName["pt-BR"];
    });
    const r1 = await runCli(["validate", broken]);
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain("  - manifest: platform.kind must be one of channel, campaign, ai, chatbot, report, module (got \"chanel\")");
    expect(r1.stderr).toContain('  - manifest: platform.displayName["pt-BR"] must be a non-empty string');
    // The entry's definePlugin() refuses the same manifest.
    expect(r1.stderr).toMatch(/ {2}- entry: service\.ts failed to load: Invalid plugin manifest/);

    const ui = copyDir(plugin, path.join(tmp, "ui", "channel-acme-hook"));
    editJson(path.join(ui, "package.json"), (p) => {
      p.platform.coreApi = "^2.0.0";
      p.platform.ui.exposes = ["register", "SettingsPanel"];
    });
    const r2 = await runCli(["validate", ui]);
    expect(r2.code).toBe(1);
    expect(r2.stderr.trim().split("\n")).toEqual([
      `channel-acme-hook@0.1.0: 2 problems in ${ui}`,
      '  - manifest: platform.coreApi "^2.0.0" does not accept this core API version 1.0.0',
      '  - ui: platform.ui.exposes lists "SettingsPanel" but the UI build exposes "./register"',
    ]);

    fs.rmSync(path.join(ui, "src/ui/register.tsx"));
    fs.writeFileSync(path.join(ui, "src/service.ts"), "export const notAPlugin = { name: 'x' };\n");
    editJson(path.join(ui, "package.json"), (p) => {
      p.platform.coreApi = "^1.0.0";
      p.platform.ui.exposes = ["register"];
    });
    const r3 = await runCli(["validate", ui]);
    expect(r3.code).toBe(1);
    expect(r3.stderr.trim().split("\n").slice(1)).toEqual([
      "  - entry: service.ts does not export a definePlugin() object (tag $$openatendePlugin: 1)",
      '  - ui: "register" is exposed from src/ui/register.tsx, which does not exist',
    ]);

    const missing = await runCli(["validate", path.join(tmp, "nowhere")]);
    expect([missing.code, missing.stderr.trim()]).toEqual([1, `plugin-sdk validate: ${path.join(tmp, "nowhere")} is not a folder`]);
  });

  it("test exits with jest's code: 1 when one of the plugin's tests fails", async () => {
    const failing = copyDir(plugin, path.join(tmp, "failing", "channel-acme-hook"));
    fs.writeFileSync(path.join(failing, "test/broken.test.ts"), 'it("fails on purpose", () => { expect(1).toBe(2); });\n');
    const r = await runCli(["test", failing, "--", "--testPathPatterns", "broken"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("fails on purpose");
  });

  it("runs from the repo root as well as from anywhere (the config points jest at the plugin folder)", async () => {
    const r = await runCli(["test", path.relative(REPO_ROOT, plugin), "--", "--testPathPatterns", "webhook"], { cwd: REPO_ROOT });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Tests: +6 passed, 6 total/);
  });
});
