import { makeAutoObservable } from "mobx";
import type { ChatListActionDefinition, ConnectFormDefinition, UiMenuItem, UiRoute, UiTier } from "@openatende/plugin-sdk/ui";

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

/** What the enabled plugins' remotes registered: routes, menu entries, connection forms and chat-list actions. */
export class PluginRegistry {
  enabled: EnabledPlugin[] = [];
  /** Every loaded plugin's declared routes with its tier (also those the tenant cannot reach). */
  routeTiers: PluginRouteTier[] = [];
  routes: PluginRoute[] = [];
  menu: PluginMenuItem[] = [];
  connectForms = new Map<string, PluginConnectForm>();
  chatListActions: PluginChatListAction[] = [];
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
    const declared = this.routeTiers.find((r) => r.path === p);
    if (declared) return declared.tier;
    const registered = this.routes.find((r) => r.path.replace(/^\/+/, "") === p);
    const owner = registered && this.enabled.find((e) => e.id === registered.pluginId);
    return owner ? (owner.tier as UiTier) : undefined;
  }
  addRoute(r: PluginRoute) {
    this.routes = [...this.routes.filter((x) => x.path !== r.path), r];
  }
  addMenuItem(m: PluginMenuItem) {
    this.menu = [...this.menu.filter((x) => x.key !== m.key), m];
  }
  addConnectForm(f: PluginConnectForm) {
    this.connectForms.set(f.type, f);
  }
  addChatListAction(a: PluginChatListAction) {
    this.chatListActions = [...this.chatListActions.filter((x) => !(x.pluginId === a.pluginId && x.key === a.key)), a];
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
    this.state = new Map();
    this.loaded = false;
  }
}
