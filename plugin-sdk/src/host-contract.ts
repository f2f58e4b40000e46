/**
 * What the core's plugin host (`plugins` service) answers: the shapes the shell, the core's
 * `channels`/`connections` services and plugins compile against.
 *
 * How to extend: add optional fields only.
 */
import type { ChannelCapability } from "./channel-contract";
import type { DisplayName, PluginKind, PluginProfile, PluginTier } from "./manifest";

/** One entry of GET /plugins/enabled: a plugin the caller's shell should load. */
export interface EnabledPlugin {
  id: string;
  kind: PluginKind;
  version: string;
  tier: PluginTier;
  displayName: DisplayName;
  /** The UI remote, or null when the plugin has no UI. remoteEntry is a path under /api/plugins/<id>/remote/. */
  ui: { remoteEntry: string | null; exposes: string[] } | null;
  /** Channels only: the connection type, capabilities and the settings schema of a connection. */
  channel?: { type: string; capabilities: ChannelCapability[]; settingsSchema: Record<string, unknown> | null };
}

/** One entry of GET /plugins (tenant admins): every installed plugin and the tenant's switch. */
export interface InstalledPlugin {
  id: string;
  kind: PluginKind;
  version: string;
  tier: PluginTier;
  displayName: DisplayName;
  profiles: PluginProfile[];
  /** The tenant's switch (true when never set). */
  enabled: boolean;
  /** False when the tenant's licence tier is below the plugin's tier. */
  tierAllowed: boolean;
}

export type PluginLoadStatus = "loaded" | "refused";

/** plugins.get / plugins.registry: what the host knows of a plugin folder. */
export interface PluginRecord {
  /** Manifest id, or the folder name when the manifest could not be read. */
  id: string;
  folder: string;
  status: PluginLoadStatus;
  /** Why it was refused. */
  reason?: string;
  version?: string;
  major?: number;
  kind?: PluginKind;
  tier?: PluginTier;
  /** Full service name, "v<major>.<id>", when loaded. */
  service?: string;
}

/** plugins.availability (plugins.isEnabled answers just `enabled`). */
export interface IsEnabledResult {
  /** True when the plugin is loaded, switched on for the tenant and allowed by its tier. */
  enabled: boolean;
  /** Why not: unknown id, refused at load, switched off by the tenant, or the tenant's tier is too low. */
  reason?: "unknown" | "refused" | "disabled" | "tier";
}

export interface ChannelForResult {
  id: string;
  /** Full Moleculer service name to call, e.g. "v1.channel-webchat". */
  service: string;
  version: string;
  major: number;
  type: string;
  capabilities: ChannelCapability[];
  settingsSchema: Record<string, unknown> | null;
}

/** Event `plugins.changed`: a tenant admin switched a plugin on or off. */
export interface PluginsChangedEvent {
  tenantId: number;
  id: string;
  enabled: boolean;
}
