import { makeAutoObservable } from "mobx";
import type { UiLocale, UiProfile, UiTier } from "@openatende/plugin-sdk/ui";

/**
 * The browser-stored session of spec §3: token, sessionId, userId, profile, tenantId,
 * isMaster, username, the user object (configs with filtrosAtendimento and isDark,
 * lgpdAccepted), queues, image, tenant (termsAccepted, termsAcceptedAt), user-locale,
 * licenseCache and versionCache. Each is its own localStorage key, as the spec names them.
 */
export const STORAGE_KEYS = [
  "token",
  "refreshToken",
  "sessionId",
  "userId",
  "profile",
  "tenantId",
  "isMaster",
  "username",
  "usuario",
  "queues",
  "image",
  "tenant",
  "licenseCache",
  "versionCache",
] as const;
/** Kept across logouts: the language is the browser's, not the session's. */
export const LOCALE_KEY = "user-locale";

export interface AttendanceFilter {
  searchParam: string;
  pageNumber: number;
  status: string[];
  showAll: boolean;
  count: number | null;
  queuesIds: number[];
  withUnreadMessages: boolean;
  isNotAssignedUser: boolean;
  includeNotQueueDefined: boolean;
  /** Spec §2 ticket ordering (GET /tickets orderBy): latest activity first, or oldest first. */
  orderBy: TicketOrder;
}

export type TicketOrder = "recent" | "oldest";

/** The attendance filter's defaults (spec §3). */
export const DEFAULT_FILTER: AttendanceFilter = {
  searchParam: "",
  pageNumber: 1,
  status: ["open", "pending"],
  showAll: false,
  count: null,
  queuesIds: [],
  withUnreadMessages: false,
  isNotAssignedUser: false,
  includeNotQueueDefined: true,
  orderBy: "recent",
};

export interface UserConfigs {
  filtrosAtendimento?: Partial<AttendanceFilter>;
  isDark?: boolean;
  [k: string]: unknown;
}

export interface StoredUser {
  id: number;
  name: string;
  email: string;
  profile: UiProfile;
  configs: UserConfigs;
  lgpdAccepted?: boolean | null;
}

export interface StoredTenant {
  id: number;
  name: string;
  termsAccepted: boolean;
  termsAcceptedAt: string | null;
}

export interface LicenceCache {
  licenseType: UiTier;
  expiryDate: string | null;
  lastCheck: number;
}

export interface VersionCache {
  version: string;
  lastCheck: number;
}

/** What POST /auth/login answers. */
export interface LoginResponse {
  token: string;
  refreshToken?: string;
  sessionId: string;
  username: string;
  profile: UiProfile;
  userId: number;
  tenantId: number;
  isMaster: boolean;
  queues: number[];
  configs: UserConfigs;
  image: string | null;
  user: StoredUser;
  tenant: StoredTenant;
}

function read<T>(storage: Storage, key: string, fallback: T): T {
  const raw = storage.getItem(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return raw as unknown as T;
  }
}

const LOCALES: UiLocale[] = ["pt-BR", "en", "es", "ru"];

export function browserLocale(languages: readonly string[]): UiLocale {
  for (const l of languages) {
    const exact = LOCALES.find((x) => x.toLowerCase() === l.toLowerCase());
    if (exact) return exact;
    const base = l.slice(0, 2).toLowerCase();
    if (base === "pt") return "pt-BR";
    const match = LOCALES.find((x) => x === base);
    if (match) return match;
  }
  return "pt-BR";
}

export class SessionStore {
  token: string | null = null;
  refreshToken: string | null = null;
  sessionId: string | null = null;
  userId: number | null = null;
  profile: UiProfile | null = null;
  tenantId: number | null = null;
  isMaster = false;
  username = "";
  usuario: StoredUser | null = null;
  queues: number[] = [];
  image: string | null = null;
  tenant: StoredTenant | null = null;
  licenseCache: LicenceCache | null = null;
  versionCache: VersionCache | null = null;
  locale: UiLocale = "pt-BR";

  constructor(private storage: Storage, defaultLocale: UiLocale = "pt-BR") {
    makeAutoObservable<SessionStore, "storage">(this, { storage: false });
    this.load(defaultLocale);
  }

