import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { QueryTypes, Sequelize } from "sequelize";
import { loadConfig } from "@openatende/config";
import { createSequelize, ensureDatabaseExists, prepareConnection } from "../src/db/sequelize";
import { collectMigrations, migrate, pendingMigrations, rollbackAll } from "../src/db/migrator";
import { MIGRATIONS } from "../src/db/migrations";
import { loadServicePackages } from "../src/service-packages";
import { DIALECTS, dropDatabase, uid } from "./helpers";

/** Tables that hold tenant data; each must carry tenantId and an index that starts with it. */
const TENANT_TABLES = ["users", "user_queues", "sessions", "password_resets", "settings", "queues"];

async function indexesOf(s: Sequelize, table: string): Promise<string[][]> {
  const qi = s.getQueryInterface();
  const idx = (await qi.showIndex(table)) as Array<{ fields: Array<{ attribute: string }> }>;
  return idx.map((i) => i.fields.map((f) => f.attribute));
}

/** The installation's migrations: the core's, then its service packages' (the marketplace's). */
const ALL = collectMigrations(loadServicePackages(loadConfig({}).rootDir));

describe("the migrations of an installation", () => {
  it("are the core's, then the service packages' (the marketplace brings its own)", () => {
    expect(ALL.slice(0, MIGRATIONS.length)).toEqual(MIGRATIONS);
    expect(ALL.map((m) => m.name)).toContain("0012-marketplace");
    expect(MIGRATIONS.map((m) => m.name)).not.toContain("0012-marketplace");
  });

  it("refuses a package migration named like another one (they share one history)", () => {
    const twin = { ...MIGRATIONS[0] };
    expect(() => collectMigrations([{ group: "x", migrations: [twin] }])).toThrow(/0001/);
  });
});

describe.each(DIALECTS)("migrations on %s", (dialect) => {
  let s: Sequelize;
  const db = `oa_mig_${uid()}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-mig-"));

  beforeAll(async () => {
    const config = loadConfig({
    PLUGIN_INSTALLS: "false",
      DATA_DIR: dir,
      DATABASE_URL: dialect === "mariadb" ? `mysql://root@127.0.0.1:3306/${db}` : `sqlite:${path.join(dir, "m.sqlite")}`,
    });
    await ensureDatabaseExists(config);
    s = createSequelize(config);
    await prepareConnection(s);
  });
  afterAll(async () => {
    await s.close();
    if (dialect === "mariadb") await dropDatabase(db);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("applies every migration once, in order, and a second run applies nothing", async () => {
    expect(await pendingMigrations(s, ALL)).toEqual(ALL.map((m) => m.name));
    const first = await migrate(s, ALL);
    expect(first.applied).toEqual(ALL.map((m) => m.name));
    expect((await migrate(s, ALL)).applied).toEqual([]);
    expect(await pendingMigrations(s, ALL)).toEqual([]);
  });

  it("keeps plugin_installs of a database migrated when 0012-marketplace still made it", async () => {
    const now = new Date();
    await s.query("INSERT INTO plugin_installs (pluginId, version, versions, createdAt, updatedAt) VALUES ('kept', '1.0.0', '[\"1.0.0\"]', ?, ?)", { replacements: [now, now] });
    // Such a database has 0012-marketplace (which made the table) and not the core's 0012-plugin-installs.
    await s.query("DELETE FROM schema_migrations WHERE name = '0012-plugin-installs'");
    expect((await migrate(s, ALL)).applied).toEqual(["0012-plugin-installs"]);
    const rows = await s.query<{ pluginId: string }>("SELECT pluginId FROM plugin_installs", { type: QueryTypes.SELECT });
    expect(rows.map((r) => r.pluginId)).toEqual(["kept"]);
    await s.query("DELETE FROM plugin_installs");
  });

  it("gives every tenant-owned table a tenantId column and an index led by it", async () => {
    for (const table of TENANT_TABLES) {
      const cols = await s.getQueryInterface().describeTable(table);
      expect({ table, hasTenantId: "tenantId" in cols }).toEqual({ table, hasTenantId: true });
      const idx = await indexesOf(s, table);
      expect({ table, led: idx.some((fields) => fields[0] === "tenantId") }).toEqual({ table, led: true });
    }
  });

  it("enforces the unique keys login and settings rely on", async () => {
    const now = new Date();
    await s.query("INSERT INTO tenants (name, status, timezone, termsAccepted, createdAt, updatedAt) VALUES ('T', 'active', 'UTC', 0, ?, ?)", { replacements: [now, now] });
    const [t] = await s.query<{ id: number }>("SELECT id FROM tenants", { type: QueryTypes.SELECT });
    const insertUser = (email: string, phone: string | null) =>
      s.query(
        "INSERT INTO users (tenantId, name, email, phoneNumber, passwordHash, profile, isMaster, isSupport, isHidden, active, status, limitLoginHours, createdAt, updatedAt) VALUES (?, 'U', ?, ?, 'h', 'user', 0, 0, 0, 1, 'offline', 0, ?, ?)",
        { replacements: [t.id, email, phone, now, now] },
      );
    await insertUser("a@x.test", "5511999990000");
    await expect(insertUser("a@x.test", null)).rejects.toThrow();
    await expect(insertUser("b@x.test", "5511999990000")).rejects.toThrow();
    await insertUser("c@x.test", null);
    await insertUser("d@x.test", null); // several users without a phone are fine
    const insertSetting = () =>
      s.query("INSERT INTO settings (tenantId, `key`, value, createdAt, updatedAt) VALUES (?, 'k', '1', ?, ?)", { replacements: [t.id, now, now] });
    await insertSetting();
    await expect(insertSetting()).rejects.toThrow();
  });

  it("rolls everything back and applies it again", async () => {
    await rollbackAll(s, ALL);
    const tables = (await s.getQueryInterface().showAllTables()).map((x) => (typeof x === "string" ? x : (x as { tableName: string }).tableName));
    for (const table of ["tenants", "plugin_installs", "marketplace_plugins", ...TENANT_TABLES]) expect(tables).not.toContain(table);
    expect((await migrate(s, ALL)).applied).toHaveLength(ALL.length);
  });
});
