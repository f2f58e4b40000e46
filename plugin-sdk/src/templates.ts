/**
 * Message templates of an official business API (channel contract 1.3; a channel declares
 * `platform.channel.templates: true` and has the optional actions templatesList,
 * templateCreate and templateDelete). Part of the channel contract (re-exported by
 * channel-contract.ts).
 */
import type { ConnectionRef, MediaRef } from "./channel-contract";

export const TEMPLATE_CATEGORIES = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** A template's review state at the provider (Meta's names). */
export const TEMPLATE_STATUSES = ["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED", "IN_APPEAL"] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const TEMPLATE_HEADER_FORMATS = ["TEXT", "IMAGE", "VIDEO", "DOCUMENT", "LOCATION"] as const;
export type TemplateHeaderFormat = (typeof TEMPLATE_HEADER_FORMATS)[number];

/** The file types a media header takes for each send (Meta's), by format; a TEXT or LOCATION header takes no file. */
export const TEMPLATE_HEADER_FILE_TYPES: Partial<Record<TemplateHeaderFormat, readonly string[]>> = {
  IMAGE: ["image/jpeg", "image/png"],
  VIDEO: ["video/mp4", "video/3gpp"],
  DOCUMENT: ["application/pdf"],
};

export const TEMPLATE_BUTTON_TYPES = ["QUICK_REPLY", "PHONE_NUMBER", "URL", "COPY_CODE"] as const;
export type TemplateButtonType = (typeof TEMPLATE_BUTTON_TYPES)[number];

export interface TemplateButton {
  type: TemplateButtonType;
  text: string;
  /** URL buttons: the address, with at most one {{1}} at its end. */
  url?: string;
  /** PHONE_NUMBER buttons: E.164 with "+". */
  phoneNumber?: string;
  /** Examples of a URL button's variable or of a COPY_CODE button's code. */
  example?: string[];
}

/**
 * A button that takes a value at each send (by its index among the template's buttons): a URL
 * button whose address ends in {{1}} (the suffix), a COPY_CODE button (the code shown), or a
 * QUICK_REPLY (the payload that comes back when it is tapped). The first two are required by
 * Meta; a quick reply's payload is not (without one the reply carries the button's text).
 */
export interface TemplateButtonParameter {
  index: number;
  type: Exclude<TemplateButtonType, "PHONE_NUMBER">;
  /** The button's label. */
  text: string;
  required: boolean;
  /** The template's example of the value. */
  example?: string;
}

/** The buttons of a template that take a value at each send, in order. */
export function templateButtonParameters(t: Pick<ChannelTemplate, "buttons">): TemplateButtonParameter[] {
  const out: TemplateButtonParameter[] = [];
  (t.buttons ?? []).forEach((b, index) => {
    const example = b.example?.[0]?.trim() ? { example: b.example[0] } : {};
    if (b.type === "URL" && templateVariables(b.url ?? "").length > 0) out.push({ index, type: "URL", text: b.text, required: true, ...example });
    else if (b.type === "COPY_CODE") out.push({ index, type: "COPY_CODE", text: b.text, required: true, ...example });
    else if (b.type === "QUICK_REPLY") out.push({ index, type: "QUICK_REPLY", text: b.text, required: false });
  });
  return out;
}

/** A template as the provider holds it. Variables are {{1}}, {{2}}… in header and body texts. */
export interface ChannelTemplate {
  /** The provider's id (absent on a template not yet submitted). */
  id?: string;
  name: string;
  /** The provider's language code: "pt_BR", "en_US", "es", … */
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  /** Why the provider rejected or paused it (its words). */
  rejectedReason?: string | null;
  header?: { format: TemplateHeaderFormat; text?: string; example?: string[] };
  body: { text: string; example?: string[] };
  footer?: { text: string };
  buttons?: TemplateButton[];
}

/** A template's variables filled for one send. */
export interface TemplateSendComponents {
  /** The header's: its text variables, or the media of an IMAGE/VIDEO/DOCUMENT header. */
  header?: { text?: string[]; media?: MediaRef };
  /** The body's variables, in order ({{1}}, {{2}}…). */
  body?: string[];
  /** Per button index: a URL button's variable, a COPY_CODE button's code, a quick reply's payload. */
  buttons?: Array<{ index: number; value: string }>;
}

