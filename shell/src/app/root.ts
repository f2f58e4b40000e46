import { makeAutoObservable, reaction } from "mobx";
import type { i18n as I18n } from "i18next";
import type { UiLocale, UiProfile, UiTier } from "@openatende/plugin-sdk/ui";
import { ApiClient, ApiError } from "../api/client";
import { ErrorCatalogue } from "../api/catalogue";
import { SessionStore, browserLocale, type LoginResponse, type UserConfigs } from "../stores/session";
import { UiStore } from "../stores/ui";
import { SettingsStore } from "../stores/settings";
import { createI18n, loadLocale, translate } from "../i18n";
import { LOCALES } from "../i18n/resources";
import { PluginRegistry } from "../plugins/registry";
import { RealtimeClient } from "../realtime/socket";
import { LICENCE_CACHE_MS, LICENCE_NOTICE_MS, VERSION_CACHE_MS } from "../ui/constants";

/** GET /load-config. */
export interface FrontConfig {
  applicationName?: string;
  logoUrl?: string | null;
  recaptchaKey?: string | null;
  pageUrl?: string | null;
  builderUrl?: string | null;
  videoList?: unknown[];
  loginPosition?: "left" | "center" | "right";
  disableRegisterButton?: boolean;
  termsUrl?: string | null;
}

const PROFILE_RANK: Record<UiProfile, number> = { user: 0, supervisor: 1, admin: 2, super: 3 };
const TIER_RANK: Record<UiTier, number> = { FREE: 0, BASIC: 1, PLUS: 2, PREMIUM: 3 };

export function tierAtLeast(have: UiTier, need: UiTier): boolean {
  return TIER_RANK[have] >= TIER_RANK[need];
}

/** The stores, the API client, i18n, the plugin registry and the socket: one per page load. */
/** The subscription to the tenant's plugin changes (outside the observable store). */
const pluginFollow: { off?: () => void } = {};

export class RootStore {
  readonly session: SessionStore;
  readonly ui = new UiStore();
  readonly i18n: I18n;
  readonly api: ApiClient;
  /** The server's error texts, for codes shown outside an error answer (a connection's inactive reason, an import row's). */
  readonly errors: ErrorCatalogue;
  readonly plugins = new PluginRegistry();
  /** The tenant's settings, loaded with the session. */
  readonly settings: SettingsStore;
  readonly realtime = new RealtimeClient();
  frontConfig: FrontConfig = {};
  /**
   * The language whose texts are loaded and current (null before the first load). `t()`
   * reads it, so observer components that translate render again when a language arrives.
   */
  textsLocale: UiLocale | null = null;
  /** Settles when the first language's texts are loaded (the first render waits for it). */
  readonly ready: Promise<void>;
  /** Set by the router once it exists; before that, navigation changes location.hash. */
  navigate: (path: string) => void = (path) => {
    window.location.hash = `#${path}`;
  };

  constructor(storage: Storage = window.localStorage, languages: readonly string[] = navigator.languages ?? []) {
    this.session = new SessionStore(storage, browserLocale(languages));
    this.i18n = createI18n(this.session.locale);
    this.api = new ApiClient({
      session: this.session,
      ui: this.ui,
      t: (k, v) => translate(this.i18n, k, v),
      navigate: (p) => this.navigate(p),
    });
    this.settings = new SettingsStore(this.api);
    this.errors = new ErrorCatalogue(this.api);
    makeAutoObservable<RootStore>(this, { session: false, ui: false, i18n: false, api: false, errors: false, plugins: false, settings: false, realtime: false, navigate: false, t: false, ready: false });
    this.ready = this.applyLocale(this.session.locale);
    reaction(
      () => this.session.locale,
      (l) => void this.applyLocale(l),
    );
    reaction(
      () => this.session.token,
      (token) => {
        if (token && this.session.sessionId) this.realtime.updateAuth({ token, sessionId: this.session.sessionId });
      },
    );
  }

  /** The shell's texts in the current language. */
  t(key: string, vars?: Record<string, unknown>): string {
    void this.textsLocale;
    return translate(this.i18n, key, vars);
  }

  /** Loads a language's texts, then switches to it (a failed load keeps the current one). */
  private async applyLocale(l: UiLocale) {
    try {
      await loadLocale(this.i18n, l);
    } catch {
      return;
    }
    // Another language was chosen while this one loaded: that one wins.
    if (this.session.locale !== l) return;
    await this.i18n.changeLanguage(l);
    this.setTextsLocale(l);
    document.documentElement.lang = l;
  }

  setTextsLocale(l: UiLocale) {
    this.textsLocale = l;
  }

  setFrontConfig(c: FrontConfig) {
    this.frontConfig = c;
  }

  setLocale(l: UiLocale) {
    this.session.setLocale(l);
  }

  can(access: UiProfile | undefined): boolean {
    if (!access) return true;
    const p = this.session.profile;
    return !!p && PROFILE_RANK[p] >= PROFILE_RANK[access];
  }

