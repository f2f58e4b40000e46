import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerReportPage } from "@openatende/report-kit/src/ui/reports-menu";
import { EXPORT_TEXTS, type PageKey } from "../texts";
import { texts } from "./texts";
import { setRuntime } from "./runtime";

const PATHS: Record<PageKey, string> = { list: "lista-contatos", tags: "contatos-por-etiquetas", states: "contatos-por-estado" };
const label = (pick: (t: (typeof EXPORT_TEXTS)["en"]) => string) => ({ "pt-BR": pick(EXPORT_TEXTS["pt-BR"]), en: pick(EXPORT_TEXTS.en), es: pick(EXPORT_TEXTS.es), ru: pick(EXPORT_TEXTS.ru) });

/** The contact reports' UI: three pages under /relatorios, listed on its shared menu page (report-kit). */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  for (const kind of Object.keys(PATHS) as PageKey[]) {
    registerReportPage(runtime, {
      pluginId: runtime.pluginId,
      path: PATHS[kind],
      title: label((t) => t.titles[kind]),
      description: label((t) => t.descriptions[kind]),
      load: () => import("./ContactsReport").then((m) => ({ default: m.PAGES[kind] })),
    });
  }
});
