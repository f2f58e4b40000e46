/**
 * Prints the PLUGIN_TOKENS of a plugin node started on its own (cluster mode): run it where a
 * core node's configuration is (its JWT_SECRET), and give the line to that plugin's node only.
 *
 *   tsx core/src/bin/plugin-token.ts my-plugin [more ids…]   →   PLUGIN_TOKENS=my-plugin:…
 *
 * A node holding a plugin's token speaks as that plugin (core/src/plugins/THREAT-MODEL.md):
 * give each plugin's node its own line, and never a core node's JWT_SECRET.
 */
import { getConfig } from "@openatende/config";
import { busKeyOf, pluginTokensEnv } from "../middlewares/caller-identity";

const ids = process.argv.slice(2);
if (!ids.length || ids.some((id) => !/^[a-z0-9][a-z0-9-]{0,63}$/.test(id))) {
  console.error("usage: tsx core/src/bin/plugin-token.ts <plugin id> [more ids…]");
  process.exit(2);
}
console.log(`PLUGIN_TOKENS=${pluginTokensEnv(busKeyOf(getConfig().jwtSecret), ids)}`);
