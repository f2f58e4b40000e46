import type { UiProfile, UiTier } from "@openatende/plugin-sdk/ui";

/**
 * Licence gating of spec §6, by first path segment (main routes) or settings child: a tenant
 * below the tier sees the notice naming it and returns to /home.
 */
export const ROUTE_TIERS: Record<string, UiTier> = {
  campanhas: "BASIC",
  kanban: "PLUS",
  agendamentos: "PLUS",
  notas: "PLUS",
  "chat-interno": "PLUS",
  campanhaswaba: "PREMIUM",
  campanhasms: "PREMIUM",
};
export const SETTINGS_TIERS: Record<string, UiTier> = {
  grupos: "PLUS",
  templates: "PLUS",
  api: "PLUS",
  typebotapi: "PLUS",
  prompt: "PREMIUM",
  servicos: "PREMIUM",
  "importacao-zpro": "PREMIUM",
};

/** The tier a path needs (undefined: none). */
export function tierForPath(path: string): UiTier | undefined {
  const parts = path.replace(/^\/+/, "").split("/");
  if (parts[0] === "configuracoes" && parts[1]) return SETTINGS_TIERS[parts[1]];
  return ROUTE_TIERS[parts[0]];
}

/** The profile each first path segment needs: settings and modules are the tenant admin's, the marketplace the platform's. */
export const ROUTE_ACCESS: Record<string, UiProfile> = {
  configuracoes: "admin",
  modulos: "admin",
  marketplace: "super",
};

/** The profile a path needs (undefined: any): /configuracoes and /modulos are admin only (spec §6), /marketplace the super's. */
export function accessForPath(path: string): UiProfile | undefined {
  return ROUTE_ACCESS[path.replace(/^\/+/, "").split("/")[0]];
}
