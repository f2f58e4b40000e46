/** Actions of the settings service other services call. */
export interface SettingsActions {
  /** A platform-wide setting's stored value (smtp, licence, frontend, …), or null. */
  "settings.getGlobal": { params: { key: string }; result: unknown };
  "settings.setGlobal": { params: { key: string; value: unknown }; result: boolean };
  /** A tenant's settings with the defaults filled in. */
  "settings.forTenant": { params: { tenantId: number }; result: Record<string, unknown> };
  /** The caller's tenant's settings (ctx.meta.user). */
  "settings.list": { params: Record<string, never> | undefined; result: Record<string, unknown> | null };
}

export interface SettingsEvents {
  "settings.changed": { tenantId: number; key: string };
  "settings.globalChanged": { key: string };
}
