import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerReportPage } from "@openatende/report-kit/src/ui/reports-menu";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";

/**
 * The birthdays report's UI: its page /relatorios/aniversariantes-do-mes, listed on the shared
 * /relatorios menu page (report-kit) with the other report plugins' pages. Supervisors and
 * admins (the routes' access); BASIC, applied by the shell from the manifest.
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  registerReportPage(runtime, { pluginId: runtime.pluginId, path: "aniversariantes-do-mes", title: labels("title"), description: labels("description"), load: () => import("./BirthdaysPage") });
});
