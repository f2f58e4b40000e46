import { call, type Caller } from "../bus/call";
import type { SmtpSettings } from "../mailer/contract";

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

/** The platform-wide settings other services read, by key (what settings.getGlobal answers for each). */
export interface GlobalSettings {
  smtp: SmtpSettings;
  licence: { token?: string };
  licenceBlocklist: string[];
  frontend: Record<string, unknown>;
  typebot: Record<string, unknown>;
  giphy: { apiKey?: string; baseUrl?: string; rating?: "g" | "pg" | "pg-13" | "r" };
}

/**
 * A platform-wide setting, typed by its key; null when it was never set. The store keeps any
 * JSON, so this is the one place that states what each key holds.
 */
export async function getGlobal<K extends keyof GlobalSettings>(ctx: Caller, key: K): Promise<GlobalSettings[K] | null> {
  return ((await call(ctx, "settings.getGlobal", { key })) ?? null) as GlobalSettings[K] | null;
}
