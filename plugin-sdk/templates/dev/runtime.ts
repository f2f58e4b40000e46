/**
 * The stub ShellRuntime of `plugin-sdk dev`: what the shell hands a plugin's register(),
 * without a server. The api logs every call and answers from a small in-memory table;
 * translations, notices and what the plugin registers are kept in a store the dev page shows.
 */
import type {
  ChatListActionDefinition,
  ConnectFormDefinition,
  ShellRuntime,
  UiApi,
  UiApiError,
  UiLocale,
  UiMenuItem,
  UiRequestOptions,
  UiRoute,
} from "@openatende/plugin-sdk/ui";

export const LOCALES: UiLocale[] = ["pt-BR", "en", "es", "ru"];

export interface ApiCall {
  n: number;
  method: string;
  path: string;
  query?: UiRequestOptions["query"];
  body?: unknown;
  status: number;
  answer: unknown;
}

export interface Notice {
  kind: "success" | "info" | "error";
  text: string;
}

export interface DevState {
  locale: UiLocale;
  forms: ConnectFormDefinition[];
  chatListActions: ChatListActionDefinition[];
  routes: UiRoute[];
  menu: UiMenuItem[];
  /** What the plugin put in the shell's other slots (settings sections, composer actions, …), by slot. */
  slots: Record<string, Array<{ key?: string; path?: string }>>;
  calls: ApiCall[];
  notices: Notice[];
  /** Bumped on every change, so React sees a new snapshot. */
  version: number;
}

type Resources = Partial<Record<UiLocale, Record<string, unknown>>>;

export interface DevRuntime {
  runtime: ShellRuntime;
  getState(): DevState;
  subscribe(listener: () => void): () => void;
  setLocale(locale: UiLocale): void;
  /** Where notices go (the page plugs antd's message API in). */
  onNotice(show: (n: Notice) => void): void;
  /** The in-memory table the api answers from: "<path>" → value. */
  table: Map<string, unknown>;
}

const SHELL_TEXTS: Resources = {
  "pt-BR": { success: "Tudo certo..." },
  en: { success: "All good..." },
  es: { success: "Todo bien..." },
  ru: { success: "Всё в порядке..." },
};

