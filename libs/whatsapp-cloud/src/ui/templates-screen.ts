import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { templateLabel, templateScreenTexts } from "./texts-templates";

/**
 * Settings › Templates (/configuracoes/templates, spec §2; PLUS by the shell's tier table, since
 * the FREE Cloud API plugins do not claim the path in their manifests): the message templates
 * of the WhatsApp Cloud connections (channel-waba and channel-360 both register it).
 *
 * One screen for both: the shell keeps one settings section per path (the later registration
 * replaces the earlier, shell/src/plugins/registry.ts), and each plugin's UI remote carries its
 * own copy of this library, so the runtimes of every Cloud plugin that registered are kept on
 * the page's global object: the page lists the connections of all their types and hears the
 * template status pushes of each. A settings page is a component without props, so it reads
 * them here.
 */
const SHARED = "__openatendeWhatsappCloudScreens";

function shared(): ShellRuntime[] {
  const g = globalThis as unknown as Record<string, ShellRuntime[] | undefined>;
  return (g[SHARED] ??= []);
}

export function registerTemplatesScreen(runtime: ShellRuntime): void {
  const list = shared();
  const at = list.findIndex((r) => r.pluginId === runtime.pluginId);
  if (at >= 0) list.splice(at, 1, runtime);
  else list.push(runtime);
  runtime.addTranslations(templateScreenTexts);
  runtime.addSettingsSection({ path: "templates", label: templateLabel("settingsLabel"), load: () => import("./TemplatesPage") });
}

/** The runtime the page speaks through (texts, API): the first Cloud plugin's. */
export function screenRuntime(): ShellRuntime {
  const [first] = shared();
  if (!first) throw new Error("whatsapp-cloud: no plugin registered the templates screen");
  return first;
}

/** The connection types the page lists: every Cloud plugin that registered the screen. */
export function screenTypes(): string[] {
  return shared().map((r) => r.pluginId);
}

/** Hears `event` pushed by any of those plugins; answers the unsubscribe. */
export function onScreenEvent(event: string, handler: (payload: unknown) => void): () => void {
  const offs = shared().map((r) => r.realtime.on(event, handler));
  return () => offs.forEach((off) => (typeof off === "function" ? off() : undefined));
}