  notifyError(e: unknown) {
    if (e instanceof ApiError) {
      if (e.code === "ERR_REQUEST_TIMEOUT") return;
      this.ui.notify({ kind: "error", title: e.title, detail: e.detail });
    } else if (typeof e === "string") this.ui.notify({ kind: "error", title: e });
    else this.ui.notify({ kind: "error", title: this.t("errors.generic.title"), detail: (e as Error)?.message || this.t("errors.unidentified") });
  }

  /** The licence notice of spec §6/§8: names the tier, lasts 5 s. */
  licenceNotice(tier: UiTier) {
    this.ui.notify({ kind: "warning", title: this.t("common.licence.title"), detail: this.t("common.licence.detail", { tier }), banner: true, durationMs: LICENCE_NOTICE_MS });
  }

  async loadFrontConfig() {
    try {
      this.setFrontConfig(await this.api.get<FrontConfig>("/load-config", { silent: true }));
    } catch {
      /* the login page works without it */
    }
  }

  /** After login, or on a page load with a stored session: licence, version, plugins, socket. */
  async startSession() {
    const s = this.session;
    if (!s.loggedIn) return;
    await Promise.all([this.checkLicence(), this.checkVersion(), this.settings.load()]);
    void this.realtime.connect({ token: s.token!, sessionId: s.sessionId! });
    this.followPluginChanges(s.tenantId!);
    await this.reloadPlugins();
  }

  /**
   * `<tenantId>:plugins` (core plugins.service): a module switched, allowed or taken away by
   * the platform level, installed in a new version or removed, or a new licence. The enabled
   * list and the remotes load again (once for a burst of events), so the screen follows.
   */
  private followPluginChanges(tenantId: number) {
    pluginFollow.off?.();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = this.realtime.on(`${tenantId}:plugins`, () => {
      clearTimeout(timer);
      timer = setTimeout(() => void this.reloadPlugins(), 300);
    });
    pluginFollow.off = () => {
      clearTimeout(timer);
      off();
      pluginFollow.off = undefined;
    };
  }

  /**
   * (Re)loads the enabled plugins' remotes (GET /plugins/enabled): at the start of a session,
   * and after an admin switched a module on or off, so the menu, routes and forms follow.
   */
  async reloadPlugins() {
    this.plugins.reset();
    try {
      await (await import("../plugins/remotes")).loadPluginRemotes(this);
    } catch {
      this.plugins.setLoaded(true);
    }
  }

  /** GET /auth/license-info, cached 12 h in licenseCache (FREE when it fails). */
  async checkLicence(force = false) {
    const c = this.session.licenseCache;
    if (!force && c && Date.now() - c.lastCheck < LICENCE_CACHE_MS) return;
    try {
      const r = await this.api.get<{ licenseType: UiTier; expiryDate?: string | null }>("/auth/license-info", { silent: true });
      this.session.setLicence({ licenseType: r.licenseType ?? "FREE", expiryDate: r.expiryDate ?? null, lastCheck: Date.now() });
    } catch {
      if (this.session.loggedIn) this.session.setLicence({ licenseType: "FREE", expiryDate: null, lastCheck: Date.now() });
    }
  }

  async checkVersion() {
    const c = this.session.versionCache;
    if (c && Date.now() - c.lastCheck < VERSION_CACHE_MS) return;
    try {
      const r = await this.api.get<{ version: string }>("/version", { silent: true });
      this.session.setVersion({ version: r.version, lastCheck: Date.now() });
    } catch {
      /* shown as unknown */
    }
  }

  async login(payload: { email?: string; phoneNumber?: string; password: string }) {
    const r = await this.api.post<LoginResponse>("/auth/login", payload);
    this.session.signIn(r);
    // The language the user chose in the main area (saved in their configs) follows them.
    const lang = (r.user?.configs ?? r.configs)?.language;
    if (typeof lang === "string" && (LOCALES as readonly string[]).includes(lang) && lang !== this.session.locale) this.setLocale(lang as UiLocale);
    await this.startSession();
    return r;
  }

  /** Logs out on the server (a failure there does not keep the user in), clears the browser's session. */
  async logout() {
    try {
      await this.api.post("/auth/logout", {}, { silent: true });
    } catch {
      /* the session ends here either way */
    }
    this.realtime.disconnect();
    pluginFollow.off?.();
    this.plugins.reset();
    this.settings.reset();
    this.session.clear();
    this.navigate("/login");
  }

  /** PUT /users/{id}/configs, then the stored user object. */
  async saveConfigs(patch: UserConfigs) {
    const s = this.session;
    if (s.userId === null) return;
    const configs = { ...(s.usuario?.configs ?? {}), ...patch };
    s.setConfigs(configs);
    await this.api.put(`/users/${s.userId}/configs`, configs, { silent: true }).catch(() => undefined);
  }
}
