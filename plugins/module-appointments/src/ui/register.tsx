import { defineUi } from "@openatende/plugin-sdk/ui";
import { menuLabel, servicesLabel, texts } from "./texts";

/** A calendar with a check, drawn in the module's colour (the menu's icon; the manifest's is white on that colour). */
const MENU_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%230d9488'%20stroke-width='2'%20stroke-linecap='round'%20stroke-linejoin='round'%3E%3Crect%20x='3'%20y='5'%20width='18'%20height='16'%20rx='2'/%3E%3Cpath%20d='M3%2010h18M8%203v4M16%203v4M9%2015l2%202%204-4'/%3E%3C/svg%3E";

/** The module's UI: /agendamentos (PLUS) with its menu entry, and the services under /configuracoes/servicos (PREMIUM, admins). */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.addRoute({
    path: "agendamentos",
    // The shell draws a route's page without props: the page gets this plugin's runtime here.
    load: () => import("./CalendarPage").then((m) => ({ default: () => <m.default runtime={runtime} /> })),
  });
  runtime.addMenuItem({ key: "agendamentos", path: "agendamentos", label: menuLabel, icon: MENU_ICON });
  // The services are PREMIUM (manifest ui.routeTiers): a PLUS tenant's settings do not list them.
  if (runtime.tenant.tier === "PREMIUM") runtime.addSettingsSection({ path: "servicos", label: servicesLabel, load: () => import("./ServicesPage").then((m) => ({ default: () => <m.default runtime={runtime} /> })) });
});
