/**
 * What the WABA template editor decides without a browser: the templates the campaign's
 * connections offer (one choice per name and language, with each connection's state of it), the
 * variables resized to the chosen template (its buttons that take a value too), and the preview
 * of its texts and buttons.
 */
import { TEMPLATE_HEADER_FILE_TYPES, templateButtonParameters, templateVariables, type ChannelTemplate } from "@openatende/plugin-sdk/src/templates";
import type { WabaContent } from "../type";

/** A connection's templates as the editor loaded them: the list, or why there is none (an error code). */
export type ConnectionTemplates = { templates: ChannelTemplate[] } | { error: string };

/** How a template stands on one connection. */
export type TemplateState = { connectionId: number; state: "APPROVED" | "OTHER" | "MISSING" | "NO_TEMPLATES" | "LOADING"; status?: string };

export const keyOf = (t: { name: string; language: string }) => `${t.name}|${t.language}`;

/** Every (name, language) some connection has, in the order first seen, with the first connection's copy. */
export function templateChoices(byConnection: Array<ConnectionTemplates | undefined>): ChannelTemplate[] {
  const seen = new Map<string, ChannelTemplate>();
  for (const c of byConnection) if (c && "templates" in c) for (const t of c.templates) if (!seen.has(keyOf(t))) seen.set(keyOf(t), t);
  return [...seen.values()];
}

/** The chosen template's state on each connection (a campaign sends only when it is APPROVED on all). */
export function statesOf(connectionIds: number[], loaded: Map<number, ConnectionTemplates>, chosen: { name: string; language: string } | null): TemplateState[] {
  return connectionIds.map((connectionId) => {
    const c = loaded.get(connectionId);
    if (!c) return { connectionId, state: "LOADING" };
    if ("error" in c) return { connectionId, state: "NO_TEMPLATES" };
    const t = chosen ? c.templates.find((x) => keyOf(x) === keyOf(chosen)) : undefined;
    if (!t) return { connectionId, state: "MISSING" };
    return { connectionId, state: t.status === "APPROVED" ? "APPROVED" : "OTHER", status: t.status };
  });
}

/** The variables a template's header and body take. */
export function variableCounts(t: Pick<ChannelTemplate, "header" | "body">): { header: number; body: number } {
  return { header: t.header?.format === "TEXT" ? templateVariables(t.header.text ?? "").length : 0, body: templateVariables(t.body.text).length };
}

/** `values` cut or padded with "" to `n`. */
export function resized(values: string[] | undefined, n: number): string[] {
  return Array.from({ length: n }, (_, i) => values?.[i] ?? "");
}

/** The content once a template is chosen: its name and language, the variables kept where they fit. */
export function choose(content: WabaContent, t: ChannelTemplate): WabaContent {
  const n = variableCounts(t);
  const { preview: _old, headerMedia, buttons: _buttons, ...rest } = content;
  // A header file is kept only while it is still of the header's types.
  const keep = headerMedia && t.header && TEMPLATE_HEADER_FILE_TYPES[t.header.format]?.includes(headerMedia.mimeType);
  // One value per button that takes one (by its index), kept where the chosen template's button at that index takes one too.
  const buttons = templateButtonParameters(t).map((b) => ({ index: b.index, value: content.buttons?.find((x) => x.index === b.index)?.value ?? "" }));
  return {
    ...rest,
    template: { name: t.name, language: t.language },
    header: resized(content.header, n.header),
    body: resized(content.body, n.body),
    ...(buttons.length ? { buttons } : {}),
    ...(keep ? { headerMedia } : {}),
  };
}

/** A template's buttons as the preview shows them: the label, and the filled address, code or payload (`[1]` while empty). */
export function previewButtons(t: Pick<ChannelTemplate, "buttons">, values: WabaContent["buttons"]): Array<{ index: number; type: string; text: string; detail: string | null }> {
  return (t.buttons ?? []).map((b, index) => {
    const v = values?.find((x) => x.index === index)?.value.trim() ?? "";
    const detail = b.type === "URL" ? (b.url ?? "").replace(/\{\{\s*1\s*\}\}/, v || "[1]") : b.type === "COPY_CODE" ? v || "[1]" : b.type === "PHONE_NUMBER" ? (b.phoneNumber ?? null) : v || null;
    return { index, type: b.type, text: b.text, detail };
  });
}

/** A template text with {{n}} shown as the variable's value ([n] while it is empty). */
export function previewOf(text: string, values: string[]): string {
  return text.replace(/\{\{\s*(\d{1,2})\s*\}\}/g, (_all, n: string) => values[Number(n) - 1]?.trim() || `[${n}]`);
}

export const emptyWabaContent = (): WabaContent => ({ template: { name: "", language: "" }, body: [], header: [] });

/** The editor's own check (the server checks again, on every connection): a template, and every variable filled. */
export function validateWabaContent(c: WabaContent, t: (k: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!c.template?.name) out["template.name"] = t("waba.required.template");
  for (const part of ["header", "body"] as const) (c[part] ?? []).forEach((v, i) => {
    if (!v.trim()) out[`${part}.${i}`] = t("waba.required.variable");
  });
  return out;
}
