import { defineUi } from "@openatende/plugin-sdk/ui";
import { lazy } from "react";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";

const HomeBlock = lazy(() => import("./HomeBlock"));

/**
 * The NPS UI: the settings child /configuracoes/nps (admins, like every settings page) and
 * the NPS block of /home (supervisors and admins: the team's figures).
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  runtime.addSettingsSection({ path: "nps", label: labels("settingsLabel"), load: () => import("./SettingsPage") });
  runtime.addDashboardBlock({ key: "nps", title: labels("blockTitle"), access: "supervisor", component: HomeBlock });
});