  private load(defaultLocale: UiLocale) {
    const s = this.storage;
    this.token = read(s, "token", null);
    this.refreshToken = read(s, "refreshToken", null);
    this.sessionId = read(s, "sessionId", null);
    this.userId = read(s, "userId", null);
    this.profile = read(s, "profile", null);
    this.tenantId = read(s, "tenantId", null);
    this.isMaster = read(s, "isMaster", false);
    this.username = read(s, "username", "");
    this.usuario = read(s, "usuario", null);
    this.queues = read(s, "queues", []);
    this.image = read(s, "image", null);
    this.tenant = read(s, "tenant", null);
    this.licenseCache = read(s, "licenseCache", null);
    this.versionCache = read(s, "versionCache", null);
    const stored = read<string | null>(s, LOCALE_KEY, null);
    this.locale = stored && LOCALES.includes(stored as UiLocale) ? (stored as UiLocale) : defaultLocale;
  }

  private save(key: (typeof STORAGE_KEYS)[number] | typeof LOCALE_KEY, value: unknown) {
    if (value === null || value === undefined) this.storage.removeItem(key);
    else this.storage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
  }

  get loggedIn(): boolean {
    return !!this.token && !!this.sessionId && this.userId !== null;
  }

  /** Spec §6: admin for profiles admin and super (support accounts log in with profile admin). */
  get isAdmin(): boolean {
    return this.profile === "admin" || this.profile === "super";
  }

  /** Admins and supervisors see every ticket and the team's dashboard. */
  get isSupervisorOrAdmin(): boolean {
    return this.isAdmin || this.profile === "supervisor";
  }

  get tier(): UiTier {
    return this.licenseCache?.licenseType ?? "FREE";
  }

  get isDark(): boolean {
    return !!this.usuario?.configs?.isDark;
  }

  get attendanceFilter(): AttendanceFilter {
    return { ...DEFAULT_FILTER, ...(this.usuario?.configs?.filtrosAtendimento ?? {}) };
  }

  signIn(r: LoginResponse) {
    this.token = r.token;
    this.refreshToken = r.refreshToken ?? null;
    this.sessionId = r.sessionId;
    this.userId = r.userId;
    this.profile = r.profile;
    this.tenantId = r.tenantId;
    this.isMaster = !!r.isMaster;
    this.username = r.username;
    this.usuario = { ...r.user, configs: r.user?.configs ?? r.configs ?? {} };
    this.queues = r.queues ?? [];
    this.image = r.image ?? null;
    this.tenant = r.tenant;
    // A new login checks the licence again.
    this.licenseCache = null;
    for (const k of STORAGE_KEYS) this.save(k, (this as unknown as Record<string, unknown>)[k]);
  }

  setToken(token: string) {
    this.token = token;
    this.save("token", token);
  }

  setConfigs(configs: UserConfigs) {
    if (!this.usuario) return;
    this.usuario = { ...this.usuario, configs };
    this.save("usuario", this.usuario);
  }

  /** Fields of the stored user object that changed on the server (e.g. lgpdAccepted). */
  setUser(patch: Partial<StoredUser>) {
    if (!this.usuario) return;
    this.usuario = { ...this.usuario, ...patch };
    this.save("usuario", this.usuario);
  }

  setLicence(cache: LicenceCache) {
    this.licenseCache = cache;
    this.save("licenseCache", cache);
  }

  setVersion(cache: VersionCache) {
    this.versionCache = cache;
    this.save("versionCache", cache);
  }

  setTenant(tenant: StoredTenant) {
    this.tenant = tenant;
    this.save("tenant", tenant);
  }

  setLocale(locale: UiLocale) {
    this.locale = locale;
    this.save(LOCALE_KEY, locale);
  }

  /** Clears everything the session stored; the language stays. */
  clear() {
    for (const k of STORAGE_KEYS) this.storage.removeItem(k);
    this.token = null;
    this.refreshToken = null;
    this.sessionId = null;
    this.userId = null;
    this.profile = null;
    this.tenantId = null;
    this.isMaster = false;
    this.username = "";
    this.usuario = null;
    this.queues = [];
    this.image = null;
    this.tenant = null;
    this.licenseCache = null;
    this.versionCache = null;
  }
}
