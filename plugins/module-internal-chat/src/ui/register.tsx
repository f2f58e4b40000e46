import { defineUi } from "@openatende/plugin-sdk/ui";
import { labels, texts } from "./texts";
import { setRuntime } from "./runtime";

/** The chat's icon in the menu: two speech bubbles, in the plugin's colour. */
export const MENU_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='16'%20height='16'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%2313a8a8'%20stroke-width='2'%20stroke-linejoin='round'%3E%3Cpath%20d='M4%205h12v8H9l-4%203v-3H4z'/%3E%3Cpath%20d='M18%209h2v8h-1v3l-4-3h-5v-2'/%3E%3C/svg%3E";

/**
 * The internal chat's UI (spec §2): the /chat-interno page and its menu entry for every
 * profile, and the settings child /configuracoes/grupos where admins keep the groups (the
 * shell shows settings to admins only). Both need PLUS (§6), which the shell applies from the
 * manifest before this remote is loaded.
 */
export default defineUi((runtime) => {
  setRuntime(runtime);
  runtime.addTranslations(texts);
  runtime.addRoute({ path: "chat-interno", load: () => import("./ChatPage") });
  runtime.addMenuItem({ key: "chat-interno", path: "chat-interno", label: labels("menu"), icon: MENU_ICON });
  runtime.addSettingsSection({ path: "grupos", label: labels("settingsGroups"), load: () => import("./GroupsPage") });
});
