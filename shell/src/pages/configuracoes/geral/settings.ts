import type { ProtocolFormat } from "@openatende/contracts/protocol";

/**
 * The tenant's general settings as the core stores them (core/src/settings/schemas.ts) and
 * the defaults it applies to a key never saved (TENANT_DEFAULTS there): GET /settings answers
 * only the stored keys, so the page shows these for the others.
 */
export interface GeneralSettings {
  signature: "user" | "on" | "off";
  pageSize: number;
  ticketListLimit: number;
  noReopenMinutes: number;
  autoClose: { minutes: number; message?: string | null };
  sla: { green: number; yellow: number; red: number };
  protocol: ProtocolFormat;
  menuColors: { light?: string | null; dark?: string | null };
  hideMenuSubtitles: boolean;
  wallpapers: { light?: string | null; dark?: string | null };
  hideContactInfo: boolean;
  ticketsOwnerOnly: boolean;
  botAndUnassignedAdminOnly: boolean;
  groupsHiddenForUsers: number[];
  forceWalletDelivery: boolean;
}
export type SettingKey = keyof GeneralSettings;

export const DEFAULTS: GeneralSettings = {
  signature: "user",
  pageSize: 40,
  ticketListLimit: 40,
  noReopenMinutes: 0,
  autoClose: { minutes: 0, message: null },
  sla: { green: 30, yellow: 60, red: 120 },
  protocol: { dateFormat: "YYYYMMDD", idPosition: "end", prefix: "", suffix: "", separator: "" },
  menuColors: { light: null, dark: null },
  hideMenuSubtitles: false,
  wallpapers: { light: null, dark: null },
  hideContactInfo: false,
  ticketsOwnerOnly: false,
  botAndUnassignedAdminOnly: false,
  groupsHiddenForUsers: [],
  forceWalletDelivery: false,
};

/** Spec §9 auto-close choices in minutes (0: disabled), as the core's AUTO_CLOSE_MINUTES. */
export const AUTO_CLOSE_MINUTES = [0, 1, 10, 30, 60, 120, 240, 480, 720, 1440, 7200, 14400] as const;

/** The wallpaper's spec §3/§9 rules, checked before the upload (the core checks them again). */
export const WALLPAPER_MAX_BYTES = 5 * 1024 * 1024;
export const WALLPAPER_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];
