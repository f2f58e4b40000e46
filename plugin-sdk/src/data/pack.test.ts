/**
 * A plugin's migrations through `plugin-sdk validate` and `pack`: validate names the migration
 * file that exports no `migration` (or doubles a name), pack bundles each one into the
 * archive's migrations/<name>.js, which runs as it is against a database.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readArchive } from "../archive";
import { packPlugin } from "../cli/pack";
import { validatePlugin } from "../cli/validate";
import { REPO_NODE_MODULES } from "../cli/workspace";
import { runPluginMigrations } from "./migrate";
import { openPluginDataAt } from "./open";
import { testPluginDatabase } from "./testing";
import type { PluginMigration } from "./contract";

jest.setTimeout(60_000);

const SERVICE = `import { definePlugin, openPluginData } from "@openatende/plugin-sdk";
import pkg from "../package.json";
export default definePlugin({ pkgJson: pkg, service: { actions: { async count(ctx) { return (await openPluginData(this)).forTenant(ctx.params.tenantId).table("items").count(); } } } });
`;
const migration = (name: string, body: string) => `import type { PluginMigration } from "@openatende/plugin-sdk";
import { itemsColumns } from "../src/columns";
export const migration: PluginMigration = { name: ${JSON.stringify(name)}, async up(schema) { ${body} } };
void itemsColumns;
`;

describe("a plugin's migrations in validate and pack", () => {
  let tmp: string;
  let dir: string;

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oa-pack-migrations-"));
    // Where a plugin outside the repo finds the SDK (as `plugin-sdk create` sets it up).
    fs.symlinkSync(REPO_NODE_MODULES, path.join(tmp, "node_modules"));
    dir = path.join(tmp, "module-items");
    fs.mkdirSync(path.join(dir, "src"), { recursive: true });
    fs.mkdirSync(path.join(dir, "migrations"));
    const pkg = { name: "@acme/module-items", version: "1.0.0", platform: { id: "module-items", kind: "module", tier: "FREE", coreApi: "^1.0.0", displayName: { "pt-BR": "Itens", en: "Items" } } };
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2));
    fs.writeFileSync(path.join(dir, "src/service.ts"), SERVICE);
    // A migration may import the plugin's own modules: the bundle carries them.
    fs.writeFileSync(path.join(dir, "src/columns.ts"), `export const itemsColumns = { id: { type: "integer" as const }, name: { type: "string" as const } };\n`);
    fs.writeFileSync(
      path.join(dir, "migrations/0001-items.ts"),
      migration("0001-items", `await schema.createTable("items", { columns: itemsColumns, primaryKey: ["id"] });`),
    );
    fs.writeFileSync(path.join(dir, "migrations/0002-label.ts"), migration("0002-label", `await schema.addColumn("items", "label", { type: "string", nullable: true });`));
  });
  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("validate accepts migration files that export `migration`", async () => {
    expect((await validatePlugin(dir)).problems).toEqual([]);
  });

  it("validate names a file without `migration`, and a name used twice", async () => {
    const bad = path.join(dir, "migrations/0003-nothing.ts");
    fs.writeFileSync(bad, "export const other = 1;\n");
    try {
      expect((await validatePlugin(dir)).problems).toEqual(["migrations: migration 0003-nothing.ts: does not export `migration` (a PluginMigration: { name, up(schema) })"]);
    } finally {
      fs.rmSync(bad);
    }
    const twice = path.join(dir, "migrations/0003-twice.ts");
    fs.writeFileSync(twice, migration("0002-label", ""));
    try {
      expect((await validatePlugin(dir)).problems).toEqual(["migrations: migration 0002-label: is named twice"]);
    } finally {
      fs.rmSync(twice);
    }
  });

  it("pack puts each migration, bundled, into the archive's migrations/, and they run from there", async () => {
    const packed = await packPlugin(dir, path.join(tmp, "out"));
    expect(packed.files.filter((f) => f.startsWith("migrations/"))).toEqual(["migrations/0001-items.js", "migrations/0002-label.js"]);
    const unpacked = path.join(tmp, "unpacked");
    for (const f of readArchive(fs.readFileSync(packed.file), { maxBytes: 20 * 1024 * 1024 })) {
      fs.mkdirSync(path.dirname(path.join(unpacked, f.path)), { recursive: true });
      fs.writeFileSync(path.join(unpacked, f.path), f.data);
    }
    // Self-contained: the plugin's own module is inside, no TypeScript left.
    const first = fs.readFileSync(path.join(unpacked, "migrations/0001-items.js"), "utf8");
    expect(first).not.toMatch(/require\("\.\.\/src\/columns"\)/);
    expect(first).toContain("itemsColumns");
    const list = ["0001-items.js", "0002-label.js"].map((n) => (require(path.join(unpacked, "migrations", n)) as { migration: PluginMigration }).migration);
    const db = await testPluginDatabase("sqlite");
    try {
      expect((await runPluginMigrations(db.address, list)).applied).toEqual(["0001-items", "0002-label"]);
      const data = await openPluginDataAt(db.address);
      await data.forTenant(1).table("items").insert({ id: 1, name: "a", label: "x" });
      expect(await data.forTenant(1).table("items").find()).toEqual([{ id: 1, name: "a", label: "x" }]);
      await data.close();
    } finally {
      await db.drop();
    }
    // A plugin without migrations/ packs none (no stale ones from an earlier pack either).
    fs.renameSync(path.join(dir, "migrations"), path.join(dir, "migrations-off"));
    try {
      const plain = await packPlugin(dir, path.join(tmp, "out2"));
      expect(plain.files.filter((f) => f.startsWith("migrations/"))).toEqual([]);
    } finally {
      fs.renameSync(path.join(dir, "migrations-off"), path.join(dir, "migrations"));
    }
  });
});
