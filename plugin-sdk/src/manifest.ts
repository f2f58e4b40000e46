/**
 * The plugin manifest: the `platform` block of a plugin's package.json. It tells the host,
 * the shell and the marketplace what they need to know without running the plugin's code:
 * identity, kind, licence tier, the core API range it was built for, its UI remotes, the
 * settings schema of its connections, who sees it, and how it looks (icon and colour).
 *
 * How to extend: add optional fields only, and accept them in `validateManifest` (unknown
 * fields are refused, so a typo like `settingSchema` never passes silently). A field that
 * older hosts must understand is a new major of CORE_API_VERSION.
 */
import * as semver from "semver";
import Validator from "fastest-validator";
import { CHANNEL_CAPABILITIES, ChannelCapability } from "./channel-contract";

/** The version of the contract between core and plugins that this SDK (and the core using it) offers. */
export const CORE_API_VERSION = "1.0.0";

export const PLUGIN_KINDS = ["channel", "campaign", "ai", "chatbot", "report", "module"] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** Licence tiers, lowest first (same order as the core's licence). */
export const PLUGIN_TIERS = ["FREE", "BASIC", "PLUS", "PREMIUM"] as const;
export type PluginTier = (typeof PLUGIN_TIERS)[number];

/** Profiles a plugin can be shown to; platform-level users (super, support) count as admin. */
export const PLUGIN_PROFILES = ["user", "supervisor", "admin"] as const;
export type PluginProfile = (typeof PLUGIN_PROFILES)[number];

export const MANIFEST_LOCALES = ["pt-BR", "en", "es", "ru"] as const;
export type ManifestLocale = (typeof MANIFEST_LOCALES)[number];

/** kebab-case: lowercase words of letters and digits joined by single hyphens. */
export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
export const PLUGIN_ID_MAX = 64;
/**
 * The core's own names (its domains and services): a plugin may not take one, since a plugin's
 * id is its owner name on the scheduler (a plugin "automation" could otherwise schedule and
 * cancel the core's auto-close jobs) and its prefix in events and routes.
 */
export const RESERVED_PLUGIN_IDS: readonly string[] = [
  "api", "auth", "automation", "business-time", "channels", "connections", "contacts", "core", "dashboard", "files", "gateway", "licence",
  "mailer", "marketplace", "messages", "outbox", "platform", "plugins", "queues", "quick-messages", "realtime", "scheduler", "settings",
  "system", "tags", "tenants", "tickets", "users",
];

/**
 * Icons the shell draws itself, by name (platform.icon); anything else is the URL of an image
 * (https:, or a data: image) the plugin brings.
 */
export const PLUGIN_ICONS = ["whatsapp", "telegram", "instagram", "facebook", "mail", "sms", "chat", "web", "phone", "api"] as const;
export type PluginIconName = (typeof PLUGIN_ICONS)[number];
export const PLUGIN_ICON_URL = /^(https:\/\/\S+|data:image\/[a-z0-9.+-]+[;,]\S+)$/i;
/** An icon URL's longest form (a small data: image fits). */
export const PLUGIN_ICON_MAX = 8192;
/** A colour as #rrggbb (the background of the plugin's icon, its accent in lists). */
export const PLUGIN_COLOR = /^#[0-9a-f]{6}$/i;

export type DisplayName = { "pt-BR": string } & Partial<Record<Exclude<ManifestLocale, "pt-BR">, string>>;

export interface PluginUi {
  /** The remote's entry file, relative to the plugin's UI build (e.g. "remoteEntry.js"). */
  remoteEntry?: string;
  /** Modules the remote exposes, e.g. ["ConnectForm", "SettingsPanel"]. */
  exposes: string[];
  /**
   * The shell paths the remote registers, without the leading slash ("kanban",
   * "configuracoes/prompt", "campanhas/:id" with a parameter). Declared here so the shell knows them without loading the remote:
   * a tenant below `tier` opening one gets the notice naming the tier, not a page not found.
   */
  routes?: string[];
  /**
   * A higher tier for some of those routes than the plugin's own (appointments are PLUS, their
   * services screen PREMIUM): route → tier. The plugin's API actions say the same with their
   * own `tier` option.
   */
  routeTiers?: Record<string, PluginTier>;
}

export interface ChannelManifest {
  /** Message kinds the channel can send; `send` of any other kind throws ERR_CHANNEL_UNSUPPORTED. */
  capabilities: ChannelCapability[];
  /**
   * The connection `type` this channel serves (the spec's channel types: "webchat",
   * "telegram", …). Default: the id without its "channel-" prefix.
   */
  type?: string;
  /**
   * The plugin's service has the optional action `markRead`: the core hands it the provider ids
   * of inbound messages the agent holding the ticket has read (read receipts, best effort).
   */
  receipts?: boolean;
  /** The plugin's service has the optional action `checkNumber`: whether a phone number has an account on the network. */
  numberCheck?: boolean;
  /**
   * The plugin's service has the optional template actions (`templatesList`, `templateCreate`,
   * `templateDelete`): the message templates of an official business API (contract 1.3).
   */
  templates?: boolean;
  /** The plugin's service has the optional action `balance`: the account's credits at the provider (contract 1.4). */
  balance?: boolean;
  /**
   * The provider's customer-service window in hours (WhatsApp Cloud API and Instagram: 24): a
   * free-form message goes out only within this time after the contact's last inbound message;
   * after it, only a template. Absent: no window (linked-device channels, e-mail, web chat).
   */
  serviceWindowHours?: number;
}

/** A plugin error's texts in one language, as the catalogue shows them (title + detail; `{{name}}` filled from the error's data). */
export interface PluginErrorText {
  title: string;
  detail: string;
}

/** One error code a plugin throws (PluginError), its HTTP status and its texts in the four languages. */
export type PluginErrorDefinition = { status: number } & Record<ManifestLocale, PluginErrorText>;

/** A plugin's error codes: ERR_ and capitals, digits or underscores; never one of the core's codes. */
export const PLUGIN_ERROR_CODE = /^ERR_[A-Z0-9_]{3,60}$/;
/** The statuses a plugin's error may answer: a client's mistake (4xx) or the plugin's service being unavailable (503). */
export const PLUGIN_ERROR_STATUSES = [400, 402, 403, 404, 409, 410, 413, 422, 429, 503] as const;

/** The `platform` block, as written in package.json. */
export interface PlatformBlock {
  id: string;
  kind: PluginKind;
  tier: PluginTier;
  /** semver range of CORE_API_VERSION the plugin needs, e.g. "^1.0.0". */
  coreApi: string;
  displayName: DisplayName;
  ui?: PluginUi;
  /** fastest-validator schema of the type-specific settings of a connection (channels). */
  settingsSchema?: Record<string, unknown>;
  permissions?: string[];
  /** Who sees the plugin in the shell; absent means every profile. */
  profiles?: PluginProfile[];
  /** Required when kind is "channel". */
  channel?: ChannelManifest;
  /** How the shell draws the plugin (a connection's type, a marketplace card): a name of PLUGIN_ICONS or an image URL. */
  icon?: PluginIconName | string;
  /** #rrggbb behind the icon. */
  color?: string;
  /** The plugin's error codes with their texts, merged into the catalogue the shell reads (GET /errors/catalogue). */
  errors?: Record<string, PluginErrorDefinition>;
}

/** A validated manifest: the platform block plus the package's name and version. */
export interface PluginManifest extends PlatformBlock {
  /** npm package name. */
  packageName: string;
  /** The package's semver version; its major is the service's Moleculer `version`. */
  version: string;
}

export type ManifestResult = { ok: true; manifest: PluginManifest } | { ok: false; errors: string[] };

const PLATFORM_FIELDS = ["id", "kind", "tier", "coreApi", "displayName", "ui", "settingsSchema", "permissions", "profiles", "channel", "icon", "color", "errors"];

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isNonEmptyString = (x: unknown): x is string => typeof x === "string" && x.trim().length > 0;
const quote = (x: unknown) => JSON.stringify(x) ?? String(x);

/** True when this core's API version (or `version`) satisfies the plugin's `coreApi` range. */
export function isCoreApiCompatible(range: string, version: string = CORE_API_VERSION): boolean {
  if (typeof range !== "string" || semver.validRange(range) === null) return false;
  return semver.satisfies(version, range);
}

const UI_FIELDS = ["remoteEntry", "exposes", "routes", "routeTiers"];
/**
 * A shell path without its leading slash: lowercase segments of letters, digits and hyphens;
 * after the first, a segment may be a parameter `:name` that matches any one segment
 * ("campanhas/:id" is /campanhas/7).
 */
export const UI_ROUTE_PATTERN = /^[a-z0-9][a-z0-9-]*(?:\/(?:[a-z0-9][a-z0-9-]*|:[a-z][A-Za-z0-9]*))*$/;

/** Optional actions a channel declares it has (see ChannelManifest). */
const CHANNEL_FLAGS = ["receipts", "numberCheck", "templates", "balance"] as const;
const CHANNEL_FIELDS: string[] = ["capabilities", "type", ...CHANNEL_FLAGS, "serviceWindowHours"];

/** The connection type a channel manifest serves (see ChannelManifest.type). */
export function channelTypeOf(manifest: Pick<PlatformBlock, "id" | "channel">): string {
  return manifest.channel?.type ?? manifest.id.replace(/^channel-/, "");
}

function checkStringList(errors: string[], field: string, value: unknown, opts: { allowed?: readonly string[]; pattern?: RegExp; nonEmpty?: boolean } = {}) {
  if (!Array.isArray(value)) {
    errors.push(`${field} must be an array of strings`);
    return;
  }
  if (opts.nonEmpty && value.length === 0) errors.push(`${field} must not be empty`);
  const seen = new Set<string>();
  value.forEach((v, i) => {
    if (!isNonEmptyString(v)) errors.push(`${field}[${i}] must be a non-empty string`);
    else if (opts.allowed && !opts.allowed.includes(v)) errors.push(`${field}[${i}] ${quote(v)} is not one of ${opts.allowed.join(", ")}`);
    else if (opts.pattern && !opts.pattern.test(v)) errors.push(`${field}[${i}] ${quote(v)} must match ${opts.pattern}`);
    else if (seen.has(v)) errors.push(`${field}[${i}] ${quote(v)} is repeated`);
    if (typeof v === "string") seen.add(v);
  });
}

/** platform.errors: each code well formed, with an allowed status and a title and detail in every language. */
function checkErrorDefinitions(errors: string[], value: unknown) {
  if (!isObject(value)) {
    errors.push("platform.errors must be an object of error codes");
    return;
  }
  for (const [code, def] of Object.entries(value)) {
    const at = `platform.errors.${code}`;
    if (!PLUGIN_ERROR_CODE.test(code)) errors.push(`${at}: the code must match ${PLUGIN_ERROR_CODE}`);
    if (!isObject(def)) {
      errors.push(`${at} must be an object with status and the texts of ${MANIFEST_LOCALES.join(", ")}`);
      continue;
    }
    if (!(PLUGIN_ERROR_STATUSES as readonly unknown[]).includes(def.status)) errors.push(`${at}.status must be one of ${PLUGIN_ERROR_STATUSES.join(", ")}`);
    for (const k of Object.keys(def)) if (k !== "status" && !(MANIFEST_LOCALES as readonly string[]).includes(k)) errors.push(`${at}.${k} is not a locale (known: ${MANIFEST_LOCALES.join(", ")})`);
    for (const loc of MANIFEST_LOCALES) {
      const t = def[loc];
      if (!isObject(t) || !isNonEmptyString(t.title) || !isNonEmptyString(t.detail)) errors.push(`${at}["${loc}"] must have a non-empty title and detail`);
    }
  }
}

/** A fastest-validator schema compiles, or the reason it does not. */
function settingsSchemaError(schema: Record<string, unknown>): string | null {
  try {
    new Validator().compile(schema as never);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Validates a plugin's package.json (already parsed) and returns its manifest, or every
 * problem found, each naming its field (`platform.coreApi must be a semver range`).
 * It does not check the coreApi range against this core: see isCoreApiCompatible.
 */
export function validateManifest(pkgJson: unknown): ManifestResult {
  const errors: string[] = [];
  if (!isObject(pkgJson)) return { ok: false, errors: ["package.json must be a JSON object"] };

  if (!isNonEmptyString(pkgJson.name)) errors.push("name must be a non-empty string");
  if (typeof pkgJson.version !== "string" || semver.valid(pkgJson.version) === null) errors.push(`version must be a semver version (got ${quote(pkgJson.version)})`);

  const p = pkgJson.platform;
  if (!isObject(p)) return { ok: false, errors: [...errors, "platform must be an object (the plugin manifest)"] };

  for (const k of Object.keys(p)) if (!PLATFORM_FIELDS.includes(k)) errors.push(`platform.${k} is not a manifest field (known: ${PLATFORM_FIELDS.join(", ")})`);

  if (!isNonEmptyString(p.id)) errors.push("platform.id must be a non-empty string");
  else if (!PLUGIN_ID_PATTERN.test(p.id) || p.id.length > PLUGIN_ID_MAX) errors.push(`platform.id ${quote(p.id)} must be kebab-case (e.g. "channel-webchat"), at most ${PLUGIN_ID_MAX} characters`);
  else if (RESERVED_PLUGIN_IDS.includes(p.id)) errors.push(`platform.id ${quote(p.id)} is a name of the core's own (reserved: ${RESERVED_PLUGIN_IDS.join(", ")})`);

  if (!(PLUGIN_KINDS as readonly unknown[]).includes(p.kind)) errors.push(`platform.kind must be one of ${PLUGIN_KINDS.join(", ")} (got ${quote(p.kind)})`);
  if (!(PLUGIN_TIERS as readonly unknown[]).includes(p.tier)) errors.push(`platform.tier must be one of ${PLUGIN_TIERS.join(", ")} (got ${quote(p.tier)})`);

  if (typeof p.coreApi !== "string" || !p.coreApi.trim() || semver.validRange(p.coreApi) === null) errors.push(`platform.coreApi must be a semver range, e.g. "^1.0.0" (got ${quote(p.coreApi)})`);

  if (!isObject(p.displayName)) errors.push('platform.displayName must be an object of texts by locale ("pt-BR" required)');
  else {
    if (!isNonEmptyString(p.displayName["pt-BR"])) errors.push('platform.displayName["pt-BR"] must be a non-empty string');
    for (const [k, v] of Object.entries(p.displayName)) {
      if (!(MANIFEST_LOCALES as readonly string[]).includes(k)) errors.push(`platform.displayName.${k} is not a locale (known: ${MANIFEST_LOCALES.join(", ")})`);
      else if (k !== "pt-BR" && !isNonEmptyString(v)) errors.push(`platform.displayName.${k} must be a non-empty string`);
    }
  }

  if (p.ui !== undefined) {
    if (!isObject(p.ui)) errors.push("platform.ui must be an object");
    else {
      for (const k of Object.keys(p.ui)) if (!UI_FIELDS.includes(k)) errors.push(`platform.ui.${k} is not a ui field (known: ${UI_FIELDS.join(", ")})`);
      if (p.ui.remoteEntry !== undefined && (!isNonEmptyString(p.ui.remoteEntry) || p.ui.remoteEntry.includes(".."))) errors.push("platform.ui.remoteEntry must be a relative file path without '..'");
      checkStringList(errors, "platform.ui.exposes", p.ui.exposes, { pattern: /^[A-Za-z][A-Za-z0-9]*$/ });
      if (p.ui.routes !== undefined) checkStringList(errors, "platform.ui.routes", p.ui.routes, { pattern: UI_ROUTE_PATTERN });
      if (p.ui.routeTiers !== undefined) checkRouteTiers(errors, p.ui.routeTiers, p.ui.routes, p.tier);
    }
  }

  if (p.settingsSchema !== undefined) {
    if (!isObject(p.settingsSchema)) errors.push("platform.settingsSchema must be a fastest-validator schema object");
    else {
      const why = settingsSchemaError(p.settingsSchema);
      if (why) errors.push(`platform.settingsSchema is not a valid fastest-validator schema: ${why}`);
    }
  }

  if (p.permissions !== undefined) checkStringList(errors, "platform.permissions", p.permissions);
  if (p.profiles !== undefined) checkStringList(errors, "platform.profiles", p.profiles, { allowed: PLUGIN_PROFILES, nonEmpty: true });

  if (p.kind === "channel") {
    if (!isObject(p.channel)) errors.push("platform.channel must be an object with capabilities when kind is channel");
    else {
      for (const k of Object.keys(p.channel)) if (!CHANNEL_FIELDS.includes(k)) errors.push(`platform.channel.${k} is not a channel field (known: ${CHANNEL_FIELDS.join(", ")})`);
      checkStringList(errors, "platform.channel.capabilities", p.channel.capabilities, { allowed: CHANNEL_CAPABILITIES, nonEmpty: true });
      if (p.channel.type !== undefined && (!isNonEmptyString(p.channel.type) || !/^[A-Za-z0-9_-]{1,64}$/.test(p.channel.type))) {
        errors.push("platform.channel.type must be 1-64 letters, digits, '-' or '_'");
      }
      for (const flag of CHANNEL_FLAGS) if (p.channel[flag] !== undefined && typeof p.channel[flag] !== "boolean") errors.push(`platform.channel.${flag} must be true or false`);
      const w = p.channel.serviceWindowHours;
      if (w !== undefined && (typeof w !== "number" || !Number.isInteger(w) || w < 1 || w > 24 * 30)) errors.push("platform.channel.serviceWindowHours must be a whole number of hours from 1 to 720");
      if (p.channel.templates === true && !(Array.isArray(p.channel.capabilities) && p.channel.capabilities.includes("template"))) errors.push('platform.channel.templates needs the capability "template"');
    }
  } else if (p.channel !== undefined && (PLUGIN_KINDS as readonly unknown[]).includes(p.kind)) {
    errors.push("platform.channel is only for plugins of kind channel");
  }

  if (p.icon !== undefined) {
    const named = (PLUGIN_ICONS as readonly unknown[]).includes(p.icon);
    if (!named && (typeof p.icon !== "string" || p.icon.length > PLUGIN_ICON_MAX || !PLUGIN_ICON_URL.test(p.icon))) {
      errors.push(`platform.icon must be one of ${PLUGIN_ICONS.join(", ")} or an https: or data:image URL of at most ${PLUGIN_ICON_MAX} characters (got ${quote(typeof p.icon === "string" ? p.icon.slice(0, 60) : p.icon)})`);
    }
  }
  if (p.color !== undefined && (typeof p.color !== "string" || !PLUGIN_COLOR.test(p.color))) errors.push(`platform.color must be a colour as #rrggbb (got ${quote(p.color)})`);

  if (p.errors !== undefined) checkErrorDefinitions(errors, p.errors);

  if (errors.length) return { ok: false, errors };

  const manifest: PluginManifest = {
    packageName: pkgJson.name as string,
    version: pkgJson.version as string,
    id: p.id as string,
    kind: p.kind as PluginKind,
    tier: p.tier as PluginTier,
    coreApi: p.coreApi as string,
    displayName: { ...(p.displayName as DisplayName) },
  };
  if (p.ui !== undefined) {
    const ui = p.ui as unknown as PluginUi;
    manifest.ui = { ...ui, exposes: [...ui.exposes], ...(ui.routes ? { routes: [...ui.routes] } : {}), ...(ui.routeTiers ? { routeTiers: { ...ui.routeTiers } } : {}) };
  }
  if (p.settingsSchema !== undefined) manifest.settingsSchema = p.settingsSchema as Record<string, unknown>;
  if (p.permissions !== undefined) manifest.permissions = [...(p.permissions as string[])];
  if (p.profiles !== undefined) manifest.profiles = [...(p.profiles as PluginProfile[])];
  if (p.icon !== undefined) manifest.icon = p.icon as string;
  if (p.color !== undefined) manifest.color = (p.color as string).toLowerCase();
  if (p.errors !== undefined) manifest.errors = JSON.parse(JSON.stringify(p.errors)) as Record<string, PluginErrorDefinition>;
  if (p.channel !== undefined) {
    const ch = p.channel as unknown as ChannelManifest;
    manifest.channel = { capabilities: [...ch.capabilities], ...(ch.type !== undefined ? { type: ch.type } : {}) };
    for (const flag of CHANNEL_FLAGS) if (ch[flag]) manifest.channel[flag] = true;
    if (ch.serviceWindowHours !== undefined) manifest.channel.serviceWindowHours = ch.serviceWindowHours;
  }
  return { ok: true, manifest };
}

/** The package.json shape a manifest comes from (the inverse of validateManifest). */
export function toPackageJson(manifest: PluginManifest): { name: string; version: string; platform: PlatformBlock } {
  const { packageName, version, ...platform } = manifest;
  return { name: packageName, version, platform };
}

/** ui.routeTiers: each key a declared route, each value a tier above the plugin's own. */
function checkRouteTiers(errors: string[], routeTiers: unknown, routes: unknown, tier: unknown): void {
  if (!isObject(routeTiers)) {
    errors.push("platform.ui.routeTiers must be an object of route → tier");
    return;
  }
  const declared = Array.isArray(routes) ? routes : [];
  const own = (PLUGIN_TIERS as readonly unknown[]).indexOf(tier);
  for (const [route, t] of Object.entries(routeTiers)) {
    if (!declared.includes(route)) errors.push(`platform.ui.routeTiers.${route} is not one of platform.ui.routes`);
    const at = (PLUGIN_TIERS as readonly unknown[]).indexOf(t);
    if (at < 0) errors.push(`platform.ui.routeTiers.${route} must be one of ${PLUGIN_TIERS.join(", ")} (got ${quote(t)})`);
    else if (own >= 0 && at <= own) errors.push(`platform.ui.routeTiers.${route} must be above the plugin's tier ${String(tier)} (got ${String(t)})`);
  }
}
