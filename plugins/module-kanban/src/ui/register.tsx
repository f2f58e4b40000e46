import { lazy } from "react";
import { defineUi } from "@openatende/plugin-sdk/ui";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";

/** The board's icon in the menu: three columns of cards, in the plugin's colour. */
export const MENU_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='16'%20height='16'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%237c4dff'%20stroke-width='2'%20stroke-linecap='round'%3E%3Crect%20x='3'%20y='4'%20width='5'%20height='16'%20rx='1'/%3E%3Crect%20x='10'%20y='4'%20width='5'%20height='10'%20rx='1'/%3E%3Crect%20x='17'%20y='4'%20width='4'%20height='13'%20rx='1'/%3E%3C/svg%3E";

/**
 * The kanban's UI: the /kanban page (the lead board) and its menu entry, for every profile
 * (spec §2 lists /kanban in the main area; §6 gates it by the PLUS tier, which the shell
 * applies from the manifest before this remote is even loaded).
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  runtime.addRoute({ path: "kanban", load: () => import("./KanbanPage") });
  runtime.addMenuItem({ key: "kanban", path: "kanban", label: labels("menu"), icon: MENU_ICON });
});
