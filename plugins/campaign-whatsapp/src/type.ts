/**
 * The normal campaign type (spec §3 Campaign: media, up to three messages): one to three text
 * variants — one is chosen for each contact — and an optional file (stored among the tenant's
 * files) sent with the variant as its caption. `{{name}}` in a message is the contact's name.
 */
import { CAMPAIGN_MAX_VARIANTS, type CampaignTypeDefinition } from "@openatende/plugin-sdk";

export interface NormalContent {
  messages: string[];
  media?: { path: string; mimeType: string; fileName: string } | null;
}

export const MESSAGE_MAX = 4096;

export const normalContentParams = {
  messages: { type: "array", min: 1, max: CAMPAIGN_MAX_VARIANTS, items: { type: "string", trim: true, max: MESSAGE_MAX } },
  media: {
    type: "object",
    optional: true,
    nullable: true,
    strict: "remove",
    props: { path: { type: "string", empty: false, max: 500 }, mimeType: { type: "string", empty: false, max: 100 }, fileName: { type: "string", empty: false, max: 255 } },
  },
};

/** `{{name}}` → the contact's name (its first name with `{{firstName}}`). */
export function personalize(text: string, name: string): string {
  const clean = name.trim();
  return text.replace(/\{\{\s*name\s*\}\}/g, clean).replace(/\{\{\s*firstName\s*\}\}/g, clean.split(/\s+/)[0] ?? "");
}

export const normalType: CampaignTypeDefinition<NormalContent> = {
  type: "normal",
  routeBase: "campanhas",
  validateContent(c) {
    const problems: Record<string, string> = {};
    const texts = c.messages ?? [];
    if (!texts.length || texts.length > CAMPAIGN_MAX_VARIANTS) problems.messages = "ERR_CAMPAIGN_WHATSAPP_CONTENT_INVALID";
    texts.forEach((t, i) => {
      if (!t.trim() && !c.media) problems[`messages.${i}`] = "ERR_CAMPAIGN_WHATSAPP_CONTENT_INVALID";
    });
    return problems;
  },
  variantCount: (c) => Math.max(1, Math.min(CAMPAIGN_MAX_VARIANTS, c.messages.length)),
  buildSend(c, contact, variant) {
    const body = personalize(c.messages[Math.min(variant, c.messages.length - 1)] ?? "", contact.name);
    return c.media ? { body, media: c.media } : { body };
  },
};
