/**
 * The template screen's form as plain data (no React): the draft the modal edits, the
 * ChannelTemplate it submits, the variables whose examples it asks for, and the field errors
 * of spec §5 (the contract's templateProblems, and the API's own refusals) under the names the
 * form shows them at. The problems' reasons are the SDK's English sentences; `problemText`
 * turns them into the screen's translated texts.
 */
import { TEMPLATE_HEADER_FILE_TYPES, templateProblems, templateVariables, type ChannelTemplate, type TemplateButtonType, type TemplateCategory, type TemplateHeaderFormat } from "@openatende/plugin-sdk/src/channel-contract";
import { SAMPLE_MB } from "../template-sample-limits";

export type HeaderChoice = "NONE" | Extract<TemplateHeaderFormat, "TEXT" | "IMAGE" | "VIDEO" | "DOCUMENT">;
export const HEADER_CHOICES: HeaderChoice[] = ["NONE", "TEXT", "IMAGE", "VIDEO", "DOCUMENT"];
export const LANGUAGES = ["pt_BR", "en_US", "en", "es", "es_MX", "es_AR", "ru"] as const;
export const NAME_PATTERN = /^[a-z0-9_]{1,512}$/;

export interface ButtonDraft {
  type: TemplateButtonType;
  text: string;
  url: string;
  phoneNumber: string;
  /** A URL button's variable example, or a COPY_CODE button's code. */
  example: string;
}

export interface TemplateDraft {
  name: string;
  category: TemplateCategory;
  language: string;
  headerFormat: HeaderChoice;
  headerText: string;
  /** A media header's sample file (a browser File), sent with the template and uploaded to Meta by the plugin. */
  headerFile: SampleFile | null;
  /** Example per variable number of the header's text. */
  headerExamples: Record<number, string>;
  body: string;
  bodyExamples: Record<number, string>;
  footer: string;
  buttons: ButtonDraft[];
}

/** What the form reads of a chosen file (a browser File is one). */
export interface SampleFile {
  name: string;
  type: string;
  size: number;
}

/** The file types a media header's sample takes, as an input's `accept`; null for a header without a file. */
export function sampleAccept(format: HeaderChoice): string | null {
  const types = format === "NONE" ? undefined : TEMPLATE_HEADER_FILE_TYPES[format];
  return types ? types.join(",") : null;
}

/** Whether the draft's template goes with a sample file (to the plugin's route) rather than as JSON alone. */
export const needsSample = (d: Pick<TemplateDraft, "headerFormat">) => sampleAccept(d.headerFormat) !== null;

export const emptyDraft = (language = "pt_BR"): TemplateDraft => ({
  name: "",
  category: "UTILITY",
  language,
  headerFormat: "NONE",
  headerText: "",
  headerFile: null,
  headerExamples: {},
  body: "",
  bodyExamples: {},
  footer: "",
  buttons: [],
});

export const emptyButton = (type: TemplateButtonType): ButtonDraft => ({ type, text: "", url: "", phoneNumber: "", example: "" });

/** The variables of a text in number order ({{2}} then {{1}} → [1, 2]): one example input each. */
export function variablesOf(text: string): number[] {
  return [...templateVariables(text)].sort((a, b) => a - b);
}

/** The language of the screen's locale as Meta writes it (the new template's default). */
export function languageOfLocale(locale: string): string {
  return locale === "pt-BR" ? "pt_BR" : locale === "en" ? "en_US" : locale;
}

const trim = (s: string) => s.trim();

/** The template the form submits (POST /templates' `template`). */
export function toTemplate(d: TemplateDraft): Omit<ChannelTemplate, "id" | "status" | "rejectedReason"> {
  const examples = (text: string, ex: Record<number, string>) => variablesOf(text).map((n) => trim(ex[n] ?? ""));
  const header: ChannelTemplate["header"] =
    d.headerFormat === "NONE"
      ? undefined
      : d.headerFormat === "TEXT"
        ? { format: "TEXT", text: trim(d.headerText), ...(variablesOf(d.headerText).length ? { example: examples(d.headerText, d.headerExamples) } : {}) }
        : { format: d.headerFormat };
  const bodyExamples = examples(d.body, d.bodyExamples);
  return {
    name: trim(d.name),
    language: d.language,
    category: d.category,
    ...(header ? { header } : {}),
    body: { text: trim(d.body), ...(bodyExamples.length ? { example: bodyExamples } : {}) },
    ...(trim(d.footer) ? { footer: { text: trim(d.footer) } } : {}),
    ...(d.buttons.length
      ? {
          buttons: d.buttons.map((b) => ({
            type: b.type,
            text: trim(b.text),
            ...(b.type === "URL" ? { url: trim(b.url), ...(variablesOf(b.url).length && trim(b.example) ? { example: [trim(b.example)] } : {}) } : {}),
            ...(b.type === "PHONE_NUMBER" ? { phoneNumber: trim(b.phoneNumber) } : {}),
            ...(b.type === "COPY_CODE" && trim(b.example) ? { example: [trim(b.example)] } : {}),
          })),
        }
      : {}),
  };
}

