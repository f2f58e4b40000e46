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

/** The profile a path needs: everything under /configuracoes is admin only (spec §6). */
export function accessForPath(path: string): UiProfile | undefined {
  return path.replace(/^\/+/, "").startsWith("configuracoes") ? "admin" : undefined;
}
