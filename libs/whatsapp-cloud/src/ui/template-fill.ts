/**
 * The chat's template picker, without React: which values an approved template asks for (its
 * header's and body's {{n}}, a URL button's {{1}}, a copy-code button's code), their first
 * values, what is still missing, and the request POST /messages/{ticketId}/template takes
 * (the filled text the chat shows, and the values the channel hands Meta).
 * Type-only imports: the remote must not bundle the SDK's server code.
 */
import type { ChannelTemplate, TemplateSendComponents } from "@openatende/plugin-sdk";
import { TEMPLATE_HEADER_FILE_TYPES, templateButtonParameters } from "@openatende/plugin-sdk/src/templates";

/** One value the agent fills: `header.1`, `body.2`, `button.1` (a button's index). */
export interface TemplateField {
  key: string;
  part: "header" | "body" | "button";
  /** The variable's number ({{n}}), or the button's index. */
  n: number;
  /** The template's example for it (a hint in the input). */
  example?: string;
}

const VARIABLE = /\{\{\s*(\d{1,2})\s*\}\}/g;

/** The variables of a text, as numbers, ascending ({{1}}, {{2}}… as Meta numbers them). */
export function variablesOf(text: string | undefined): number[] {
  const seen = new Set<number>();
  for (const m of (text ?? "").matchAll(VARIABLE)) seen.add(Number(m[1]));
  return [...seen].sort((a, b) => a - b);
}

/** `text` with each {{n}} replaced by `values[n]`; an unfilled one stays as {{n}}. */
export function fillText(text: string, values: Record<number, string | undefined>): string {
  return text.replace(VARIABLE, (whole, n: string) => {
    const v = values[Number(n)];
    return v && v.trim() ? v.trim() : whole;
  });
}

/** The `accept` of the header's file input when each send needs a file (an IMAGE, VIDEO or DOCUMENT header); null otherwise. */
export function headerFileTypes(t: Pick<ChannelTemplate, "header">): string | null {
  return (t.header && TEMPLATE_HEADER_FILE_TYPES[t.header.format]?.join(",")) || null;
}

/** A header the picker cannot fill (a location: Meta needs its coordinates for each send). */
export function unsupportedHeader(t: Pick<ChannelTemplate, "header">): boolean {
  return !!t.header && t.header.format !== "TEXT" && !headerFileTypes(t);
}

/** The file chosen for a media header, as POST /messages/{ticketId}/template takes it. */
export interface HeaderFile {
  data: string;
  mimeType: string;
  fileName: string;
}

/** Every value the template asks for, in the order the form shows them. */
export function fieldsOf(t: Pick<ChannelTemplate, "header" | "body" | "buttons">): TemplateField[] {
  const fields: TemplateField[] = [];
  const vars = (part: "header" | "body", text: string | undefined, example: string[] | undefined) => {
    for (const n of variablesOf(text)) fields.push({ key: `${part}.${n}`, part, n, ...(example?.[n - 1] ? { example: example[n - 1] } : {}) });
  };
  if (t.header?.format === "TEXT") vars("header", t.header.text, t.header.example);
  vars("body", t.body.text, t.body.example);
  // A quick reply's payload is optional (the reply then carries the button's text): the chat does not ask for it.
  for (const b of templateButtonParameters(t)) if (b.required) fields.push({ key: `button.${b.index}`, part: "button", n: b.index, ...(b.example ? { example: b.example } : {}) });
  return fields;
}

/** A contact's first name, when the name is a name (not the phone number WhatsApp gives when it knows none). */
export function firstName(name: string | null | undefined): string {
  const first = (name ?? "").trim().split(/\s+/)[0] ?? "";
  return /\p{L}/u.test(first) ? first : "";
}

/** The values the form starts with: the body's {{1}} is the contact's first name when known; a copy code its example. */
export function initialValues(t: Pick<ChannelTemplate, "header" | "body" | "buttons">, contactName?: string | null): Record<string, string> {
  const values: Record<string, string> = {};
  const name = firstName(contactName);
  for (const f of fieldsOf(t)) {
    if (f.key === "body.1" && name) values[f.key] = name;
    else if (f.part === "button" && t.buttons?.[f.n]?.type === "COPY_CODE" && f.example) values[f.key] = f.example;
    else values[f.key] = "";
  }
  return values;
}

/** The fields still empty (nothing can be sent until this is empty). */
export function missingFields(t: Pick<ChannelTemplate, "header" | "body" | "buttons">, values: Record<string, string>): TemplateField[] {
  return fieldsOf(t).filter((f) => !(values[f.key] ?? "").trim());
}

const partValues = (values: Record<string, string>, part: "header" | "body"): Record<number, string> => {
  const out: Record<number, string> = {};
  for (const [k, v] of Object.entries(values)) if (k.startsWith(`${part}.`)) out[Number(k.slice(part.length + 1))] = v;
  return out;
};

/** The text the chat shows for the send: the filled header (when it has text), then the filled body. */
export function filledText(t: Pick<ChannelTemplate, "header" | "body">, values: Record<string, string>): string {
  const body = fillText(t.body.text, partValues(values, "body"));
  const header = t.header?.format === "TEXT" && t.header.text ? fillText(t.header.text, partValues(values, "header")) : "";
  return header ? `${header}\n\n${body}` : body;
}

export interface TemplateSendRequest {
  name: string;
  language: string;
  body: string;
  /** As the chat sends it: a media header's file goes as its bytes (base64), stored by the core. */
  components?: Omit<TemplateSendComponents, "header"> & { header?: { text?: string[]; media?: HeaderFile } };
}

/** The body of POST /messages/{ticketId}/template for a template and the filled values. */
export function templateRequest(t: ChannelTemplate, values: Record<string, string>, file?: HeaderFile | null): TemplateSendRequest {
  const ordered = (part: "header" | "body") =>
    fieldsOf(t)
      .filter((f) => f.part === part)
      .map((f) => (values[f.key] ?? "").trim());
  const header = ordered("header");
  const body = ordered("body");
  const buttons = fieldsOf(t)
    .filter((f) => f.part === "button")
    .map((f) => ({ index: f.n, value: (values[f.key] ?? "").trim() }));
  const components: NonNullable<TemplateSendRequest["components"]> = {
    ...(file && headerFileTypes(t) ? { header: { media: file } } : header.length ? { header: { text: header } } : {}),
    ...(body.length ? { body } : {}),
    ...(buttons.length ? { buttons } : {}),
  };
  return { name: t.name, language: t.language, body: filledText(t, values), ...(Object.keys(components).length ? { components } : {}) };
}

/** The select's key of a template (a name may exist in several languages). */
export const templateKey = (t: Pick<ChannelTemplate, "name" | "language">) => `${t.name}:${t.language}`;