function lookup(res: Record<string, unknown> | undefined, key: string): string | undefined {
  if (!res) return undefined;
  if (typeof res[key] === "string") return res[key] as string;
  let cur: unknown = res;
  for (const part of key.split(".")) {
    if (!cur || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return typeof cur === "string" ? cur : undefined;
}

function deepMerge(into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> {
  for (const [k, v] of Object.entries(from)) {
    const cur = into[k];
    into[k] = v && typeof v === "object" && !Array.isArray(v) && cur && typeof cur === "object" ? deepMerge({ ...(cur as Record<string, unknown>) }, v as Record<string, unknown>) : v;
  }
  return into;
}

function apiError(status: number, code: string, title: string, detail: string, data: Record<string, unknown> = {}): UiApiError {
  return Object.assign(new Error(`${title}: ${detail}`), { name: "UiApiError", status, code, title, detail, data });
}

export function createDevRuntime(plugin: { id: string; tenantTier?: string }): DevRuntime {
  const listeners = new Set<() => void>();
  let showNotice: (n: Notice) => void = () => undefined;
  const translations: Resources = {};
  let state: DevState = { locale: "pt-BR", forms: [], chatListActions: [], routes: [], menu: [], slots: {}, calls: [], notices: [], version: 0 };
  const update = (patch: Partial<DevState>) => {
    state = { ...state, ...patch, version: state.version + 1 };
    listeners.forEach((l) => l());
  };

  const user = { id: 1, name: "Dev Admin", profile: "admin" as const, isAdmin: true, queues: [1] };
  const tenant = { id: 1, name: "Dev tenant", tier: "PREMIUM" as const };
  const table = new Map<string, unknown>([
    ["/auth/me", user],
    ["/tenant", tenant],
    ["/connections", []],
    ["/plugins/enabled", [{ id: plugin.id }]],
  ]);

  const t = (key: string, vars?: Record<string, unknown>): string => {
    const text = lookup(translations[state.locale], key) ?? lookup(translations["pt-BR"], key) ?? lookup(SHELL_TEXTS[state.locale], key) ?? key;
    return vars ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole)) : text;
  };

  const notify: ShellRuntime["notify"] = {
    success(message) {
      const n: Notice = { kind: "success", text: message ?? t("success") };
      update({ notices: [...state.notices, n] });
      showNotice(n);
    },
    info(message) {
      const n: Notice = { kind: "info", text: message };
      update({ notices: [...state.notices, n] });
      showNotice(n);
    },
    error(err) {
      const e = err as Partial<UiApiError>;
      const n: Notice = { kind: "error", text: e && e.title ? `${e.title}: ${e.detail ?? ""}` : err instanceof Error ? err.message : String(err) };
      update({ notices: [...state.notices, n] });
      showNotice(n);
    },
  };

  let n = 0;
  async function request<T>(method: string, path: string, body: unknown, opts: UiRequestOptions = {}): Promise<T> {
    const key = path.replace(/\/+$/, "") || "/";
    let status = 200;
    let answer: unknown;
    const current = table.get(key);
    if (method === "GET") {
      if (table.has(key)) answer = current;
      else status = 404;
    } else if (method === "POST") {
      if (Array.isArray(current)) {
        answer = { id: current.length + 1, ...(body as object) };
        table.set(key, [...current, answer]);
      } else {
        answer = body ?? {};
        table.set(key, answer);
      }
      status = 201;
    } else if (method === "PUT" || method === "PATCH") {
      answer = method === "PATCH" && current && typeof current === "object" ? { ...(current as object), ...(body as object) } : body;
      table.set(key, answer);
    } else {
      if (table.delete(key)) answer = { ok: true };
      else status = 404;
    }
    if (status === 404) answer = { error: "ERR_ROUTE_NOT_FOUND" };
    const call: ApiCall = { n: ++n, method, path, ...(opts.query ? { query: opts.query } : {}), ...(body !== undefined ? { body } : {}), status, answer };
    update({ calls: [...state.calls, call] });
    // eslint-disable-next-line no-console
    console.info(`[plugin-sdk dev] api ${method} ${path} → ${status}`, body ?? "");
    if (status === 404) {
      const err = apiError(404, "ERR_ROUTE_NOT_FOUND", "Not found", `The dev runtime has no answer for ${method} ${key}: add one to the stub table.`, { path: key });
      if (!opts.silent) notify.error(err);
      throw err;
    }
    if (opts.successNotice) notify.success(typeof opts.successNotice === "string" ? opts.successNotice : undefined);
    return answer as T;
  }

  const api: UiApi = {
    get: (path, opts) => request("GET", path, undefined, opts),
    post: (path, body, opts) => request("POST", path, body, opts),
    put: (path, body, opts) => request("PUT", path, body, opts),
    patch: (path, body, opts) => request("PATCH", path, body, opts),
    delete: (path, opts) => request("DELETE", path, undefined, opts),
  };

  const runtime: ShellRuntime = {
    pluginId: plugin.id,
    api,
    user,
    tenant,
    get locale() {
      return state.locale;
    },
    t,
    addTranslations(resources) {
      for (const [locale, res] of Object.entries(resources) as Array<[UiLocale, Record<string, unknown>]>) {
        translations[locale] = deepMerge({ ...(translations[locale] ?? {}) }, res);
      }
      update({});
    },
    notify,
    addRoute(route) {
      update({ routes: [...state.routes, route] });
    },
    addMenuItem(item) {
      update({ menu: [...state.menu, item] });
    },
    registerConnectForm(form) {
      update({ forms: [...state.forms.filter((f) => f.type !== form.type), form] });
    },
    registerChatListAction(action) {
      update({ chatListActions: [...state.chatListActions.filter((a) => a.key !== action.key), action] });
    },
    realtime: {
      // The dev page has no core pushing: the plugin subscribes, nothing arrives.
      on: () => () => undefined,
    },
    addSettingsSection: (x) => slot("settingsSections", x),
    registerComposerAction: (x) => slot("composerActions", x),
    registerComposerReplacement: (x) => slot("composerReplacements", x),
    registerClosingDialog: (x) => slot("closingDialogs", x),
    registerContactPanelSection: (x) => slot("contactPanel", x),
    registerConnectionFormSection: (x) => slot("connectionForm", x),
    registerQueueFormSection: (x) => slot("queueForm", x),
    addDashboardBlock: (x) => slot("dashboard", x),
  };

  function slot(name: string, entry: { key?: string; path?: string }) {
    const id = (e: { key?: string; path?: string }) => e.key ?? e.path;
    update({ slots: { ...state.slots, [name]: [...(state.slots[name] ?? []).filter((e) => id(e) !== id(entry)), entry] } });
  }

  return {
    runtime,
    table,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setLocale(locale) {
      update({ locale });
    },
    onNotice(show) {
      showNotice = show;
    },
  };
}
