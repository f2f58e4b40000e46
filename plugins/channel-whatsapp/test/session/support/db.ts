/**
 * The plugin's own database for its tests, the way the host makes it: a real SQLite file or a
 * real MariaDB database of its own, with the plugin's migrations run. `open()` gives another
 * connection to the same database (another node, or the same node after a restart).
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type PluginDatabaseAddress } from "@openatende/plugin-sdk";

export const PLUGIN_DIR = path.join(__dirname, "../../..");
export type Dialect = "sqlite" | "mysql";
export const DIALECTS: Dialect[] = ["sqlite", "mysql"];

export interface TestDb {
  address: PluginDatabaseAddress;
  data: PluginData;
  open(): Promise<PluginData>;
  drop(): Promise<void>;
}

export async function pluginDatabase(dialect: Dialect): Promise<TestDb> {
  const db = await testPluginDatabase(dialect, { prefix: "oa_wa" });
  await runPluginMigrations(db.address, loadPluginMigrations(PLUGIN_DIR));
  const opened: PluginData[] = [];
  const open = async () => {
    const d = await openPluginDataAt(db.address);
    opened.push(d);
    return d;
  };
  const data = await open();
  return {
    address: db.address,
    data,
    open,
    async drop() {
      for (const d of opened) await d.close().catch(() => undefined);
      await db.drop();
    },
  };
}
