/** Client constants of spec §8 and §9, in one place. */
export const REQUEST_TIMEOUT_MS = 120_000;
/** Positive and negative notifications (§8: both last 500 ms, with a close button; they stay while hovered). */
export const NOTICE_MS = 500;
export const CONTACT_LIMIT_BANNER_MS = 10_000;
export const LICENCE_NOTICE_MS = 5_000;
/** After a 401 the app goes to /login after this delay (not on logout). */
export const LOGIN_REDIRECT_MS = 2_000;
/** The spinner shows only when the previous request started more than 2 s earlier, and hides 1 s after the request ends. */
export const SPINNER_QUIET_MS = 2_000;
export const SPINNER_HIDE_MS = 1_000;
/** Licence and version caches (§9: 12 hours). */
export const LICENCE_CACHE_MS = 43_200_000;
export const VERSION_CACHE_MS = 43_200_000;
export const CONTACT_SEARCH_MIN = 2;
export const MESSAGE_DELETE_WINDOW_MS = 5 * 60_000;
export const FORWARD_MAX = 10;
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
export const FILES_TOTAL_MAX_BYTES = 30 * 1024 * 1024;
