import { makeAutoObservable } from "mobx";
import type {
  ChatListActionDefinition,
  ClosingDialogDefinition,
  ComposerActionDefinition,
  ComposerReplacementDefinition,
  ConnectFormDefinition,
  ContactPanelSectionDefinition,
  DashboardBlockDefinition,
  FormSectionDefinition,
  SettingsSectionDefinition,
  UiMenuItem,
  UiRoute,
  UiTier,
} from "@openatende/plugin-sdk/ui";

/** What GET /plugins/enabled answers for one plugin. */
export interface EnabledPlugin {
  id: string;
  kind: string;
  version: string;
  tier: string;
  displayName: Record<string, string>;
  service?: string;
  ui: { remoteEntry: string | null; exposes: string[] } | null;
  /** Channels: the connection type they serve. */
  channel?: { type: string };
  /** The manifest's icon (a name the shell draws, or an image URL) and colour. */
  icon?: string;
  color?: string;
}

/**
 * Whether a plugin route's path matches a location's path (slashes at either end ignored): each
 * segment equal, a `:name` segment matching any one segment ("campanhas/:id" matches "campanhas/7").
 */
export function routeMatches(route: string, path: string): boolean {
  const a = route.replace(/^\/+|\/+$/g, "").split("/");
  const b = path.replace(/^\/+|\/+$/g, "").split("/");
  return a.length === b.length && a.every((s, i) => (s.startsWith(":") ? b[i] !== "" : s === b[i]));
}

/** GET /plugins/routes: a shell path a plugin's UI declares in its manifest, and the plugin's tier. */
export interface PluginRouteTier {
  path: string;
  pluginId: string;
  tier: UiTier;
}

export interface PluginRoute extends UiRoute {
  pluginId: string;
}
export interface PluginMenuItem extends UiMenuItem {
  pluginId: string;
}
export interface PluginConnectForm extends ConnectFormDefinition {
  pluginId: string;
}

export interface PluginChatListAction extends ChatListActionDefinition {
  pluginId: string;
}

/** Any definition a plugin registered, with the plugin it came from. */
export type Owned<D> = D & { pluginId: string };

/** The slots of the screens a plugin can add to, each a list of what plugins put there. */
export interface PluginSlots {
  settingsSections: Owned<SettingsSectionDefinition>[];
  composerActions: Owned<ComposerActionDefinition>[];
  composerReplacements: Owned<ComposerReplacementDefinition>[];
  closingDialogs: Owned<ClosingDialogDefinition>[];
  contactPanel: Owned<ContactPanelSectionDefinition>[];
  connectionForm: Owned<FormSectionDefinition>[];
  queueForm: Owned<FormSectionDefinition>[];
  dashboard: Owned<DashboardBlockDefinition>[];
}

const emptySlots = (): PluginSlots => ({
  settingsSections: [],
  composerActions: [],
  composerReplacements: [],
  closingDialogs: [],
  contactPanel: [],
  connectionForm: [],
  queueForm: [],
  dashboard: [],
});

/** A slot entry's identity: settings sections by path, the others by plugin and key. */
const slotKey = (x: { pluginId: string; key?: string; path?: string }) => (x.path !== undefined && x.key === undefined ? `path:${x.path}` : `${x.pluginId}:${x.key}`);

/** What the enabled plugins' remotes registered: routes, menu entries, connection forms and chat-list actions. */
export class PluginRegistry {
  enabled: EnabledPlugin[] = [];
  /** Every loaded plugin's declared routes with its tier (also those the tenant cannot reach). */
  routeTiers: PluginRouteTier[] = [];
  routes: PluginRoute[] = [];
  menu: PluginMenuItem[] = [];
  connectForms = new Map<string, PluginConnectForm>();
  chatListActions: PluginChatListAction[] = [];
  slots: PluginSlots = emptySlots();
  /** Plugin id → "loading" | "ready" | error message. */
  state = new Map<string, string>();
  loaded = false;

  constructor() {
    makeAutoObservable(this);
  }

  setEnabled(list: EnabledPlugin[]) {
    this.enabled = list;
  }
  setRouteTiers(list: PluginRouteTier[]) {
    this.routeTiers = list;
  }
  /**
   * The tier a plugin's path needs, from its manifest: a route the plugin declares (even when
   * the tenant's tier keeps its remote away), or one an enabled remote registered.
   */
  tierOfPath(path: string): UiTier | undefined {
    const p = path.replace(/^\/+/, "").replace(/\/+$/, "");
    const declared = this.routeTiers.find((r) => routeMatches(r.path, p));
    if (declared) return declared.tier;
    const registered = this.routes.find((r) => routeMatches(r.path, p));
    const owner = registered && this.enabled.find((e) => e.id === registered.pluginId);
    return owner ? (owner.tier as UiTier) : undefined;
  }
  addRoute(r: PluginRoute) {
    this.routes = [...this.routes.filter((x) => x.path !== r.path), r];
  }
  /**
   * Menu entries in the enabled plugins' order (the core's list), whatever order their remotes
   * finished loading in: two plugins' entries never swap from one page load to the next.
   */
  addMenuItem(m: PluginMenuItem) {
    const rank = (x: PluginMenuItem) => {
      const i = this.enabled.findIndex((e) => e.id === x.pluginId);
      return i < 0 ? Number.MAX_SAFE_INTEGER : i;
    };
    const next = [...this.menu.filter((x) => x.key !== m.key), m];
    // Array.prototype.sort is stable: one plugin's entries keep their registration order.
    this.menu = next.sort((a, b) => rank(a) - rank(b));
  }
  addConnectForm(f: PluginConnectForm) {
    this.connectForms.set(f.type, f);
  }
  addChatListAction(a: PluginChatListAction) {
    this.chatListActions = [...this.chatListActions.filter((x) => !(x.pluginId === a.pluginId && x.key === a.key)), a];
  }
  /** Adds (or replaces, by key) an entry of a slot. */
  addToSlot<K extends keyof PluginSlots>(slot: K, entry: PluginSlots[K][number]) {
    const k = slotKey(entry as { pluginId: string; key?: string; path?: string });
    const list = (this.slots[slot] as Array<{ pluginId: string; key?: string; path?: string }>).filter((x) => slotKey(x) !== k);
    this.slots = { ...this.slots, [slot]: [...list, entry] };
  }
  setState(id: string, s: string) {
    this.state.set(id, s);
  }
  setLoaded(v: boolean) {
    this.loaded = v;
  }
  /** Channel types the tenant can create connections of: the enabled channel plugins. */
  get channelTypes(): EnabledPlugin[] {
    return this.enabled.filter((p) => p.kind === "channel");
  }
  /** The enabled plugin that serves a connection type (its id, or its channel type). */
  channelPlugin(type: string | null | undefined): EnabledPlugin | undefined {
    if (!type) return undefined;
    return this.enabled.find((p) => p.id === type) ?? this.enabled.find((p) => p.channel?.type === type);
  }
  reset() {
    this.enabled = [];
    this.routeTiers = [];
    this.routes = [];
    this.menu = [];
    this.connectForms = new Map();
    this.chatListActions = [];
    this.slots = emptySlots();
    this.state = new Map();
    this.loaded = false;
  }
}

/** Lists of plugins (a tenant's modules, a tenant's plugins on the marketplace) show this many per page: the bundled plugins alone are over 20, and one page lets the eye find one. */
export const PLUGINS_PAGE = 50;
