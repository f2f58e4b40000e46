/**
 * The template a WABA campaign sends, checked against each of its connections' templates
 * (core API platform.templates.list, channel contract 1.3) whenever the campaign is saved or
 * scheduled: the connection's channel has templates, the template exists there in that
 * language, it is APPROVED, and the campaign gives exactly as many variables as its header and
 * body have, and a file of the header's kind when its header is an image, a video or a
 * document (the campaign's headerMedia). Location headers and buttons with variables are
 * refused: a campaign gives neither.
 */
import type { Context } from "moleculer";
import { coreApi, PluginError, TEMPLATE_HEADER_FILE_TYPES, templateVariables, type ChannelTemplate } from "@openatende/plugin-sdk";
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
  if ((t.buttons ?? []).some((b) => templateVariables(b.url ?? "").length > 0 || b.type === "COPY_CODE")) throw new PluginError(WABA_CODES.unsupported, 400, { name, part: "buttons", connectionId, ...onTemplate(WABA_CODES.unsupported) });
  const parts = [
    ["header", t.header?.text ?? "", content.header ?? []],
    ["body", t.body.text, content.body ?? []],
  ] as const;
  for (const [part, text, given] of parts) {
    const expected = templateVariables(text).length;
    if (expected !== given.length) throw new PluginError(WABA_CODES.paramsMismatch, 400, { name, part, expected, got: given.length, connectionId, ...onTemplate(WABA_CODES.paramsMismatch) });
  }
  return { header: t.header?.text ?? null, body: t.body.text, footer: t.footer?.text ?? null };
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
