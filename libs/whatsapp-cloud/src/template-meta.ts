/**
 * The contract's ChannelTemplate in Meta's words and back (WHATSAPP.md §2.4): what
 * POST /<WABA id>/message_templates takes, and what its GET answers. Pure functions, so the
 * mapping is unit-tested without a server.
 *
 * Meta's components: HEADER {format, text, example:{header_text:[…] | header_handle:[…]}},
 * BODY {text, example:{body_text:[[…]]}}, FOOTER {text}, BUTTONS {buttons:[{type, text, url,
 * phone_number, example}]}. A COPY_CODE button carries its example code as a string, a URL
 * button its examples as an array.
 */
import {
  TEMPLATE_CATEGORIES,
  type ChannelTemplate,
  type TemplateButton,
  type TemplateCategory,
  type TemplateCreateParams,
  type TemplateHeaderFormat,
  type TemplateStatus,
} from "@openatende/plugin-sdk";

/** The fields asked of Meta when listing. */
export const TEMPLATE_FIELDS = "id,name,language,status,category,components,rejected_reason";

type NewTemplate = TemplateCreateParams["template"];
type MetaComponent = Record<string, unknown> & { type?: unknown };

/** The body of POST /<WABA id>/message_templates for a new template. */
export function metaTemplateBody(t: NewTemplate): Record<string, unknown> {
  const components: Array<Record<string, unknown>> = [];
  if (t.header) {
    const h: Record<string, unknown> = { type: "HEADER", format: t.header.format };
    if (t.header.format === "TEXT") h.text = t.header.text;
    if (t.header.example?.length) h.example = t.header.format === "TEXT" ? { header_text: t.header.example } : { header_handle: t.header.example };
    components.push(h);
  }
  components.push({ type: "BODY", text: t.body.text, ...(t.body.example?.length ? { example: { body_text: [t.body.example] } } : {}) });
  if (t.footer?.text) components.push({ type: "FOOTER", text: t.footer.text });
  if (t.buttons?.length) components.push({ type: "BUTTONS", buttons: t.buttons.map(metaButton) });
  return { name: t.name, language: t.language, category: t.category, components };
}

function metaButton(b: TemplateButton): Record<string, unknown> {
  switch (b.type) {
    case "URL":
      return { type: "URL", text: b.text, url: b.url, ...(b.example?.length ? { example: b.example } : {}) };
    case "PHONE_NUMBER":
      return { type: "PHONE_NUMBER", text: b.text, phone_number: b.phoneNumber };
    case "COPY_CODE":
      return { type: "COPY_CODE", example: b.example?.[0] ?? "" };
    default:
      return { type: "QUICK_REPLY", text: b.text };
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined);

/** One template of Meta's list as the contract's ChannelTemplate. */
export function templateFromMeta(raw: Record<string, unknown>): ChannelTemplate {
  const components = (Array.isArray(raw.components) ? raw.components : []) as MetaComponent[];
  const of = (type: string) => components.find((c) => String(c.type).toUpperCase() === type);
  const category = String(raw.category ?? "").toUpperCase();
  const out: ChannelTemplate = {
    id: raw.id === undefined ? undefined : String(raw.id),
    name: String(raw.name ?? ""),
    language: String(raw.language ?? ""),
    category: (TEMPLATE_CATEGORIES as readonly string[]).includes(category) ? (category as TemplateCategory) : "UTILITY",
    // Meta's own word (PENDING, APPROVED, … and newer ones such as LIMIT_EXCEEDED), shown as is.
    status: String(raw.status ?? "PENDING").toUpperCase() as TemplateStatus,
    rejectedReason: str(raw.rejected_reason) ?? null,
    body: { text: "" },
  };
  const header = of("HEADER");
  if (header) {
    const ex = header.example as { header_text?: unknown; header_handle?: unknown } | undefined;
    out.header = { format: String(header.format ?? "TEXT").toUpperCase() as TemplateHeaderFormat, ...(str(header.text) ? { text: str(header.text) } : {}) };
    const example = strings(ex?.header_text) ?? strings(ex?.header_handle);
    if (example?.length) out.header.example = example;
  }
  const body = of("BODY");
  if (body) {
    const ex = (body.example as { body_text?: unknown } | undefined)?.body_text;
    const example = Array.isArray(ex) ? strings(ex[0]) : undefined;
    out.body = { text: str(body.text) ?? "", ...(example?.length ? { example } : {}) };
  }
  const footer = of("FOOTER");
  if (footer && str(footer.text)) out.footer = { text: str(footer.text)! };
  const buttons = of("BUTTONS")?.buttons;
  if (Array.isArray(buttons) && buttons.length) out.buttons = (buttons as Array<Record<string, unknown>>).map(buttonFromMeta);
  return out;
}

function buttonFromMeta(b: Record<string, unknown>): TemplateButton {
  const type = String(b.type ?? "QUICK_REPLY").toUpperCase() as TemplateButton["type"];
  const example = typeof b.example === "string" ? [b.example] : strings(b.example);
  return {
    type,
    text: str(b.text) ?? "",
    ...(str(b.url) ? { url: str(b.url) } : {}),
    ...(str(b.phone_number) ? { phoneNumber: str(b.phone_number) } : {}),
    ...(example?.length ? { example } : {}),
  };
}

/** The send-time kind of each button of a template, by index (the button parameter's sub_type). */
export function buttonSubTypes(t: Pick<ChannelTemplate, "buttons">): Array<"url" | "quick_reply" | "copy_code" | null> {
  return (t.buttons ?? []).map((b) => (b.type === "URL" ? "url" : b.type === "QUICK_REPLY" ? "quick_reply" : b.type === "COPY_CODE" ? "copy_code" : null));
}
