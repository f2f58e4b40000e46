import { defineUi } from "@openatende/plugin-sdk/ui";
import { menuLabel, texts } from "./texts";
import { setRuntime } from "./runtime";

/**
 * The live panel's UI: /painel-atendimentos and its own menu entry (it is a wall-board, not one
 * of the /relatorios pages), for supervisors and admins.
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  runtime.addRoute({ path: "painel-atendimentos", access: "supervisor", load: () => import("./Panel") });
  runtime.addMenuItem({ key: "painel-atendimentos", path: "painel-atendimentos", label: menuLabel(), access: "supervisor" });
});
