/**
 * What each setting key holds: the platform-wide keys (tenant 0) and the tenant general
 * settings of spec §3, with the defaults the services read. The settings service validates
 * every write against these (fastest-validator schemas).
 */

/** Global (platform) settings, spec §3 "Global settings"; tenantId 0. */
export const GLOBAL_SCHEMAS = {
  smtp: {
    host: { type: "string", min: 1, max: 255 },
    port: { type: "number", integer: true, min: 1, max: 65535 },
    secure: { type: "boolean", optional: true },
    tls: { type: "boolean", optional: true },
    user: { type: "string", optional: true, max: 255 },
    password: { type: "string", optional: true, max: 255 },
    senderName: { type: "string", optional: true, max: 120 },
    senderEmail: { type: "email" },
    $$strict: true,
  },
  frontend: {
    name: { type: "string", optional: true, max: 120 },
    logo: { type: "string", optional: true, max: 500 },
    pageUrl: { type: "string", optional: true, max: 500 },
    recaptchaKey: { type: "string", optional: true, max: 200 },
    videoList: { type: "array", optional: true, max: 100, items: { type: "object" } },
    externalPanelUrl: { type: "string", optional: true, max: 500 },
    termsUrl: { type: "string", optional: true, max: 500 },
    loginPosition: { type: "enum", values: ["left", "center", "right"], optional: true },
    disableRegisterButton: { type: "boolean", optional: true },
    $$strict: true,
  },
  system: {
    connectionLimit: { type: "number", integer: true, min: 0, optional: true },
    checkInterval: { type: "number", integer: true, min: 1, optional: true },
    deliveryMode: { type: "enum", values: ["queue", "direct", "broker"], optional: true },
    $$strict: true,
  },
  /**
   * The platform's Typebot (Globais › Typebot): the builder and viewer addresses every tenant's
   * Typebot settings default to (http or https only), and the API token (masked on the way out).
   */
  typebot: {
    builderUrl: { type: "url", optional: true, max: 500 },
    viewerUrl: { type: "url", optional: true, max: 500 },
    apiToken: { type: "string", optional: true, max: 500 },
    $$strict: true,
  },
  licence: { token: { type: "string", max: 16384 }, $$strict: true },
  /**
   * GIF search in the composer (messages/gifs): each installation brings its own GIPHY key
   * (GIPHY's beta keys allow 100 calls an hour). baseUrl points the search elsewhere (a test's
   * local GIPHY; default https://api.giphy.com).
   */
  giphy: {
    apiKey: { type: "string", max: 200, optional: true },
    baseUrl: { type: "url", optional: true, max: 500 },
    rating: { type: "enum", values: ["g", "pg", "pg-13", "r"], optional: true },
    $$strict: true,
  },
} as const;

/** Spec §9 auto-close choices, in minutes: 1, 10, 30 min; 1, 2, 4, 8, 12 h; 1, 5, 10 days; 0 = disabled. */
export const AUTO_CLOSE_MINUTES = [0, 1, 10, 30, 60, 120, 240, 480, 720, 1440, 7200, 14400] as const;

