/**
 * Baileys 7 is an ES module. The plugin is loaded by the core's CommonJS `require` (tsx/swc):
 * Node ≥ 20.19 requires ES modules natively (Baileys has no top-level await), and jest
 * compiles it to CommonJS. Loading it on first use, rather than at the top of the entry, keeps
 * the plugin's manifest and service loadable even where the library cannot be (the service
 * then fails its sessions with the library's error, not the whole plugin host).
 */
import type * as Baileys from "@whiskeysockets/baileys";

let loaded: typeof Baileys | undefined;

export function baileys(): typeof Baileys {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("@whiskeysockets/baileys") as typeof Baileys;
  return loaded;
}
