/**
 * The WABA template campaign type (spec §2 /campanhaswaba, PREMIUM): every contact gets one
 * approved template of the official WhatsApp Business API, the same name and language on each
 * of the campaign's connections, with its variables filled per contact. A variable is literal
 * text or carries the contact's `{{name}}`, `{{firstName}}` or `{{number}}`. The template's own
 * texts (`preview`) are the server's copy taken when the campaign is saved (templates.ts), so
 * each send stores the filled text the chat shows. A button that takes a value at each send (a
 * URL's {{1}} suffix, a copy code, a quick reply's payload) is filled the same way and goes as
 * the send's `components.buttons`; the channel turns it into the Cloud API's button component.
 */
import type { CampaignTypeDefinition } from "@openatende/plugin-sdk";
import type { CampaignFile } from "@openatende/campaign-engine";

export const ERROR_PREFIX = "CAMPAIGN_WABA";

export interface WabaContent {
  template: { name: string; language: string };
  /** The body's variables {{1}}, {{2}}…, in order. */
  body: string[];
  /** A TEXT header's variable (a header has at most one). */
  header?: string[];
  /** An IMAGE, VIDEO or DOCUMENT header's file, stored with POST /campanhaswaba/media (the same for every contact). */
  headerMedia?: CampaignFile | null;
  /** Per button that takes a value (its index in the template): the URL's suffix, the code, or the quick reply's payload ("" = none). */
  buttons?: WabaButtonValue[];
  /** The approved template's texts, set by the server on save (a client's copy is replaced). */
  preview?: { header: string | null; body: string; footer: string | null; urlButtons?: number[] };
}

export interface WabaButtonValue {
  index: number;
  value: string;
}

/** The contact fields a variable may carry. */
export const CONTACT_PLACEHOLDERS = ["name", "firstName", "number"] as const;
export type ContactPlaceholder = (typeof CONTACT_PLACEHOLDERS)[number];

/** Meta's rules for a template's name and language code (as the core checks a template send). */
export const TEMPLATE_NAME = /^[a-z0-9_]+$/;
export const TEMPLATE_LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2,4})?$/;
/** A variable's value at most (Meta: 1024 characters in the body). */
export const VARIABLE_MAX = 1024;

const variable = { type: "string", trim: true, max: VARIABLE_MAX };
export const wabaContentParams = {
  template: {
    type: "object",
    strict: "remove",
    props: { name: { type: "string", min: 1, max: 512, pattern: TEMPLATE_NAME }, language: { type: "string", min: 2, max: 15, pattern: TEMPLATE_LANGUAGE } },
  },
  body: { type: "array", max: 100, items: variable },
  header: { type: "array", optional: true, max: 1, items: variable },
  headerMedia: {
    type: "object",
    optional: true,
    nullable: true,
    strict: "remove",
    props: { path: { type: "string", min: 1, max: 500 }, mimeType: { type: "string", min: 3, max: 120 }, fileName: { type: "string", min: 1, max: 255 } },
  },
  buttons: {
    type: "array",
    optional: true,
    max: 10,
    items: { type: "object", strict: "remove", props: { index: { type: "number", integer: true, min: 0, max: 9 }, value: { type: "string", trim: true, max: VARIABLE_MAX } } },
  },
  preview: { type: "any", optional: true },
};

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

/** The placeholders of a variable that are not a contact's field. */
export function unknownPlaceholders(value: string): string[] {
  return [...value.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((p) => !(CONTACT_PLACEHOLDERS as readonly string[]).includes(p));
}

/** A variable for one contact; Meta refuses an empty one, so a contact without the field gets "-". */
/** `inUrl`: the value ends a URL button's address, so a contact's field goes in percent-encoded (the text typed around it as it is). */
export function fillVariable(value: string, contact: { name: string; number: string | null }, inUrl = false): string {
  const name = contact.name.trim();
  const fields: Record<ContactPlaceholder, string> = { name, firstName: name.split(/\s+/)[0] ?? "", number: contact.number ?? "" };
  const field = (p: ContactPlaceholder) => (inUrl ? encodeURIComponent(fields[p]) : fields[p]);
  const out = value.replace(PLACEHOLDER, (all, p: string) => ((CONTACT_PLACEHOLDERS as readonly string[]).includes(p) ? field(p as ContactPlaceholder) : all)).trim();
  return out || "-";
}

/** A template text with its {{1}}, {{2}}… replaced by the values (the chat's copy of the send). */
export function fillTemplateText(text: string, values: string[]): string {
  return text.replace(/\{\{\s*(\d{1,2})\s*\}\}/g, (all, n: string) => values[Number(n) - 1] ?? all);
}

const invalid = `ERR_${ERROR_PREFIX}_CONTENT_INVALID`;

export const wabaType: CampaignTypeDefinition<WabaContent> = {
  type: "waba",
  routeBase: "campanhaswaba",
  validateContent(c) {
    const problems: Record<string, string> = {};
    if (!TEMPLATE_NAME.test(c.template?.name ?? "")) problems["template.name"] = invalid;
    if (!TEMPLATE_LANGUAGE.test(c.template?.language ?? "")) problems["template.language"] = invalid;
    for (const part of ["body", "header"] as const) {
      (c[part] ?? []).forEach((v, i) => {
        if (!v.trim() || unknownPlaceholders(v).length) problems[`${part}.${i}`] = invalid;
      });
    }
    const seen = new Set<number>();
    (c.buttons ?? []).forEach((b) => {
      if (seen.has(b.index) || unknownPlaceholders(b.value).length) problems[`buttons.${b.index}`] = invalid;
      seen.add(b.index);
    });
    return problems;
  },
  variantCount: () => 1,
  buildSend(c, contact) {
    const body = (c.body ?? []).map((v) => fillVariable(v, contact));
    const header = (c.header ?? []).map((v) => fillVariable(v, contact));
    const p = c.preview;
    const text = p ? [p.header ? fillTemplateText(p.header, header) : null, fillTemplateText(p.body, body), p.footer].filter(Boolean).join("\n\n") : c.template.name;
    // A quick reply left empty goes without a payload (Meta then answers with the button's text).
    const urlButtons = new Set(p?.urlButtons ?? []);
    const buttons = (c.buttons ?? []).filter((b) => b.value.trim()).map((b) => ({ index: b.index, value: fillVariable(b.value, contact, urlButtons.has(b.index)) }));
    const components = {
      ...(body.length ? { body } : {}),
      ...(c.headerMedia ? { header: { media: c.headerMedia } } : header.length ? { header: { text: header } } : {}),
      ...(buttons.length ? { buttons } : {}),
    };
    return { body: text, template: { name: c.template.name, language: c.template.language, ...(Object.keys(components).length ? { components } : {}) } };
  },
};
