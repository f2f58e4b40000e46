/**
 * registerCampaignPages: a campaign type's screens, written once for every type. The plugin's
 * register() calls it with its own ContentEditor; it adds the shared texts (`campaign.*`), the
 * list route /{routeBase}, the detail route /{routeBase}/:id and the menu entry.
 */
import type { ShellRuntime } from "@openatende/plugin-sdk/ui";
import type { CampaignUiType } from "./model";
import { campaignTexts } from "./texts";
import { setScheduleRetry } from "./actions";

/** A megaphone in the campaigns' colour (the menu's icon when the type gives none). */
export const CAMPAIGN_ICON =
  "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20width='16'%20height='16'%20viewBox='0%200%2024%2024'%20fill='none'%20stroke='%23fa8c16'%20stroke-width='2'%20stroke-linecap='round'%20stroke-linejoin='round'%3E%3Cpath%20d='M3%2011l15-6v14L3%2013z'/%3E%3Cpath%20d='M7%2013v5h3'/%3E%3C/svg%3E";

export function registerCampaignPages<C>(runtime: ShellRuntime, type: CampaignUiType<C>): void {
  runtime.addTranslations(campaignTexts);
  setScheduleRetry(type.routeBase, type.retrySchedule as CampaignUiType<unknown>["retrySchedule"]);
  // The shell draws a route's page without props: each page gets the runtime and the type here.
  runtime.addRoute({
    path: type.routeBase,
    access: "supervisor",
    load: () => import("./CampaignsPage").then((m) => ({ default: () => <m.CampaignsPage runtime={runtime} type={type} /> })),
  });
  runtime.addRoute({
    path: `${type.routeBase}/:id`,
    access: "supervisor",
    load: () => import("./CampaignDetail").then((m) => ({ default: () => <m.CampaignDetail runtime={runtime} type={type} /> })),
  });
  runtime.addMenuItem({ key: type.routeBase, path: type.routeBase, label: type.title, access: "supervisor", icon: type.icon ?? CAMPAIGN_ICON });
}
