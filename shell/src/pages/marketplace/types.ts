/** What the marketplace and plugin-install routes answer (the step-5 REST contracts). */
import type { UiTier } from "@openatende/plugin-sdk/ui";

export type Tier = UiTier;
export const TIERS: readonly Tier[] = ["FREE", "BASIC", "PLUS", "PREMIUM"];
/** The plugin kinds of plugin-sdk's manifest (PLUGIN_KINDS); the shell does not import the server-side SDK. */
export const KINDS = ["channel", "campaign", "ai", "chatbot", "report", "module"] as const;

export type DisplayName = Record<string, string>;

/** plugin_installs of one catalogue plugin. */
export interface InstalledInfo {
  version: string;
  previousVersion: string | null;
  versions: string[];
}

/** GET /marketplace/plugins → rows. */
export interface CatalogueEntry {
  id: string;
  kind: string;
  tier: Tier;
  displayName: DisplayName;
  description: string | null;
  latestVersion: string;
  publisher: { id: number; name: string };
  versions: number;
  updatedAt: string;
  installed: InstalledInfo | null;
}

export interface CatalogueVersion {
  version: string;
  coreApi: string;
  tier: Tier;
  checksum: string;
  size: number;
  changelog: string | null;
  publishedAt: string;
  compatible: boolean;
}

/** GET /marketplace/plugins/:id. */
export interface CatalogueDetail extends Omit<CatalogueEntry, "versions"> {
  readme: string | null;
  manifest: Record<string, unknown>;
  versions: CatalogueVersion[];
}

/** GET /plugins/installed → one row (also what install, upgrade and rollback answer). */
export interface InstalledPlugin {
  id: string;
  version: string;
  previousVersion: string | null;
  versions: string[];
  kind: string;
  tier: Tier;
  displayName: DisplayName;
  running: boolean;
  connections: number;
}

/** GET /marketplace/publishers. */
export interface Publisher {
  id: number;
  name: string;
  email: string;
  active: boolean;
  createdAt: string;
  plugins: number;
}

/** GET /tenants → tenants. */
export interface TenantSummary {
  id: number;
  name: string;
  status?: string;
  document?: string | null;
}

/** GET /plugins/tenants/:tenantId (super). */
export interface TenantPluginView {
  id: string;
  kind: string;
  version: string;
  versions: string[];
  tier: Tier;
  displayName: DisplayName;
  bundled: boolean;
  /** The super's decision: true allowed, false blocked, null the default policy. */
  decision: boolean | null;
  allowedByDefault: boolean;
  allowed: boolean;
  /** The tenant admin's switch. */
  enabled: boolean;
  tierAllowed: boolean;
  available: boolean;
}

/** GET /plugins (a tenant's admin). */
export interface TenantModule {
  id: string;
  kind: string;
  version: string;
  tier: Tier;
  displayName: DisplayName;
  profiles: string[];
  enabled: boolean;
  tierAllowed: boolean;
  allowed: boolean;
  versions: string[];
}
