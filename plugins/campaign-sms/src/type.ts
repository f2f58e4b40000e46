/**
 * The SMS campaign type (spec §2 /campanhasms, §5 SMS): one text, sent as SMS through the
 * tenant's SMS connections. `{{name}}` / `{{firstName}}` in it are the contact's. Each part of
 * a text (160 GSM-7 characters, 153 once split; 70 / 67 in UCS-2: smsParts) costs one credit.
 */
import type { CampaignTypeDefinition } from "@openatende/plugin-sdk";
import { smsParts } from "@openatende/plugin-sdk/src/sms-text";

export interface SmsContent {
  text: string;
}

/** The longest text a campaign sends: 10 parts of GSM-7 (providers refuse longer concatenations). */
export const SMS_MAX_PARTS = 10;
export const SMS_MAX_CHARS = 1530;

export const smsContentParams = {
  text: { type: "string", trim: true, max: SMS_MAX_CHARS },
};

/** The text one contact receives. */
export function smsTextFor(text: string, name: string): string {
  const clean = name.trim();
  return text.replace(/\{\{\s*name\s*\}\}/g, clean).replace(/\{\{\s*firstName\s*\}\}/g, clean.split(/\s+/)[0] ?? "");
}

/** Credits one contact's SMS costs. */
export const partsFor = (c: SmsContent, name: string): number => smsParts(smsTextFor(c.text, name));

export const smsType: CampaignTypeDefinition<SmsContent> = {
  type: "sms",
  routeBase: "campanhasms",
  validateContent(c): Record<string, string> {
    const text = c.text ?? "";
    return !text.trim() || smsParts(text) > SMS_MAX_PARTS ? { text: "ERR_CAMPAIGN_SMS_CONTENT_INVALID" } : {};
  },
  variantCount: () => 1,
  buildSend: (c, contact) => ({ body: smsTextFor(c.text, contact.name) }),
};
