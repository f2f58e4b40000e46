/**
 * A throwaway plugin database for a plugin's own tests: a SQLite file in a temp folder, or a
 * MariaDB/MySQL database with a unique name on a test server (default root@127.0.0.1:3306, the
 * project's machines). `drop()` removes it.
 *
 *   const db = await testPluginDatabase("mysql");
 *   const data = await openPluginDataAt(db.address);
 *   await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
 *   …
 *   await data.close();
 *   await db.drop();
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import type { PluginDatabaseAddress } from "./contract";
import { dropPluginDatabase, ensurePluginDatabase } from "./database";

export interface TestPluginDatabase {
  address: PluginDatabaseAddress;
  drop(): Promise<void>;
}

export async function testPluginDatabase(dialect: "sqlite" | "mysql", opts: { server?: string; prefix?: string } = {}): Promise<TestPluginDatabase> {
  const tag = `${process.pid}_${randomBytes(4).toString("hex")}`;
  if (dialect === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-plugin-data-"));
    return {
      address: { dialect, url: `sqlite:${path.join(dir, "plugin.sqlite")}` },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = (opts.server ?? "mysql://root@127.0.0.1:3306").replace(/\/+$/, "");
  const address: PluginDatabaseAddress = { dialect, url: `${server}/${opts.prefix ?? "oa_pd"}_${tag}` };
  await ensurePluginDatabase(address);
  return { address, drop: () => dropPluginDatabase(address) };
}
