import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerReportPage } from "@openatende/report-kit/src/ui/reports-menu";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";

/**
 * The per-user statistics' UI: /relatorios/estatisticas-atendimentos-usuarios, listed on the
 * shared /relatorios page (report-kit) with the other report plugins' pages.
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  registerReportPage(runtime, { pluginId: runtime.pluginId, path: "estatisticas-atendimentos-usuarios", title: labels("title"), description: labels("description"), load: () => import("./UsersReport") });
});
