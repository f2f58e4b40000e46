/**
 * The campaign screens every campaign type plugin shares (list, form, detail with live
 * counts). A type plugin's register():
 *
 *   import { registerCampaignPages } from "@openatende/campaign-engine/src/ui";
 *   export default defineUi((runtime) => registerCampaignPages(runtime, { routeBase: "campanhas", title, ContentEditor, emptyContent, contentSummary }));
 */
export type { CampaignContentEditorProps, CampaignUiType, Campaign, CampaignAction } from "./model";
export { actionsFor, fieldErrorsOf, progressPercent, fromLocalInput, toLocalInput, startInPast } from "./model";
export { registerCampaignPages, CAMPAIGN_ICON } from "./register";
export { campaignTexts } from "./texts";
export { FilePick } from "./FilePick";
