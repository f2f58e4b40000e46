import { defineUi } from "@openatende/plugin-sdk/ui";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";
import { typebotConnectionSection } from "./section";

/**
 * The Typebot UI (admins only, PLUS: the manifest's profiles and tier): the settings child
 * /configuracoes/typebotapi (spec §2) and the Typebot section of every connection form (spec §3).
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  runtime.addSettingsSection({ path: "typebotapi", label: labels("settingsLabel"), load: () => import("./SettingsPage") });
  runtime.registerConnectionFormSection(typebotConnectionSection);
});
