/**
 * SMS campaigns (spec §2 /campanhasms, PREMIUM): the campaign engine (libs/campaign-engine)
 * with the SMS type's content — one text — under /api/campanhasms/…, sent through the
 * tenant's SMS connections. Statuses, contacts, pacing, business hours, exactly once and counts
 * are the engine's; this type adds its checks (src/checks.ts): SMS connections whose token
 * works, contacts with valid and unrepeated numbers, and credits for every recipient before
 * it is scheduled — short, the client may schedule again with `limitTo` the first N contacts.
 */
import { definePlugin } from "@openatende/plugin-sdk";
import { campaignService } from "@openatende/campaign-engine";
import { checkConnections, checkCredits, checkCsv, checkNumbers, PREFIX } from "./checks";
import { smsContentParams, smsType, type SmsContent } from "./type";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json");

export const ERROR_PREFIX = PREFIX;

const campaigns = campaignService({
  type: smsType,
  errorPrefix: ERROR_PREFIX,
  tier: "PREMIUM",
  contentParams: smsContentParams,
  checkSource: checkCsv,
  checkContacts: ({ found, linked }) => checkNumbers(found, linked),
  async checkDraft(ctx, { tenantId, draft }) {
    await checkConnections(ctx, tenantId, draft.connectionIds);
  },
  async beforeSchedule(ctx, { tenantId, campaign, pending }) {
    await checkCredits(ctx, { tenantId, connectionIds: campaign.connectionIds, content: campaign.content as SmsContent, pending });
  },
});

export const campaignSmsPlugin = definePlugin({
  pkgJson: pkg,
  service: campaigns.service,
  platformEvents: campaigns.platformEvents,
});

export default campaignSmsPlugin;
