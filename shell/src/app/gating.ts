import type { UiProfile, UiTier } from "@openatende/plugin-sdk/ui";

/**
 * Licence gating of spec §6 (a tenant below the tier sees the notice naming it and returns to
 * /home). A gated feature arrives as a plugin, whose manifest's `platform.tier` is then the
 * one place its tier is written, for the paths it declares (`platform.ui.routes`): the plugin
 * registry answers it. Until a plugin claims a path, the spec's table below answers, so a FREE
 * tenant opening a feature still to come learns which tier it will need rather than meeting a
 * page not found. No core route is above FREE.
 */
export const SPEC_ROUTE_TIERS: Record<string, UiTier> = {
  campanhas: "BASIC",
  kanban: "PLUS",
  agendamentos: "PLUS",
  notas: "PLUS",
  "chat-interno": "PLUS",
  campanhaswaba: "PREMIUM",
  campanhasms: "PREMIUM",
};
/** The same for children of /configuracoes. */
export const SPEC_SETTINGS_TIERS: Record<string, UiTier> = {
  grupos: "PLUS",
  templates: "PLUS",
  api: "PLUS",
  typebotapi: "PLUS",
  prompt: "PREMIUM",
  servicos: "PREMIUM",
  "importacao-zpro": "PREMIUM",
};

/** The tier a path needs (undefined: none): the manifest tier of the plugin that declares or registered it, else the spec's for a path no plugin claimed yet. */
export function tierForPath(path: string, plugins: { tierOfPath(path: string): UiTier | undefined }): UiTier | undefined {
  const claimed = plugins.tierOfPath(path);
  if (claimed) return claimed;
  const parts = path.replace(/^\/+/, "").split("/");
  return parts[0] === "configuracoes" && parts[1] ? SPEC_SETTINGS_TIERS[parts[1]] : SPEC_ROUTE_TIERS[parts[0]];
}

/** The profile each first path segment needs: settings and modules are the tenant admin's, the marketplace the platform's. */
export const ROUTE_ACCESS: Record<string, UiProfile> = {
  configuracoes: "admin",
  modulos: "admin",
  marketplace: "super",
  empresas: "super",
};

/** The profile a path needs (undefined: any): /configuracoes and /modulos are admin only (spec §6), /marketplace the super's. */
export function accessForPath(path: string): UiProfile | undefined {
  return ROUTE_ACCESS[path.replace(/^\/+/, "").split("/")[0]];
}

/** Settings children of the platform's top-level admin only (spec §6: global settings). */
export const MASTER_SETTINGS: readonly string[] = ["globais"];

/** Whether a path is for the master admin only (a child of /configuracoes in MASTER_SETTINGS). */
export function masterOnlyPath(path: string): boolean {
  const parts = path.replace(/^\/+/, "").split("/");
  return parts[0] === "configuracoes" && MASTER_SETTINGS.includes(parts[1] ?? "");
}

/** The top-level admin of spec §6: the platform's super with the master flag (what the core's global settings require). */
export function isMasterAdmin(root: { session: { isMaster: boolean }; can(access: UiProfile): boolean }): boolean {
  return root.session.isMaster && root.can("super");
}
