/**
 * A template send (contract kind "template", the only kind Meta takes once the customer's
 * 24-hour window is closed) as the Cloud API's body (WHATSAPP.md §2.2):
 *
 *   {type:"template", template:{name, language:{code}, components:[
 *     {type:"header", parameters:[{type:"text",text} | {type:"image",image:{id|link}} …]},
 *     {type:"body", parameters:[{type:"text",text}…]},
 *     {type:"button", sub_type:"url"|"quick_reply"|"copy_code", index:"0", parameters:[…]}]}}
 *
 * A button's sub_type is its kind in the template, which the send does not say: it is read
 * from the template's definition at Meta (templates.ts caches it). `parameters` (the
 * contract's older form) fills the body's variables.
 */
import { PluginError, type MediaRef, type OutboundMessage, type TemplateSendComponents } from "@openatende/plugin-sdk";
import type { ChannelTemplate } from "@openatende/plugin-sdk";
import { buttonSubTypes } from "./template-meta";
import { codeOf, WABA_CODES } from "./provider";

export type TemplateMessage = Extract<OutboundMessage, { kind: "template" }>;
type MediaObject = (media: MediaRef, type: "image" | "video" | "document") => Promise<Record<string, unknown>>;

const NAME = /^[a-z0-9_]{1,512}$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2,4})?$/;
const invalidOf = (codes: string) => (field: string, reason: string) => new PluginError(codeOf(codes, "TEMPLATE_INVALID"), 400, { field, reason });

const isText = (v: unknown, max = 1024): v is string => typeof v === "string" && v.trim().length > 0 && v.length <= max;

/** The checked variables of a template send (a client's mistake is a 400 naming the field, never Meta's 132000). */
export function readTemplateMessage(m: TemplateMessage, codes: string = WABA_CODES): TemplateSendComponents {
  const invalid = invalidOf(codes);
  if (!NAME.test(m.name ?? "")) throw invalid("message.name", "a template name is lower-case letters, digits and _");
  if (!LANGUAGE.test(m.language ?? "")) throw invalid("message.language", 'a language code as Meta writes it: "pt_BR", "en_US", "es"');
  const c = (m.components ?? {}) as TemplateSendComponents;
  if (typeof c !== "object" || Array.isArray(c)) throw invalid("message.components", "an object with header, body and buttons");
  const texts = (field: string, v: unknown, max?: number): string[] | undefined => {
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || v.length > 100) throw invalid(field, "a list of texts");
    v.forEach((x, i) => {
      if (!isText(x, max)) throw invalid(`${field}.${i}`, "a variable's value is a non-empty text");
    });
    return v as string[];
  };
  const out: TemplateSendComponents = {};
  if (c.header !== undefined) {
    if (!c.header || typeof c.header !== "object") throw invalid("message.components.header", "an object with text or media");
    const text = texts("message.components.header.text", c.header.text, 60);
    const media = c.header.media;
    if (media !== undefined && (!media || typeof media !== "object" || typeof media.mimeType !== "string")) throw invalid("message.components.header.media", "a file with its mimeType");
    out.header = { ...(text ? { text } : {}), ...(media ? { media } : {}) };
  }
  const legacy = m.parameters?.map((p) => (typeof p === "string" || typeof p === "number" ? String(p) : p));
  const body = texts(c.body !== undefined ? "message.components.body" : "message.parameters", c.body ?? legacy);
  if (body?.length) out.body = body;
  if (c.buttons !== undefined) {
    if (!Array.isArray(c.buttons) || c.buttons.length > 10) throw invalid("message.components.buttons", "a list of { index, value }");
    c.buttons.forEach((b, i) => {
      if (!b || !Number.isInteger(b.index) || b.index < 0 || b.index > 9) throw invalid(`message.components.buttons.${i}.index`, "a button's position, 0 to 9");
      if (!isText(b.value, 2000)) throw invalid(`message.components.buttons.${i}.value`, "a button's value is a non-empty text");
    });
    if (c.buttons.length) out.buttons = c.buttons;
  }
  return out;
}

const mediaKind = (mimeType: string): "image" | "video" | "document" => {
  const mime = mimeType.split(";")[0].trim().toLowerCase();
  if (mime === "image/jpeg" || mime === "image/png") return "image";
  if (mime === "video/mp4" || mime === "video/3gpp") return "video";
  return "document";
};

/**
 * The `template` object of the send. `definition` is the template at Meta, needed only when
 * buttons are filled (null: Meta has no such template: a 404 naming it).
 */
export async function templateObject(
  m: TemplateMessage,
  c: TemplateSendComponents,
  deps: { mediaObject: MediaObject; definition(): Promise<ChannelTemplate | null>; codes?: string },
): Promise<Record<string, unknown>> {
  const codes = deps.codes ?? WABA_CODES;
  const invalid = invalidOf(codes);
  const components: Array<Record<string, unknown>> = [];
  if (c.header?.media) {
    const kind = mediaKind(c.header.media.mimeType);
    const obj = await deps.mediaObject(c.header.media, kind);
    if (kind === "document" && c.header.media.fileName) obj.filename = c.header.media.fileName;
    components.push({ type: "header", parameters: [{ type: kind, [kind]: obj }] });
  } else if (c.header?.text?.length) {
    components.push({ type: "header", parameters: c.header.text.map((text) => ({ type: "text", text })) });
  }
  if (c.body?.length) components.push({ type: "body", parameters: c.body.map((text) => ({ type: "text", text })) });
  if (c.buttons?.length) {
    const def = await deps.definition();
    if (!def) throw new PluginError(codeOf(codes, "TEMPLATE_NOT_FOUND"), 404, { name: m.name, language: m.language });
    const kinds = buttonSubTypes(def);
    c.buttons.forEach((b, i) => {
      const sub = kinds[b.index];
      if (!sub) throw invalid(`message.components.buttons.${i}.index`, `the template has no button ${b.index} that takes a value`);
      const parameter = sub === "url" ? { type: "text", text: b.value } : sub === "quick_reply" ? { type: "payload", payload: b.value } : { type: "coupon_code", coupon_code: b.value };
      components.push({ type: "button", sub_type: sub, index: String(b.index), parameters: [parameter] });
    });
  }
  return { name: m.name, language: { code: m.language }, ...(components.length ? { components } : {}) };
}
