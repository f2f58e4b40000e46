import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerCampaignPages } from "@openatende/campaign-engine/src/ui";
import ContentEditor from "./ContentEditor";
import { emptyWabaContent, validateWabaContent } from "./model";
import { texts, title } from "./texts";
import type { WabaContent } from "../type";

/**
 * The WABA campaigns' UI (spec §2 /campanhaswaba and /campanhaswaba/{campanhaId}): the engine's
 * shared campaign screens with this type's template editor. Supervisors and admins; PREMIUM,
 * applied by the shell from the manifest (a lower tier sees the tier notice).
 */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  registerCampaignPages<WabaContent>(runtime, {
    routeBase: "campanhaswaba",
    title,
    ContentEditor,
    emptyContent: emptyWabaContent,
    validateContent: validateWabaContent,
    contentSummary: (c, t) => (c.template?.name ? `${c.template.name} (${c.template.language}) · ${t("waba.summary", { count: (c.header?.length ?? 0) + (c.body?.length ?? 0) })}` : ""),
  });
});
