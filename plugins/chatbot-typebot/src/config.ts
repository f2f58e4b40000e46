/**
 * A tenant's Typebot settings as the conversation and the routes use them: its own row, with
 * the platform's global Typebot settings (the master admin's builder and viewer URLs, read
 * through the core API's settings) as the defaults of the URLs it left empty.
 */
import { coreApi, type OutboundPolicy } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import { EMPTY_SETTINGS, type SettingsRow, type TypebotStore } from "./store";
import type { TypebotTarget } from "./typebot-client";

export interface GlobalTypebot {
  builderUrl: string | null;
  viewerUrl: string | null;
}

export interface Effective extends Omit<SettingsRow, "id" | "updatedAt"> {
  /** The platform's defaults (global settings). */
  defaults: GlobalTypebot;
  /** The viewer URL the chat API is called at: the tenant's, else the platform's. */
  viewer: string | null;
  builder: string | null;
}

/** The platform's global Typebot URLs (null each when the master admin set none). */
export async function globalTypebot(ctx: Context, tenantId: number): Promise<GlobalTypebot> {
  const all = await coreApi(ctx).settings.get({ tenantId });
  const tb = (all.typebot ?? {}) as Partial<Record<keyof GlobalTypebot, unknown>>;
  const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
  return { builderUrl: str(tb.builderUrl), viewerUrl: str(tb.viewerUrl) };
}

export async function effectiveSettings(ctx: Context, store: TypebotStore, tenantId: number): Promise<Effective> {
  const [row, defaults] = await Promise.all([store.settings(tenantId), globalTypebot(ctx, tenantId)]);
  const s = row ?? { ...EMPTY_SETTINGS };
  return {
    viewerUrl: s.viewerUrl,
    builderUrl: s.builderUrl,
    apiToken: s.apiToken,
    apiGeneration: s.apiGeneration === "legacy" ? "legacy" : "latest",
    sessionTimeoutMinutes: s.sessionTimeoutMinutes,
    queueId: s.queueId,
    defaults,
    viewer: s.viewerUrl || defaults.viewerUrl,
    builder: s.builderUrl || defaults.builderUrl,
  };
}

export function targetOf(s: Effective, policy: OutboundPolicy): TypebotTarget | null {
  return s.viewer ? { viewerUrl: s.viewer, apiToken: s.apiToken || null, generation: s.apiGeneration, policy } : null;
}

/** The token as the settings page shows it: its last 4 characters, never the whole. */
export function tokenHint(token: string | null): string | null {
  if (!token) return null;
  return token.length <= 8 ? "••••" : `••••${token.slice(-4)}`;
}
