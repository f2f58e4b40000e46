/**
 * Error codes of loaded plugins (their manifests' `platform.errors`), beside the core's own: the
 * gateway answers a plugin's PluginError with its status and texts, and GET /errors/catalogue
 * carries them to the shell. The plugin host adds a plugin's codes when it loads it and drops
 * them when the last version of it goes; a code of the core or of another plugin is refused at
 * load (conflictOf in plugins/registry.ts).
 */
import type { ManifestLocale, PluginErrorDefinition, PluginManifest } from "@openatende/plugin-sdk";
import { isErrorCode } from "./codes";

const byCode = new Map<string, { pluginId: string; def: PluginErrorDefinition }>();

/** Why a manifest's codes cannot be added (a core code, or another plugin's), or null. */
export function pluginErrorsConflict(manifest: PluginManifest): string | null {
  for (const code of Object.keys(manifest.errors ?? {})) {
    if (isErrorCode(code)) return `error code ${code} is the core's`;
    const owner = byCode.get(code)?.pluginId;
    if (owner && owner !== manifest.id) return `error code ${code} is already ${owner}'s`;
  }
  return null;
}

export function addPluginErrors(manifest: PluginManifest): void {
  for (const [code, def] of Object.entries(manifest.errors ?? {})) byCode.set(code, { pluginId: manifest.id, def });
}

export function dropPluginErrors(pluginId: string): void {
  for (const [code, v] of byCode) if (v.pluginId === pluginId) byCode.delete(code);
}

export function pluginError(code: unknown): PluginErrorDefinition | undefined {
  return typeof code === "string" ? byCode.get(code)?.def : undefined;
}

/** Every plugin code's texts in one language, and their statuses (the catalogue's shape). */
export function pluginCatalogue(locale: ManifestLocale): Record<string, { title: string; detail: string }> {
  return Object.fromEntries([...byCode].map(([code, v]) => [code, v.def[locale]]));
}

export function pluginStatuses(): Record<string, number> {
  return Object.fromEntries([...byCode].map(([code, v]) => [code, v.def.status]));
}