/** A wallpaper is one of the tenant's stored files, served by GET /files/:path. */
const WALLPAPER_URL = /^\/api\/files\/[^\s?#]+$/;

/** Tenant general settings, spec §3 "General settings". */
export const TENANT_SCHEMAS: Record<string, object> = {
  /**
   * The default page of the paged lists other than the attendance list: GET /contacts (at
   * most its 100) and GET /users, when the caller names no pageSize.
   */
  pageSize: { value: { type: "number", integer: true, min: 5, max: 200 } },
  /**
   * The attendance list's page (GET /tickets without pageSize, core/src/tickets/list.ts): how
   * many tickets each load of the chat list brings (the shell's list asks for no other).
   */
  ticketListLimit: { value: { type: "number", integer: true, min: 10, max: 1000 } },
  noReopenMinutes: { value: { type: "number", integer: true, min: 0, max: 525600 } },
  /**
   * SLA thresholds in minutes: the attendance list colours each waiting or open ticket by its
   * age since it was created — green up to `green`, yellow up to `yellow`, red past it (and
   * from `red` on it reads overdue); the reports use the same thresholds.
   */
  sla: { value: { type: "object", strict: true, props: { green: "number|min:0", yellow: "number|min:0", red: "number|min:0" } } },
  /** The main menu shows its items' labels only, without the description under each. */
  hideMenuSubtitles: { value: "boolean" },
  /** Ticket protocol format (spec §3): prefix + date + separator + id + suffix, or id first. */
  protocol: {
    value: {
      type: "object",
      strict: true,
      props: {
        dateFormat: { type: "enum", values: ["", "YYYYMMDD", "YYMMDD", "YYYYMM", "YYYY"] },
        idPosition: { type: "enum", values: ["start", "end"] },
        prefix: { type: "string", max: 10, optional: true },
        suffix: { type: "string", max: 10, optional: true },
        separator: { type: "string", max: 3, optional: true },
      },
    },
  },
  // Visibility settings of spec §6.
  hideContactInfo: { value: "boolean" },
  ticketsOwnerOnly: { value: "boolean" },
  botAndUnassignedAdminOnly: { value: "boolean" },
  groupsHiddenForUsers: { value: { type: "array", items: "number", max: 1000 } },
  forceWalletDelivery: { value: "boolean" },
  /** Spec §6: admins force the agents' signature on or off; "user" leaves it to each agent's toggle. */
  signature: { value: { type: "enum", values: ["user", "on", "off"] } },
  /**
   * Auto-close (spec §3 General settings, §9 choices): a ticket with no message either way for
   * `minutes` is closed with `message` (0: disabled). core/src/automation runs it.
   */
  autoClose: {
    value: {
      type: "object",
      strict: true,
      props: {
        minutes: { type: "enum", values: AUTO_CLOSE_MINUTES },
        message: { type: "string", max: 5000, optional: true, nullable: true },
      },
    },
  },
  /** Spec §3 Smart-close settings (types in core/src/business-time/types.ts SmartCloseSettings). */
  smartClose: {
    value: {
      type: "object",
      strict: true,
      props: {
        enabled: "boolean",
        window24h: "boolean",
        outOfOfficeMessage: { type: "string", max: 5000, optional: true, nullable: true },
        noNextDayMessage: { type: "string", max: 5000, optional: true, nullable: true },
        lunchMessage: { type: "string", max: 5000, optional: true, nullable: true },
      },
    },
  },
  /** Menu colours for the light and dark themes ("#rrggbb"; null: the theme's own). */
  menuColors: {
    value: {
      type: "object",
      strict: true,
      props: {
        light: { type: "string", pattern: /^#[0-9a-fA-F]{6}$/, optional: true, nullable: true },
        dark: { type: "string", pattern: /^#[0-9a-fA-F]{6}$/, optional: true, nullable: true },
      },
    },
  },
  /**
   * Chat wallpapers for the light and dark themes: the stored image's URL (uploaded by
   * POST /settings/wallpaper/:theme, image only), null for none. Only the platform's own file
   * URLs: an outside address would make every agent's browser fetch it (tracking, mixed content).
   */
  wallpapers: {
    value: {
      type: "object",
      strict: true,
      props: {
        light: { type: "string", max: 500, pattern: WALLPAPER_URL, optional: true, nullable: true },
        dark: { type: "string", max: 500, pattern: WALLPAPER_URL, optional: true, nullable: true },
      },
    },
  },
};

/**
 * Rules across a setting's fields that a schema cannot say: the first broken one as the
 * validation entry ({ field, rule }) the settings service answers with ERR_VALIDATION.
 */
export const TENANT_CHECKS: Record<string, (value: never) => { field: string; rule: string } | null> = {
  /** SLA thresholds are ordered: green < yellow < red (spec §9). */
  sla: (v: { green: number; yellow: number; red: number }) =>
    v.yellow <= v.green ? { field: "value.yellow", rule: "slaOrder" } : v.red <= v.yellow ? { field: "value.red", rule: "slaOrder" } : null,
};


/** Defaults of the tenant settings the services read. */
export const TENANT_DEFAULTS: Record<string, unknown> = {
  pageSize: 40,
  ticketListLimit: 40,
  noReopenMinutes: 0,
  protocol: { dateFormat: "YYYYMMDD", idPosition: "end", prefix: "", suffix: "", separator: "" },
  hideContactInfo: false,
  ticketsOwnerOnly: false,
  botAndUnassignedAdminOnly: false,
  groupsHiddenForUsers: [],
  forceWalletDelivery: false,
  signature: "user",
  autoClose: { minutes: 0, message: null },
  smartClose: { enabled: false, window24h: false, outOfOfficeMessage: null, noNextDayMessage: null, lunchMessage: null },
  menuColors: { light: null, dark: null },
  wallpapers: { light: null, dark: null },
  sla: { green: 30, yellow: 60, red: 120 },
  hideMenuSubtitles: false,
};
