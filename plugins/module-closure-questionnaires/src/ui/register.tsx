import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerReportPage } from "@openatende/report-kit/src/ui/reports-menu";
import { ClosingDialog } from "./ClosingDialog";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";

/**
 * The closure questionnaires' UI: the settings page /configuracoes/closure-questionnaires
 * (admins), the closing dialog of the attendance screen (asked of every agent's close; it lets
 * the close go on at once when the ticket's queue has no questionnaire), and the report
 * /relatorios/relatorio-closure-questionnaires on the shared /relatorios page (report-kit),
 * for tenants whose licence reaches BASIC, as every report.
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  runtime.addSettingsSection({ path: "closure-questionnaires", label: labels("settings"), load: () => import("./SettingsPage") });
  runtime.registerClosingDialog({ key: "questionnaire", component: ClosingDialog });
  if (runtime.tenant.tier !== "FREE") registerReportPage(runtime, { pluginId: runtime.pluginId, path: "relatorio-closure-questionnaires", title: labels("reportTitle"), description: labels("reportDescription"), load: () => import("./ReportPage") });
});
