/**
 * Interactive messages (reply buttons and lists): the plugin's own shape, checked against
 * WhatsApp's limits before anything is sent, and the Cloud API's `interactive` object.
 * The channel contract has no interactive kind yet; the plugin's `sendInteractive` action takes
 * this shape (a chatbot's menu), and the customer's choice comes back as an inbound message
 * whose body is the chosen title.
 *
 * Limits (Cloud API): up to 3 reply buttons, each title ≤ 20 characters and id ≤ 256; a list
 * of up to 10 rows in up to 10 sections, its button label ≤ 20, row title ≤ 24, row
 * description ≤ 72, section title ≤ 24; body ≤ 1024, header and footer ≤ 60.
 */
import { PluginError } from "@openatende/plugin-sdk";
import { codeOf, WABA_CODES } from "./provider";

export interface InteractiveButton {
  id: string;
  title: string;
}

export interface InteractiveRow {
  id: string;
  title: string;
  description?: string;
}

export interface InteractiveSpec {
  type: "button" | "list";
  body: string;
  header?: string;
  footer?: string;
  /** type "button": the reply buttons. */
  buttons?: InteractiveButton[];
  /** type "list": the label of the button that opens the list. */
  button?: string;
  /** type "list": its sections. */
  sections?: Array<{ title?: string; rows: InteractiveRow[] }>;
}

export const INTERACTIVE_LIMITS = { buttons: 3, buttonTitle: 20, rows: 10, sections: 10, listButton: 20, rowTitle: 24, rowDescription: 72, sectionTitle: 24, body: 1024, header: 60, footer: 60, id: 256 };

/** The plugin's code prefix of the check running now (checks are synchronous: set and read within one call). */
let prefix = WABA_CODES;

function invalid(field: string, reason: string): never {
  throw new PluginError(codeOf(prefix, "INTERACTIVE_INVALID"), 400, { field, reason });
}

function text(v: unknown, field: string, max: number, required = true): string | undefined {
  if (v === undefined || v === null || v === "") {
    if (required) invalid(field, "required");
    return undefined;
  }
  if (typeof v !== "string" || !v.trim()) invalid(field, "must be a non-empty text");
  if ([...v].length > max) invalid(field, `at most ${max} characters`);
  return v;
}

/** Checks a spec against WhatsApp's limits; throws `<codes>_INTERACTIVE_INVALID` naming the field. */
export function checkInteractive(spec: InteractiveSpec, codes: string = WABA_CODES): void {
  prefix = codes;
  const L = INTERACTIVE_LIMITS;
  text(spec.body, "body", L.body);
  text(spec.header, "header", L.header, false);
  text(spec.footer, "footer", L.footer, false);
  const ids = new Set<string>();
  const uniqueId = (id: unknown, field: string) => {
    text(id, field, L.id);
    if (ids.has(id as string)) invalid(field, "repeated id");
    ids.add(id as string);
  };
  if (spec.type === "button") {
    const b = spec.buttons ?? [];
    if (b.length < 1 || b.length > L.buttons) invalid("buttons", `1 to ${L.buttons} buttons`);
    b.forEach((x, i) => {
      uniqueId(x?.id, `buttons[${i}].id`);
      text(x?.title, `buttons[${i}].title`, L.buttonTitle);
    });
    return;
  }
  if (spec.type !== "list") invalid("type", 'must be "button" or "list"');
  text(spec.button, "button", L.listButton);
  const sections = spec.sections ?? [];
  if (sections.length < 1 || sections.length > L.sections) invalid("sections", `1 to ${L.sections} sections`);
  let rows = 0;
  sections.forEach((s, i) => {
    text(s?.title, `sections[${i}].title`, L.sectionTitle, sections.length > 1);
    const r = s?.rows ?? [];
    if (!r.length) invalid(`sections[${i}].rows`, "at least one row");
    r.forEach((row, j) => {
      uniqueId(row?.id, `sections[${i}].rows[${j}].id`);
      text(row?.title, `sections[${i}].rows[${j}].title`, L.rowTitle);
      text(row?.description, `sections[${i}].rows[${j}].description`, L.rowDescription, false);
    });
    rows += r.length;
  });
  if (rows > L.rows) invalid("sections", `at most ${L.rows} rows in all`);
}

/** The Cloud API's `interactive` object of a checked spec. */
export function interactivePayload(spec: InteractiveSpec, codes: string = WABA_CODES): Record<string, unknown> {
  checkInteractive(spec, codes);
  const common = {
    ...(spec.header ? { header: { type: "text", text: spec.header } } : {}),
    body: { text: spec.body },
    ...(spec.footer ? { footer: { text: spec.footer } } : {}),
  };
  if (spec.type === "button") {
    return { type: "button", ...common, action: { buttons: spec.buttons!.map((b) => ({ type: "reply", reply: { id: b.id, title: b.title } })) } };
  }
  return {
    type: "list",
    ...common,
    action: {
      button: spec.button,
      sections: spec.sections!.map((s) => ({ ...(s.title ? { title: s.title } : {}), rows: s.rows.map((r) => ({ id: r.id, title: r.title, ...(r.description ? { description: r.description } : {}) })) })),
    },
  };
}
