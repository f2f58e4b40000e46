/**
 * Baileys 7 is an ES module. The plugin runs as CommonJS: under tsx (`npm start`, plugin
 * nodes) a `require()` of it is compiled by tsx, whose CommonJS copy then requires
 * whatsapp-rust-bridge, a package with only an "import" export, and fails; a dynamic
 * `import()` goes through Node's ES module loader and works. So a session loads it with
 * `loadBaileys()` before it opens its first socket (a node with no WhatsApp session never
 * loads it: it takes seconds), and the code that uses it calls `baileys()`, which answers
 * the loaded module. Where nothing loaded it first (jest, which compiles the library to
 * CommonJS; plain Node ≥ 20.19, which requires ES modules natively) `baileys()` requires it.
 * Loading it late, rather than at the top of the entry, keeps the plugin's manifest and
 * service loadable even where the library cannot be (its sessions then fail with the
 * library's error, not the whole plugin host).
 */
import type * as Baileys from "@whiskeysockets/baileys";

let loaded: typeof Baileys | undefined;

export async function loadBaileys(): Promise<typeof Baileys> {
  loaded ??= (await import("@whiskeysockets/baileys")) as typeof Baileys;
  return loaded;
}

export function baileys(): typeof Baileys {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("@whiskeysockets/baileys") as typeof Baileys;
  return loaded;
}
