/**
 * Normal campaigns (spec §2 /campanhas and /campanhas/{campanhaId}, BASIC): the campaign
 * engine (libs/campaign-engine) with the normal type's content — up to three messages and an
 * optional file, uploaded with POST /campanhas/media — under /api/campanhas/…. Statuses, contacts, pacing, business hours, exactly
 * once and counts are the engine's; the type adds only its content (src/type.ts).
 */
import { definePlugin } from "@openatende/plugin-sdk";
import { campaignMediaActions, campaignService } from "@openatende/campaign-engine";
import { normalContentParams, normalType } from "./type";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json");

export const ERROR_PREFIX = "CAMPAIGN_WHATSAPP";

const campaigns = campaignService({ type: normalType, errorPrefix: ERROR_PREFIX, tier: "BASIC", contentParams: normalContentParams });

export const campaignWhatsappPlugin = definePlugin({
  pkgJson: pkg,
  // The engine's routes, and the media upload of this type's content (src/media.ts).
  service: { ...campaigns.service, actions: { ...campaigns.service.actions, ...campaignMediaActions("campanhas", "BASIC") } },
  platformEvents: campaigns.platformEvents,
});

export default campaignWhatsappPlugin;
