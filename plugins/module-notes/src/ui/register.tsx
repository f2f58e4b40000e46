import { defineUi } from "@openatende/plugin-sdk/ui";
import { lazy } from "react";
import { menuLabel, panelLabel, texts } from "./texts";

const ContactNotes = lazy(() => import("./ContactNotes"));

/** A notepad drawn in the module's colour (the menu's icon; the manifest's is white on that colour). */
const MENU_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%23d97706'%20stroke-width='2'%20stroke-linecap='round'%20stroke-linejoin='round'%3E%3Cpath%20d='M6%203h9l4%204v14H6z'/%3E%3Cpath%20d='M15%203v4h4'/%3E%3Cpath%20d='M9%2012h7M9%2016h5'/%3E%3C/svg%3E";

/** The notes module's UI: the /notas page, its menu entry, and the contact panel's "Notes" section. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.addRoute({
    path: "notas",
    // The shell draws a route's page without props: the page gets this plugin's runtime here.
    load: () => import("./NotesPage").then((m) => ({ default: () => <m.default runtime={runtime} /> })),
  });
  runtime.addMenuItem({ key: "notas", path: "notas", label: menuLabel, icon: MENU_ICON });
  runtime.registerContactPanelSection({ key: "notes", label: panelLabel, component: ContactNotes });
});
