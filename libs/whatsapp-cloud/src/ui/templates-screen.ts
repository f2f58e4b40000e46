import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import { templateLabel, templateScreenTexts } from "./texts-templates";

/**
 * Settings › Templates (/configuracoes/templates, spec §2; PLUS by the shell's tier table, since
 * this FREE plugin does not claim the path in its manifest): the WABA connections' message
 * templates. A settings page is a component without props, so it reads the runtime kept here.
 */
let current: ShellRuntime | null = null;

export function registerTemplatesScreen(runtime: ShellRuntime): void {
  current = runtime;
  runtime.addTranslations(templateScreenTexts);
  runtime.addSettingsSection({ path: "templates", label: templateLabel("settingsLabel"), load: () => import("./TemplatesPage") });
}

export function screenRuntime(): ShellRuntime {
  if (!current) throw new Error("channel-waba: register() has not run");
  return current;
}
