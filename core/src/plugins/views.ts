/**
 * What the shell is told about plugins: the entries of GET /plugins/enabled (with the URL of
 * each UI remote and the manifest's icon and colour), and the live "<tenantId>:plugins"
 * notice that makes open shells load them again.
 */
import { EnabledPlugin, PluginProfile, channelTypeOf } from "@openatende/plugin-sdk";
import { AuthUser, Ctx, isAdmin } from "../types";
import { pushRealtime, rooms } from "../realtime/push";
import type { LoadedPlugin } from "./registry";

/** Module Federation's default file name, for a plugin that exposes modules without naming its entry. */
export const DEFAULT_REMOTE_ENTRY = "remoteEntry.js";

/** The profile a user sees plugins as: platform-level and support users count as admin. */
export function profileOf(u: AuthUser): PluginProfile {
  return isAdmin(u) ? "admin" : (u.profile as PluginProfile);
}

function remoteEntryUrl(p: LoadedPlugin): string | null {
  const ui = p.manifest.ui;
  const file = ui?.remoteEntry ?? (ui?.exposes.length ? DEFAULT_REMOTE_ENTRY : undefined);
  if (!file) return null;
  // An installed plugin changes version while the platform runs: the version in the URL keeps
  // a browser from mixing an old remote entry with the new chunks.
  return `/api/plugins/${p.id}/remote/${file.replace(/^\.?\//, "")}${p.installed ? `?v=${encodeURIComponent(p.version)}` : ""}`;
}

/** The manifest's icon and colour, only those it declares (the shell draws the channel with them). */
export function looksOf(p: LoadedPlugin): Pick<EnabledPlugin, "icon" | "color"> {
  return { ...(p.manifest.icon ? { icon: p.manifest.icon } : {}), ...(p.manifest.color ? { color: p.manifest.color } : {}) };
}

export function enabledView(p: LoadedPlugin): EnabledPlugin {
  const m = p.manifest;
  const entry: EnabledPlugin = {
    id: p.id,
    kind: m.kind,
    version: p.version,
    tier: m.tier,
    displayName: m.displayName,
    ui: m.ui ? { remoteEntry: remoteEntryUrl(p), exposes: [...m.ui.exposes] } : null,
  };
  if (m.kind === "channel" && m.channel) {
    entry.channel = { type: channelTypeOf(m), capabilities: [...m.channel.capabilities], settingsSchema: m.settingsSchema ?? null };
  }
  return { ...entry, ...looksOf(p) };
}

/**
 * Tells the tenants' open shells that their plugins changed (`<tenantId>:plugins`): they load
 * the enabled list and the remotes again, so a plugin taken away leaves the screen at once
 * and a new version's UI replaces the old one.
 */
export function pushPluginsChanged(ctx: Ctx, tenantIds: number[], id: string) {
  for (const tenantId of new Set(tenantIds)) {
    pushRealtime(ctx, { rooms: [rooms.tenant(tenantId)], event: `${tenantId}:plugins`, payload: { action: "update", id } });
  }
}
