import { loadRemote, registerRemotes } from "@module-federation/enhanced/runtime";
import type { RegisterFn, ShellRuntime, UiLocale } from "@openatende/plugin-sdk/ui";
import type { RootStore } from "../app/root";
import type { EnabledPlugin, PluginRouteTier } from "./registry";
import { pluginRealtimeEvent } from "@openatende/plugin-sdk/ui";
// The name the plugin's build gave its container (the SDK's rsbuild-remote uses the same).
import { containerName } from "@openatende/contracts/ui-remote";

/** The runtime one plugin's register() receives. */
export function runtimeFor(root: RootStore, p: EnabledPlugin): ShellRuntime {
  const ns = `plugins.${p.id}`;
  const rt: ShellRuntime = {
    pluginId: p.id,
    api: root.api,
    get user() {
      const s = root.session;
      return { id: s.userId ?? 0, name: s.username, profile: s.profile ?? "user", isAdmin: s.isAdmin, queues: [...s.queues] };
    },
    get tenant() {
      const s = root.session;
      return { id: s.tenantId ?? 0, name: s.tenant?.name ?? "", tier: s.tier };
    },
    get locale() {
      return root.session.locale as UiLocale;
    },
    t(key, vars) {
      const own = `${ns}.${key}`;
      return root.i18n.exists(own) ? root.t(own, vars) : root.t(key, vars);
    },
    addTranslations(resources) {
      for (const [lng, texts] of Object.entries(resources)) {
        root.i18n.addResourceBundle(lng, "translation", { plugins: { [p.id]: texts } }, true, true);
      }
    },
    notify: {
      success: (m) => root.ui.notify({ kind: "success", title: m ?? root.t("common.success") }),
      info: (m) => root.ui.notify({ kind: "info", title: m }),
      error: (e) => root.notifyError(e),
    },
    addRoute: (r) => root.plugins.addRoute({ ...r, pluginId: p.id }),
    addMenuItem: (m) => root.plugins.addMenuItem({ ...m, pluginId: p.id }),
    registerConnectForm: (f) => root.plugins.addConnectForm({ ...f, pluginId: p.id }),
    registerChatListAction: (a) => root.plugins.addChatListAction({ ...a, pluginId: p.id }),
    realtime: { on: (event, handler) => root.realtime.on(pluginRealtimeEvent(p.id, event), handler) },
    addSettingsSection: (x) => root.plugins.addToSlot("settingsSections", { ...x, pluginId: p.id }),
    registerComposerAction: (x) => root.plugins.addToSlot("composerActions", { ...x, pluginId: p.id }),
    registerComposerReplacement: (x) => root.plugins.addToSlot("composerReplacements", { ...x, pluginId: p.id }),
    registerClosingDialog: (x) => root.plugins.addToSlot("closingDialogs", { ...x, pluginId: p.id }),
    registerContactPanelSection: (x) => root.plugins.addToSlot("contactPanel", { ...x, pluginId: p.id }),
    registerConnectionFormSection: (x) => root.plugins.addToSlot("connectionForm", { ...x, pluginId: p.id }),
    registerQueueFormSection: (x) => root.plugins.addToSlot("queueForm", { ...x, pluginId: p.id }),
    addDashboardBlock: (x) => root.plugins.addToSlot("dashboard", { ...x, pluginId: p.id }),
  };
  return rt;
}

/**
 * Registers and loads the remotes of the tenant's enabled plugins (GET /plugins/enabled is
 * already filtered by tier, profile and enablement, so a disabled plugin's remote entry is
 * never requested), then calls each one's register(runtime). A remote that fails to load is
 * reported and the others go on.
 */
export async function loadPluginRemotes(root: RootStore): Promise<void> {
  const [list, routeTiers] = await Promise.all([
    root.api.get<EnabledPlugin[]>("/plugins/enabled", { silent: true }),
    // The declared routes of every plugin with its tier: the licence gate names the tier of a
    // plugin route the tenant cannot reach (its remote is not loaded). Best effort.
    root.api.get<PluginRouteTier[]>("/plugins/routes", { silent: true }).catch(() => [] as PluginRouteTier[]),
  ]);
  root.plugins.setRouteTiers(routeTiers);
  root.plugins.setEnabled(list);
  const withUi = list.filter((p) => p.ui?.remoteEntry && p.ui.exposes.includes("register"));
  if (withUi.length) {
    // The host's instance (made by the build plugin, with the shared singletons) learns the remotes now.
    registerRemotes(
      withUi.map((p) => ({ name: containerName(p.id), entry: p.ui!.remoteEntry!, alias: p.id })),
      { force: true },
    );
  }
  await Promise.all(
    withUi.map(async (p) => {
      root.plugins.setState(p.id, "loading");
      try {
        const mod = (await loadRemote<{ default: RegisterFn }>(`${containerName(p.id)}/register`)) as { default: RegisterFn } | null;
        if (!mod || typeof mod.default !== "function") throw new Error("the remote exposes no register function");
        await mod.default(runtimeFor(root, p));
        root.plugins.setState(p.id, "ready");
      } catch (e) {
        root.plugins.setState(p.id, (e as Error).message || "failed");
        root.ui.notify({ kind: "error", title: root.t("errors.plugin.title"), detail: root.t("errors.plugin.detail", { id: p.id }) });
      }
    }),
  );
  root.plugins.setLoaded(true);
}
