import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerCampaignPages } from "@openatende/campaign-engine/src/ui";
import ContentEditor, { validateNormalContent } from "./ContentEditor";
import { texts, title } from "./texts";
import type { NormalContent } from "../type";

/**
 * The normal campaigns' UI (spec §2 /campanhas and /campanhas/{campanhaId}): the engine's
 * shared campaign screens with this type's message editor. Supervisors and admins; BASIC,
 * applied by the shell from the manifest (a FREE tenant sees the tier notice).
 */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  registerCampaignPages<NormalContent>(runtime, {
    routeBase: "campanhas",
    title,
    ContentEditor,
    emptyContent: () => ({ messages: [""], media: null }),
    validateContent: validateNormalContent,
    contentSummary: (c, t) => {
      const first = c.messages.find((m) => m.trim()) ?? "";
      const extra = [c.messages.length > 1 ? t("summary.variants", { count: c.messages.length }) : "", c.media ? t("summary.media", { name: c.media.fileName }) : ""].filter(Boolean).join(", ");
      return extra ? `${first} (${extra})` : first;
    },
  });
});
