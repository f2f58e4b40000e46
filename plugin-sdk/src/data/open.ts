import type { PluginData, PluginDatabaseAddress } from "./contract";
import { addressOf, SqlPluginData } from "./database";

/**
 * Opens a plugin database at an address, outside any service: for a plugin's own tests (a
 * SQLite file in a temp folder, or a MariaDB database made with ensurePluginDatabase) and
 * for the host. The caller closes it. The address may be given as its URL alone
 * (`sqlite:/tmp/x.sqlite`, `mysql://root@127.0.0.1:3306/db`).
 *
 *   const data = await openPluginDataAt({ dialect: "sqlite", url: `sqlite:${dir}/wa.sqlite` });
 *   await runPluginMigrations(data, loadPluginMigrations(pluginFolder));
 */
export function openPluginDataAt(address: PluginDatabaseAddress | string): Promise<PluginData> {
  return SqlPluginData.open(addressOf(address));
}
