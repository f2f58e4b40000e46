import type { UiProfile, UiTier } from "@openatende/plugin-sdk/ui";

/**
 * Licence gating of spec §6 (a tenant below the tier sees the notice naming it and returns to
 * /home), for the core's own routes, by first path segment or settings child. The gated
 * features of spec §6 (campanhas, kanban, agendamentos, notas, chat-interno, grupos, templates,
 * api, typebotapi, campanhaswaba, campanhasms, prompt, servicos, importacao-zpro) arrive as
 * plugins: their tier is their manifest's `platform.tier`, for the paths the manifest declares
 * (`platform.ui.routes`), and the plugin registry answers it. No core route is above FREE today.
 */
export const CORE_ROUTE_TIERS: Record<string, UiTier> = {};
export const CORE_SETTINGS_TIERS: Record<string, UiTier> = {};

/** The tier a path needs (undefined: none): the core's own, else the manifest tier of the plugin that declares or registered it. */
export function tierForPath(path: string, plugins: { tierOfPath(path: string): UiTier | undefined }): UiTier | undefined {
  const parts = path.replace(/^\/+/, "").split("/");
  const core = parts[0] === "configuracoes" && parts[1] ? CORE_SETTINGS_TIERS[parts[1]] : CORE_ROUTE_TIERS[parts[0]];
  return core ?? plugins.tierOfPath(path);
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