export interface TemplatesListParams extends ConnectionRef {
  /** The page after this cursor (a previous page's `next`). */
  after?: string;
  /** Page size, 1 to 100 (default 50). */
  limit?: number;
  /** Only templates of this status. */
  status?: TemplateStatus;
}

export interface TemplatesListResult {
  templates: ChannelTemplate[];
  /** The cursor of the next page; null on the last one. */
  next: string | null;
}

export interface TemplateCreateParams extends ConnectionRef {
  template: Omit<ChannelTemplate, "id" | "status" | "rejectedReason">;
}

export interface TemplateCreateResult {
  id: string;
  status: TemplateStatus;
}

export interface TemplateDeleteParams extends ConnectionRef {
  name: string;
  /** Only this language's version (the provider's id); without it every language of the name. */
  id?: string;
}

export interface TemplateDeleteResult {
  deleted: boolean;
}

/** The variables ({{n}}) a template text uses, in order of first use, as numbers. */
export function templateVariables(text: string): number[] {
  const seen: number[] = [];
  for (const m of text.matchAll(/\{\{\s*(\d{1,2})\s*\}\}/g)) {
    const n = Number(m[1]);
    if (!seen.includes(n)) seen.push(n);
  }
  return seen;
}

/**
 * Spec §5 Template ("the variables of header and body must match their examples"): the header's
 * and the body's variables are numbered 1..n without gaps and each text has one example per
 * variable; with Meta's review rules on top (a header has at most one variable, the body does
 * not start or end with one, buttons carry what their type needs). Answers the problems
 * (field and reason), empty when the template is well formed.
 */
export function templateProblems(t: Pick<ChannelTemplate, "header" | "body" | "buttons">): Array<{ field: string; reason: string }> {
  const problems: Array<{ field: string; reason: string }> = [];
  const check = (field: string, text: string | undefined, example: string[] | undefined, edges: boolean) => {
    if (!text) return;
    const vars = templateVariables(text);
    const sorted = [...vars].sort((a, b) => a - b);
    if (sorted.some((n, i) => n !== i + 1)) problems.push({ field, reason: "variables must be numbered {{1}}, {{2}}… without gaps" });
    if ((example?.length ?? 0) !== vars.length) problems.push({ field: `${field}.example`, reason: `${vars.length} variable(s) need as many examples (got ${example?.length ?? 0})` });
    else if (example?.some((e) => !e.trim())) problems.push({ field: `${field}.example`, reason: "examples must not be empty" });
    const trimmed = text.trim();
    if (edges && vars.length && (/^\{\{\s*\d+\s*\}\}/.test(trimmed) || /\{\{\s*\d+\s*\}\}$/.test(trimmed))) problems.push({ field, reason: "the body may not start or end with a variable" });
  };
  if (t.header?.format === "TEXT") {
    if (!t.header.text?.trim()) problems.push({ field: "header.text", reason: "a TEXT header needs its text" });
    else if (templateVariables(t.header.text).length > 1) problems.push({ field: "header.text", reason: "a header has at most one variable" });
    check("header.text", t.header.text, t.header.example, false);
  }
  if (!t.body.text.trim()) problems.push({ field: "body.text", reason: "the body is required" });
  check("body.text", t.body.text, t.body.example, true);
  (t.buttons ?? []).forEach((b, i) => {
    const field = `buttons.${i}`;
    if (!b.text.trim()) problems.push({ field: `${field}.text`, reason: "a button needs its text" });
    if (b.type === "URL" && !/^https:\/\/\S+$/.test(b.url ?? "")) problems.push({ field: `${field}.url`, reason: "a URL button needs an https address" });
    if (b.type === "PHONE_NUMBER" && !/^\+\d{8,15}$/.test(b.phoneNumber ?? "")) problems.push({ field: `${field}.phoneNumber`, reason: "a call button needs a number as +5511…" });
    if (b.type === "COPY_CODE" && !b.example?.[0]?.trim()) problems.push({ field: `${field}.example`, reason: "a copy-code button needs an example code" });
  });
  return problems;
}
