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
  /** The manifest's icon (a name of PLUGIN_ICONS or an image URL) and colour, when it declares them. */
  icon?: string;
  color?: string;
}

/**
 * One entry of GET /plugins/routes: a shell path a plugin's UI declares (manifest ui.routes)
 * and the tier it needs, for every loaded plugin (not only the caller's enabled ones), so the
 * shell can name the tier on a route the tenant's licence does not reach.
 */
export interface PluginRouteView {
  path: string;
  pluginId: string;
  tier: PluginTier;
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
  /** Whether the platform level (super) allows the plugin for the tenant (its decision, or the default policy). */
  allowed?: boolean;
  /** Every loaded version, newest first (several majors run side by side). */
  versions?: string[];
  /** The manifest's icon and colour, when it declares them (a switched-off channel's connections still show them). */
  icon?: string;
  color?: string;
}

/** One entry of GET /plugins/tenants/:tenantId (super): a plugin as it stands for one tenant. */
export interface TenantPluginView {
  id: string;
  kind: PluginKind;
  /** The newest loaded version. */
  version: string;
  /** Every loaded version, newest first. */
  versions: string[];
  tier: PluginTier;
  displayName: DisplayName;
  /** Shipped in the platform's own plugins/ folder. */
  bundled: boolean;
  /** The super's decision for the tenant, or null when none (the default policy applies). */
  decision: boolean | null;
  /** What the default policy says: bundled plugins are allowed (their tier still gates them). */
  allowedByDefault: boolean;
  /** The decision, or the default. */
  allowed: boolean;
  /** The tenant admin's switch (true when never set). */
  enabled: boolean;
  tierAllowed: boolean;
  /** Usable by the tenant now: allowed, switched on and within its tier. */
  available: boolean;
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
  /** Runs in a broker node of its own (PLUGINS_EXTERNAL): its service is on the broker only while that node is up. */
  external?: boolean;
  /** Installed from the marketplace (unpacked under DATA_DIR/plugins/<id>/<version>/, always in a node of its own). */
  installed?: boolean;
}

/** plugins.availability (plugins.isEnabled answers just `enabled`). */
export interface IsEnabledResult {
  /** True when the plugin is loaded, allowed for the tenant by the platform, switched on by the tenant and within its tier. */
  enabled: boolean;
  /**
   * Why not: unknown id, refused at load, the major asked for is not loaded ("version"), not
   * allowed for the tenant by the platform level, switched off by the tenant, or the tenant's
   * tier is too low.
   */
  reason?: "unknown" | "refused" | "version" | "not_allowed" | "disabled" | "tier";
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
  /** Present (true) when the channel has the optional action `markRead` (manifest `receipts`). */
  receipts?: true;
  /** Present (true) when the channel has the optional action `checkNumber` (manifest `numberCheck`). */
  numberCheck?: true;
  /** Present (true) when the channel has the template actions (manifest `templates`, contract 1.3). */
  templates?: true;
  /** Present (true) when the channel has the optional action `balance` (manifest `balance`, contract 1.4). */
  balance?: true;
  /** The provider's customer-service window in hours (manifest `serviceWindowHours`); absent: none. */
  serviceWindowHours?: number;
}

/** Event `plugins.changed`: a tenant admin switched a plugin on or off, or the super allowed or disallowed it (`allowed`). */
/**
 * Event "plugins.installs.changed": a plugin from the marketplace was installed, upgraded,
 * rolled back or uninstalled (version null) on the platform.
 */
export interface PluginsInstallsChangedEvent {
  id: string;
  version: string | null;
}

export interface PluginsChangedEvent {
  tenantId: number;
  id: string;
  /** The tenant's switch. */
  enabled: boolean;
  /** Present when the super's decision changed: the plugin is now allowed for the tenant or not. */
  allowed?: boolean;
}