export interface FieldProblem {
  /** The form's field: name, body.text, body.text.example, buttons.0.url, … */
  field: string;
  reason: string;
}

/** Everything wrong with the draft before it is sent: the name's form, then spec §5's rules (templateProblems). */
export function draftProblems(d: TemplateDraft): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (!NAME_PATTERN.test(d.name.trim())) out.push({ field: "name", reason: "name" });
  if (d.footer.length > 60) out.push({ field: "footer.text", reason: "footer" });
  const accept = sampleAccept(d.headerFormat);
  if (accept && d.headerFormat !== "NONE" && d.headerFormat !== "TEXT") {
    const f = d.headerFile;
    if (!f) out.push({ field: "header.example", reason: "sampleMissing" });
    else if (!accept.split(",").includes(f.type)) out.push({ field: "header.example", reason: `sampleType:${accept.split(",").join(", ")}` });
    else if (f.size > SAMPLE_MB[d.headerFormat] * 1024 * 1024) out.push({ field: "header.example", reason: `sampleSize:${SAMPLE_MB[d.headerFormat]}` });
  }
  return [...out, ...templateProblems(toTemplate(d))];
}

/**
 * The form field an API error names: ERR_WABA_TEMPLATE_INVALID's `template.body.text.example`,
 * or the validator's `template.body.example[0]` / `template.buttons[1].url`; with a media
 * header, `template.header.example` is its sample file (ERR_…_TEMPLATE_SAMPLE_*).
 */
export function formFieldOf(apiField: string, mediaHeader = false): string {
  const f = apiField.replace(/^template\./, "").replace(/\[(\d+)\]/g, ".$1");
  // A media header's example is its sample file, shown at the file's input.
  if (mediaHeader && /^header\.example(\.\d+)?$/.test(f)) return "header.example";
  const m = /^(header|body)\.example(\.\d+)?$/.exec(f);
  if (m) return `${m[1]}.text.example`;
  if (f === "footer") return "footer.text";
  if (f === "body") return "body.text";
  return f;
}

/** The first problem of each field, field → reason. */
export function byField(problems: FieldProblem[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of problems) if (!(p.field in out)) out[p.field] = p.reason;
  return out;
}

/** The text key (of texts-templates.ts) and its values that say a problem's reason in the screen's language; null for a reason it does not know. */
export function problemText(reason: string): { key: string; vars?: Record<string, unknown> } | null {
  const count = /^(\d+) variable\(s\) need as many examples/.exec(reason);
  if (count) return { key: "errExampleCount", vars: { count: Number(count[1]) } };
  if (reason === "sampleMissing") return { key: "errSampleMissing" };
  const sample = /^sample(Type|Size):(.*)$/.exec(reason);
  if (sample) return sample[1] === "Type" ? { key: "errSampleType", vars: { types: sample[2] } } : { key: "errSampleSize", vars: { maxMb: Number(sample[2]) } };
  const known: Array<[RegExp, string]> = [
    [/^name$/, "errName"],
    [/^footer$/, "errFooter"],
    [/numbered/, "errNumbering"],
    [/must not be empty/, "errExampleEmpty"],
    [/start or end/, "errEdges"],
    [/TEXT header needs/, "errHeaderText"],
    [/at most one variable/, "errHeaderOneVar"],
    [/body is required/, "errBodyRequired"],
    [/button needs its text/, "errButtonText"],
    [/https address/, "errButtonUrl"],
    [/call button/, "errButtonPhone"],
    [/example code/, "errButtonCode"],
  ];
  const hit = known.find(([re]) => re.test(reason));
  return hit ? { key: hit[1] } : null;
}
