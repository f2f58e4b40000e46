import { defineUi } from "@openatende/plugin-sdk/ui";
import { registerCampaignPages } from "@openatende/campaign-engine/src/ui";
import { smsParts } from "@openatende/plugin-sdk/src/sms-text";
import ContentEditor, { validateSmsContent } from "./ContentEditor";
import { continueWithFirst } from "./credits";
import { texts, title } from "./texts";
import type { SmsContent } from "../type";

/**
 * The SMS campaigns' UI (spec §2 /campanhasms): the engine's shared campaign screens with this
 * type's text editor and its parts counter, offering only SMS connections. Supervisors and
 * admins; PREMIUM, applied by the shell from the manifest (lower tiers see the tier notice).
 */
export default defineUi((runtime) => {
  runtime.addTranslations(texts);
  registerCampaignPages<SmsContent>(runtime, {
    routeBase: "campanhasms",
    title,
    ContentEditor,
    emptyContent: () => ({ text: "" }),
    validateContent: validateSmsContent,
    connectionTypes: ["sms", "channel-sms"],
    retrySchedule: continueWithFirst,
    contentSummary: (c, t) => `${c.text} (${t("smsEditor.summary", { parts: smsParts(c.text) })})`,
  });
});
