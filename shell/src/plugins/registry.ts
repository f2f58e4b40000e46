import { makeAutoObservable } from "mobx";
import type { ChatListActionDefinition, ConnectFormDefinition, UiMenuItem, UiRoute } from "@openatende/plugin-sdk/ui";

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
    this.routes = [];
    this.menu = [];
    this.connectForms = new Map();
    this.chatListActions = [];
    this.state = new Map();
    this.loaded = false;
  }
}
