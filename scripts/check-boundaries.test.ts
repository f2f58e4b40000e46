/**
 * The boundary check (check-boundaries.cjs) on small trees in a temp folder: a clean one
 * passes, and each rule fails on a violation planted in it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

interface Violation {
  rule: string;
  file: string;
  what: string;
  text: string;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { check, judge, cyclesOf } = require("./check-boundaries.cjs") as {
  check(root: string): Violation[];
  judge(v: Violation[], allowed?: string[]): { failing: Violation[]; tolerated: Violation[]; stale: string[] };
  cyclesOf(edges: Map<string, Set<string>>): string[][];
};

const pkg = (name: string, deps: string[] = []) => JSON.stringify({ name, dependencies: Object.fromEntries(deps.map((d) => [d, "*"])) });

/** A tiny house that keeps every rule. */
const CLEAN: Record<string, string> = {
  "config/package.json": pkg("@openatende/config"),
  "config/src/index.ts": `export const config = 1;\n`,
  "contracts/package.json": pkg("@openatende/contracts"),
  "contracts/src/ui-remote.ts": `export const containerName = (id: string) => id;\n`,
  "plugin-sdk/package.json": pkg("@openatende/plugin-sdk", ["semver"]),
  "plugin-sdk/src/index.ts": `import semver from "semver";\nimport { containerName } from "@openatende/contracts/ui-remote";\nexport { semver, containerName };\n`,
  "core/package.json": pkg("@openatende/core", ["@openatende/config", "@openatende/plugin-sdk"]),
  "core/src/types.ts": `export type Ctx = unknown;\n`,
  "core/src/db/row-locks.ts": `export const lock = (s: any) => s.query("SELECT id FROM users WHERE id = ? FOR UPDATE");\n`,
  "core/src/tickets/model.ts": `export function defineTicketModels(sequelize: any) {\n  return sequelize.define("Ticket", {}, { tableName: "tickets" });\n}\nexport interface TicketRow { id: number }\n`,
  "core/src/tickets/contract.ts": `export interface TicketActions { "tickets.count": number }\n`,
  "core/src/tickets/visibility.ts": `export const canSee = () => true;\n`,
  "core/src/tickets/tickets.service.ts": [
    `import { defineTicketModels } from "./model";`,
    `import { canSee } from "./visibility";`,
    `import { lock } from "../db/row-locks";`,
    `import type { Ctx } from "../types";`,
    `// a comment may say FROM users without being SQL`,
    `export const q = "SELECT id FROM tickets WHERE tenantId = ?";`,
    `export { defineTicketModels, canSee, lock };`,
    `export type { Ctx };`,
    ``,
  ].join("\n"),
  "core/src/tickets/migrations/0001-tickets.ts": `export const up = (q: any) => q.sequelize.query("UPDATE users SET x = 1");\n`,
  "core/src/users/model.ts": `export function defineUserModels(sequelize: any) {\n  return sequelize.define("User", {}, { tableName: "users" });\n}\n`,
  "core/src/users/users.service.ts": `import type { TicketRow } from "../tickets/model";\nimport type { TicketActions } from "../tickets/contract";\nimport { defineUserModels } from "./model";\nexport type { TicketRow, TicketActions };\nexport { defineUserModels };\n`,
  "core/src/broker.ts": `import { defineTicketModels } from "./tickets/model";\nimport { canSee } from "./tickets/visibility";\nexport { defineTicketModels, canSee };\n`,
  "core/src/index.ts": `export * from "./broker";\n`,
  "core/test/helpers.ts": `export const startCore = () => 1;\n`,
  "marketplace/package.json": pkg("@openatende/marketplace", ["@openatende/core"]),
  "marketplace/src/index.ts": `import { canSee } from "@openatende/core";\nexport { canSee };\n`,
  "shell/package.json": pkg("@openatende/shell", ["@openatende/plugin-sdk"]),
  "shell/src/index.ts": `import { containerName } from "@openatende/contracts/ui-remote";\nexport { containerName };\n`,
  "plugins/channel-x/package.json": pkg("@openatende/channel-x", ["@openatende/plugin-sdk"]),
  "plugins/channel-x/src/service.ts": `import { readFileSync } from "node:fs";\nimport * as path from "path";\nimport WebSocket from "ws";\nimport { semver } from "@openatende/plugin-sdk";\nimport { containerName } from "@openatende/contracts/ui-remote";\nimport { parse } from "./parse";\nexport { readFileSync, path, WebSocket, semver, containerName, parse };\n`,
  "plugins/channel-x/src/parse.ts": `export const parse = (s: string) => s;\n`,
  "plugins/channel-x/test/x.test.ts": `import { startCore } from "@openatende/core/testkit";\nimport { q } from "../../../core/src/tickets/tickets.service";\nexport { startCore, q };\n`,
  "plugins/channel-x/src/ui/locales/en.ts": `export default {\n${"  a: 1,\n".repeat(600)}};\n`,
  "core/test/big.test.ts": `${"// line\n".repeat(900)}`,
};

let dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The clean tree plus `plant` (a file's text, or null to remove it), checked. */
function treeWith(plant: Record<string, string | null> = {}): { root: string; violations: Violation[] } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oa-boundaries-"));
  dirs.push(root);
  for (const [file, text] of Object.entries({ ...CLEAN, ...plant })) {
    if (text === null) continue;
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return { root, violations: check(root) };
}

const texts = (plant: Record<string, string | null>) => treeWith(plant).violations.map((v) => v.text);

describe("the boundary check", () => {
  it("passes the clean tree (tests, migrations, the lock helper, comments, locale data and composition files are exempt)", () => {
    expect(treeWith().violations).toEqual([]);
  });

  it("plugin-import: a plugin source importing core, by name or by path, or another plugin", () => {
    expect(texts({ "plugins/channel-x/src/bad.ts": `import { canSee } from "@openatende/core";\nexport { canSee };\n` })).toEqual(["plugin-import plugins/channel-x/src/bad.ts → @openatende/core"]);
    expect(texts({ "plugins/channel-x/src/bad.ts": `const m = require("../../../core/src/tickets/visibility");\nexport { m };\n` })).toEqual([
      "plugin-import plugins/channel-x/src/bad.ts → ../../../core/src/tickets/visibility",
    ]);
    expect(texts({ "plugins/channel-x/src/bad.ts": `export { x } from "@openatende/config";\n` })).toEqual(["plugin-import plugins/channel-x/src/bad.ts → @openatende/config"]);
    expect(
      texts({ "plugins/channel-y/package.json": pkg("@openatende/channel-y"), "plugins/channel-y/src/a.ts": `export const a = 1;\n`, "plugins/channel-x/src/bad.ts": `import("../../channel-y/src/a");\n` }),
    ).toEqual(["plugin-import plugins/channel-x/src/bad.ts → ../../channel-y/src/a"]);
  });

  it("sdk-import: the SDK reaching config by path (the old rsbuild entry), contracts using an npm package", () => {
    expect(texts({ "plugin-sdk/src/cli/rsbuild-remote.cjs": `module.exports = require("../../../config/rsbuild/remote.cjs");\n` })).toEqual([
      "sdk-import plugin-sdk/src/cli/rsbuild-remote.cjs → ../../../config/rsbuild/remote.cjs",
    ]);
    expect(texts({ "contracts/src/bad.ts": `import semver from "semver";\nexport { semver };\n` })).toEqual(["sdk-import contracts/src/bad.ts → semver"]);
  });

  it("core-internal: the marketplace or the shell importing core's files", () => {
    expect(texts({ "marketplace/src/bad.ts": `import type { TicketRow } from "@openatende/core/src/tickets/model";\nexport type { TicketRow };\n` })).toEqual([
      "core-internal marketplace/src/bad.ts → @openatende/core/src/tickets/model",
    ]);
    expect(texts({ "shell/src/bad.ts": `import { canSee } from "../../core/src/tickets/visibility";\nexport { canSee };\n` })).toEqual([
      "core-internal shell/src/bad.ts → ../../core/src/tickets/visibility",
    ]);
  });

  it("domain-import: a domain importing another's internal file, or a composition file", () => {
    expect(texts({ "core/src/users/bad.ts": `import { canSee } from "../tickets/visibility";\nexport { canSee };\n` })).toEqual(["domain-import core/src/users/bad.ts → tickets/visibility"]);
    expect(texts({ "core/src/users/bad.ts": `import { canSee } from "../broker";\nexport { canSee };\n` })).toEqual(["domain-import core/src/users/bad.ts → broker"]);
    expect(texts({ "core/src/users/bad.ts": `import { x } from "../tickets/helpers/deep";\nexport { x };\n` })).toEqual(["domain-import core/src/users/bad.ts → tickets/helpers/deep"]);
  });

  it("define-model: a model factory imported outside its domain (inside core or from the marketplace)", () => {
    expect(texts({ "core/src/users/bad.ts": `import { defineTicketModels, type TicketRow } from "../tickets/model";\nexport { defineTicketModels };\nexport type { TicketRow };\n` })).toEqual([
      "define-model core/src/users/bad.ts → defineTicketModels (tickets)",
    ]);
    expect(texts({ "marketplace/src/bad.ts": `import {\n  defineUserModels,\n} from "@openatende/core";\nexport { defineUserModels };\n` })).toEqual([
      "define-model marketplace/src/bad.ts → defineUserModels (users)",
    ]);
  });

  it("foreign-table: raw SQL naming another domain's table (the lock helper and migrations excepted)", () => {
    expect(texts({ "core/src/users/bad.ts": 'export const q = `SELECT u.id FROM users u JOIN tickets t ON t.userId = u.id`;\nexport const w = "UPDATE `tickets` SET x = 1";\n' })).toEqual([
      "foreign-table core/src/users/bad.ts → JOIN tickets (tickets)",
      "foreign-table core/src/users/bad.ts → UPDATE tickets (tickets)",
    ]);
  });

  it("package-cycle: by package.json dependencies, or by what the sources import", () => {
    expect(texts({ "plugin-sdk/package.json": pkg("@openatende/plugin-sdk", ["@openatende/core"]) })).toEqual([
      "package-cycle @openatende/core → @openatende/plugin-sdk → @openatende/core",
    ]);
    expect(texts({ "config/src/bad.ts": `import { canSee } from "@openatende/marketplace";\nexport { canSee };\n` })).toEqual([
      "package-cycle @openatende/config → @openatende/marketplace → @openatende/core → @openatende/config",
    ]);
  });

  it("size: a hand-written source over 400 lines (tests, locale data excepted)", () => {
    expect(texts({ "core/src/users/big.ts": "export const x = 1;\n".repeat(401) })).toEqual(["size core/src/users/big.ts"]);
    expect(texts({ "shell/src/Page.tsx": "export const x = 1;\n".repeat(400) })).toEqual([]);
  });

  it("tolerates what ALLOWED lists, fails on the rest, and reports entries that no longer match", () => {
    const { violations } = treeWith({ "core/src/users/big.ts": "x;\n".repeat(401), "core/src/users/bad.ts": `import "../tickets/visibility";\n` });
    const r = judge(violations, ["size core/src/users/big.ts", "size core/src/gone.ts"]);
    expect(r.tolerated.map((v) => v.text)).toEqual(["size core/src/users/big.ts"]);
    expect(r.failing.map((v) => v.text)).toEqual(["domain-import core/src/users/bad.ts → tickets/visibility"]);
    expect(r.stale).toEqual(["size core/src/gone.ts"]);
  });

  it("an allowed entry with * covers a domain's files while they move", () => {
    const { violations } = treeWith({ "core/src/users/a.ts": `import "../tickets/visibility";\n`, "core/src/users/sub/b.ts": `import "../../tickets/visibility";\n` });
    const r = judge(violations, ["domain-import core/src/users/* → tickets/visibility"]);
    expect(r.failing).toEqual([]);
    expect(r.tolerated).toHaveLength(2);
    expect(judge(violations, ["domain-import core/src/users/* → tickets/other"]).failing).toHaveLength(2);
  });

  it("as a command: exit 1 and the violation printed on a planted one, exit 0 on the clean tree", () => {
    const script = path.join(__dirname, "check-boundaries.cjs");
    expect(execFileSync(process.execPath, [script, treeWith().root], { encoding: "utf8" })).toMatch(/boundaries: ok/);
    let out = "";
    let status = 0;
    try {
      execFileSync(process.execPath, [script, treeWith({ "plugins/channel-x/src/bad.ts": `import "@openatende/core";\n` }).root], { encoding: "utf8" });
    } catch (err) {
      ({ stdout: out, status } = err as { stdout: string; status: number });
    }
    expect(status).toBe(1);
    expect(out).toContain("✗ plugin-import plugins/channel-x/src/bad.ts → @openatende/core");
  });

  it("finds every cycle of a graph once", () => {
    const g = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c", "a"])],
      ["c", new Set(["a"])],
    ]);
    expect(cyclesOf(g).map((c) => c.join(">")).sort()).toEqual(["a>b>a", "a>b>c>a"]);
  });
});
