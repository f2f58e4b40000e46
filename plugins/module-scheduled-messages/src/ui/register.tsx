import { defineUi } from "@openatende/plugin-sdk/ui";
import { createElement, lazy } from "react";
import { composerLabel, menuLabel, panelLabel, texts } from "./texts";

const TicketSchedules = lazy(() => import("./TicketSchedules"));
const ComposerSchedule = lazy(() => import("./ComposerSchedule"));

/** A clock drawn in the module's colour (the menu's icon; the manifest's is white on that colour). */
const MENU_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%230891b2'%20stroke-width='2'%20stroke-linecap='round'%20stroke-linejoin='round'%3E%3Ccircle%20cx='12'%20cy='13'%20r='8'/%3E%3Cpath%20d='M12%209v4l3%202'/%3E%3Cpath%20d='M5%203L2%206M19%203l3%203'/%3E%3C/svg%3E";

/** The composer button's clock (made with createElement: the register module is also loaded by jest, whose transform has no automatic JSX runtime). */
const clock = createElement(
  "svg",
  { viewBox: "0 0 24 24", width: "1em", height: "1em", fill: "none", stroke: "currentColor", strokeWidth: 2, strokeLinecap: "round", strokeLinejoin: "round", "aria-hidden": true },
  createElement("circle", { cx: 12, cy: 12, r: 9 }),
  createElement("path", { d: "M12 7v5l3 2" }),
);

/** The module's UI: /mensagem-agendadas with its menu entry; in the chat, the composer's schedule button and the ticket's scheduled list. */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  runtime.addRoute({
    path: "mensagem-agendadas",
    // The shell draws a route's page without props: the page gets this plugin's runtime here.
    load: () => import("./SchedulesPage").then((m) => ({ default: () => <m.default runtime={runtime} /> })),
  });
  runtime.addMenuItem({ key: "mensagem-agendadas", path: "mensagem-agendadas", label: menuLabel, icon: MENU_ICON });
  runtime.registerComposerAction({ key: "schedule", label: composerLabel, icon: clock, component: ComposerSchedule });
  runtime.registerContactPanelSection({ key: "scheduled", label: panelLabel, component: TicketSchedules });
});
