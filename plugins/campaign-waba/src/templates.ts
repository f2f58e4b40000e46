/**
 * The template a WABA campaign sends, checked against each of its connections' templates
 * (core API platform.templates.list, channel contract 1.3) whenever the campaign is saved or
 * scheduled: the connection's channel has templates, the template exists there in that
 * language, it is APPROVED, and the campaign gives exactly as many variables as its header and
 * body have, and a file of the header's kind when its header is an image, a video or a
 * document (the campaign's headerMedia), and a value for each button that needs one (a URL's
 * {{1}} suffix, a copy code; a quick reply's payload is optional) and none for a button that
 * takes none. Location headers are refused: a campaign gives no coordinates.
 */
import type { Context } from "moleculer";
import { coreApi, PluginError, TEMPLATE_HEADER_FILE_TYPES, templateButtonParameters, templateVariables, type ChannelTemplate } from "@openatende/plugin-sdk";
import { ERROR_PREFIX, type WabaContent } from "./type";

const code = (suffix: string) => `ERR_${ERROR_PREFIX}_${suffix}`;
/** The plugin's own content codes (texts in package.json). */
export const WABA_CODES = {
  connectionUnsupported: code("CONNECTION_UNSUPPORTED"),
  notFound: code("TEMPLATE_NOT_FOUND"),
  notApproved: code("TEMPLATE_NOT_APPROVED"),
  paramsMismatch: code("TEMPLATE_PARAMS_MISMATCH"),
  unsupported: code("TEMPLATE_UNSUPPORTED"),
  headerFile: code("HEADER_FILE_REQUIRED"),
  buttonRequired: code("BUTTON_VALUE_REQUIRED"),
  buttonUnexpected: code("BUTTON_VALUE_UNEXPECTED"),
} as const;

/** The form's field each refusal points at (the shared screens mark `data.problems`' fields). */
const onTemplate = (c: string) => ({ problems: { "template.name": c } });

const PAGE = 100;
/** At most this many pages of a connection's templates are read (10,000 templates). */
const MAX_PAGES = 100;

/** The connection's template of that name and language (null: none), every page read. */
async function findTemplate(ctx: Context, tenantId: number, connectionId: number, name: string, language: string): Promise<ChannelTemplate | null> {
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    let r;
    try {
      r = await coreApi(ctx).templates.list({ tenantId, connectionId, limit: PAGE, ...(after ? { after } : {}) });
    } catch (err) {
      if ((err as { type?: string }).type === "ERR_CHANNEL_UNSUPPORTED") throw new PluginError(WABA_CODES.connectionUnsupported, 400, { connectionId, problems: { connectionIds: WABA_CODES.connectionUnsupported } });
      throw err;
    }
    const found = r.templates.find((x) => x.name === name && x.language === language);
    if (found) return found;
    if (!r.next) return null;
    after = r.next;
  }
  return null;
}

/** Why a campaign cannot send this template (throws its code), or the template's texts for the chat's copy. */
export function checkTemplate(t: ChannelTemplate, content: WabaContent, connectionId: number): NonNullable<WabaContent["preview"]> {
  const { name, language } = content.template;
  if (t.status !== "APPROVED") throw new PluginError(WABA_CODES.notApproved, 400, { name, language, status: t.status, connectionId, ...onTemplate(WABA_CODES.notApproved) });
  const format = t.header?.format ?? "NONE";
  const fileTypes = format === "NONE" ? undefined : TEMPLATE_HEADER_FILE_TYPES[format];
  if (format !== "NONE" && format !== "TEXT" && !fileTypes) throw new PluginError(WABA_CODES.unsupported, 400, { name, part: `header ${format}`, connectionId, ...onTemplate(WABA_CODES.unsupported) });
  if (fileTypes && !fileTypes.includes(content.headerMedia?.mimeType ?? "")) {
    throw new PluginError(WABA_CODES.headerFile, 400, { name, format, types: fileTypes.join(", "), connectionId, problems: { headerMedia: WABA_CODES.headerFile } });
  }
  if (!fileTypes && content.headerMedia) throw new PluginError(WABA_CODES.paramsMismatch, 400, { name, part: "header", expected: 0, got: 1, connectionId, ...onTemplate(WABA_CODES.paramsMismatch) });
  checkButtons(t, content, connectionId);
  const parts = [
    ["header", t.header?.text ?? "", content.header ?? []],
    ["body", t.body.text, content.body ?? []],
  ] as const;
  for (const [part, text, given] of parts) {
    const expected = templateVariables(text).length;
    if (expected !== given.length) throw new PluginError(WABA_CODES.paramsMismatch, 400, { name, part, expected, got: given.length, connectionId, ...onTemplate(WABA_CODES.paramsMismatch) });
  }
  const urlButtons = templateButtonParameters(t).filter((b) => b.type === "URL").map((b) => b.index);
  return { header: t.header?.text ?? null, body: t.body.text, footer: t.footer?.text ?? null, ...(urlButtons.length ? { urlButtons } : {}) };
}

/** Each button that needs a value has one; no value is given for a button that takes none. */
function checkButtons(t: ChannelTemplate, content: WabaContent, connectionId: number): void {
  const name = content.template.name;
  const wanted = templateButtonParameters(t);
  for (const b of content.buttons ?? []) {
    const w = wanted.find((x) => x.index === b.index);
    if (!w && b.value.trim()) throw new PluginError(WABA_CODES.buttonUnexpected, 400, { name, button: t.buttons?.[b.index]?.text ?? `#${b.index + 1}`, connectionId, problems: { [`buttons.${b.index}`]: WABA_CODES.buttonUnexpected } });
  }
  for (const w of wanted) {
    if (w.required && !content.buttons?.find((b) => b.index === w.index)?.value.trim()) {
      throw new PluginError(WABA_CODES.buttonRequired, 400, { name, button: w.text, kind: w.type, connectionId, problems: { [`buttons.${w.index}`]: WABA_CODES.buttonRequired } });
    }
  }
}

/** The content checked on every connection, with the server's copy of the template's texts (the first connection's). */
export async function checkedContent(ctx: Context, tenantId: number, content: WabaContent, connectionIds: number[]): Promise<WabaContent> {
  let preview: WabaContent["preview"];
  for (const connectionId of connectionIds) {
    const t = await findTemplate(ctx, tenantId, connectionId, content.template.name, content.template.language);
    if (!t) throw new PluginError(WABA_CODES.notFound, 400, { name: content.template.name, language: content.template.language, connectionId, ...onTemplate(WABA_CODES.notFound) });
    const texts = checkTemplate(t, content, connectionId);
    preview ??= texts;
  }
  return { ...content, preview };
}
