/** Every test file of the repository belongs to exactly one jest project, by the folder rule. */
import * as fs from "node:fs";
import * as path from "node:path";
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { projectsOf, PURE, NEEDS_SERVICES, BROWSER } = require("./projects.cjs") as {
  projectsOf(file: string, root: string): string[];
  PURE: string[];
  NEEDS_SERVICES: string[];
  BROWSER: string[];
};

const root = path.resolve(__dirname, "../..");
const SKIP = new Set(["node_modules", "dist", ".git"]);

function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const rel = (f: string) => path.relative(root, f).split(path.sep).join("/");
const files = ["config", "contracts", "scripts", "core", "plugin-sdk", "plugins", "marketplace", "shell"].flatMap((d) => testFiles(path.join(root, d)));

describe("jest projects", () => {
  it("put every test file in exactly one project", () => {
    expect(files.length).toBeGreaterThan(50);
    const wrong = files.map((f) => [rel(f), projectsOf(f, root)] as const).filter(([, ps]) => ps.length !== 1);
    expect(wrong).toEqual([]);
  });

  it("follow the folder rule, with the listed exceptions", () => {
    const of = (r: string) => projectsOf(path.join(root, r), root)[0];
    expect(of("contracts/src/connections.test.ts")).toBe("unit");
    expect(of("core/src/licence/token.test.ts")).toBe("unit");
    expect(of("plugin-sdk/src/manifest.test.ts")).toBe("unit");
    expect(of("config/jest/projects.test.ts")).toBe("unit");
    expect(of("scripts/setup.test.ts")).toBe("unit");
    expect(of("core/test/tags.test.ts")).toBe("integration");
    expect(of("plugin-sdk/src/data/repository.test.ts")).toBe("integration");
    expect(of("shell/test/stores.test.ts")).toBe("unit");
    expect(of("shell/test/api-client.test.ts")).toBe("integration");
    expect(of("plugins/channel-whatsapp/test/messages-inbound.test.ts")).toBe("unit");
    expect(of("shell/test/marketplace.browser.test.ts")).toBe("browser");
    expect(of("plugin-sdk/src/cli/dev.test.ts")).toBe("browser");
  });

  it("list only files or globs that still match a test", () => {
    const { globsToMatcher } = jest.requireActual<typeof import("jest-util")>("jest-util");
    const stale = [...PURE, ...NEEDS_SERVICES, ...BROWSER].filter((g) => !files.some((f) => globsToMatcher([g])(rel(f))));
    expect(stale).toEqual([]);
  });
});
