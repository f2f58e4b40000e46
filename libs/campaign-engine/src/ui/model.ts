/**
 * What the campaign screens share and can be tested without a browser: the type a campaign
 * plugin hands registerCampaignPages, the actions each status allows (spec §4, the same rules
 * the engine enforces), the progress of the counts, field errors from a server error, and the
 * date-time input's value.
 */
import type { ComponentType } from "react";
import type { ShellRuntime, UiApiError, UiLabel } from "@openatende/plugin-sdk/ui";
import type { CampaignCounts, CampaignStatus, CampaignSummary } from "@openatende/plugin-sdk/src/campaign-contract";

export interface CampaignContentEditorProps<C> {
  runtime: ShellRuntime;
  value: C | undefined;
  onChange(v: C): void;
  /** Field name (the content's own, e.g. "messages.0") → the text to show under it. */
  errors: Record<string, string>;
  connectionIds: number[];
  disabled: boolean;
}

export interface CampaignUiType<C> {
  /** "campanhas" | "campanhaswaba" | "campanhasms". */
  routeBase: string;
  /** Menu entry and page title, 4 languages. */
  title: UiLabel;
  ContentEditor: ComponentType<CampaignContentEditorProps<C>>;
  emptyContent(): C;
  /** One line for the list and the detail page. */
  contentSummary(c: C, t: (k: string, o?: any) => string): string; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Which connection types may be chosen (undefined: any). */
  connectionTypes?: string[];
  /** Checks the content before it is sent (field → text); the server checks it again. */
  validateContent?(c: C, t: (k: string, o?: Record<string, unknown>) => string): Record<string, string>;
  /** The menu icon (an image URL). */
  icon?: string;
  /**
   * A schedule the server refused (its error): the extra params to schedule again with, once the
   * user agreed (SMS: too few credits → "continue with the first N contacts?" → `{ limitTo: N }`),
   * or null to show the refusal as usual.
   */
  retrySchedule?(runtime: ShellRuntime, campaign: Campaign<C>, err: UiApiError): Promise<Record<string, unknown> | null>;
}

export type Campaign<C = unknown> = CampaignSummary & { content: C };
export type CampaignAction = "edit" | "delete" | "schedule" | "pause" | "resume" | "cancel";

/** The actions a status allows (spec §4). Delete also needs no linked contacts: the server says so with its code. */
export function actionsFor(status: CampaignStatus): CampaignAction[] {
  const out: CampaignAction[] = [];
  if (status === "pending" || status === "canceled") out.push("edit", "schedule", "delete");
  if (status === "scheduled" || status === "processing") out.push("pause");
  if (status === "paused") out.push("resume");
  if (status !== "finished" && status !== "canceled") out.push("cancel");
  return out;
}

/** The share of linked contacts done (sent or failed), 0–100. */
export function progressPercent(c: CampaignCounts): number {
  if (!c.contacts) return 0;
  return Math.round(((c.contacts - c.toSend) / c.contacts) * 100);
}

export const STATUS_COLORS: Record<CampaignStatus, string> = {
  pending: "default",
  scheduled: "blue",
  processing: "processing",
  paused: "warning",
  canceled: "error",
  finished: "success",
};

const FIELD_OF_CODE: Record<string, string[]> = {
  ERR_CAMPAIGN_DATE_INVALID: ["startAt"],
  ERR_CAMPAIGN_PAST_DATE: ["startAt"],
  ERR_INVALID_INTERVAL: ["minIntervalSeconds", "maxIntervalSeconds"],
};

/**
 * The fields a server error points at, each with the error's translated text: the engine's
 * date and interval codes, a validation error's fields, a content's problems (`data.problems`,
 * field → code). An error none of these is shown by the notice alone.
 */
/** The form's own fields; any other error key is one of the type's content (template.name, body.0, buttons.1…). */
export const FORM_FIELDS = ["name", "startAt", "connectionIds", "minIntervalSeconds", "maxIntervalSeconds", "source"] as const;

/**
 * The server's errors left once some of the form's parts changed: an error of a changed
 * field goes (the user is fixing it), the others stay until the next save. `changed` names
 * form fields, or "content" for every error of the type's content.
 */
export function withoutChanged(errors: Record<string, string>, changed: string[]): Record<string, string> {
  const gone = (k: string) => changed.includes(k) || (k === "minIntervalSeconds" && changed.includes("maxIntervalSeconds")) || (k === "maxIntervalSeconds" && changed.includes("minIntervalSeconds")) || (changed.includes("content") && !(FORM_FIELDS as readonly string[]).includes(k));
  const out = Object.fromEntries(Object.entries(errors).filter(([k]) => !gone(k)));
  return Object.keys(out).length === Object.keys(errors).length ? errors : out;
}

export function fieldErrorsOf(err: unknown): Record<string, string> {
  const e = err as Partial<UiApiError> | undefined;
  if (!e || typeof e.code !== "string") return {};
  const text = e.detail || e.title || e.code;
  const out: Record<string, string> = {};
  for (const f of FIELD_OF_CODE[e.code] ?? []) out[f] = text;
  const data = (e.data ?? {}) as { errors?: Array<{ field?: string }>; field?: string; problems?: Record<string, string> };
  if (e.code === "ERR_VALIDATION") {
    const fields = (data.errors ?? []).map((x) => x.field).filter((f): f is string => typeof f === "string");
    if (!fields.length && data.field) fields.push(data.field);
    for (const f of fields) out[f.replace(/^content\./, "").replace(/\[(\d+)\]/g, ".$1")] = text;
  }
  if (data.problems && typeof data.problems === "object") for (const f of Object.keys(data.problems)) out[f] = text;
  return out;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Epoch ms → the value of an `<input type="datetime-local">` (the browser's local time). */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** An `<input type="datetime-local">` value → epoch ms (null: empty or invalid). */
export function fromLocalInput(v: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(v.trim());
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]));
  return Number.isNaN(d.getTime()) || d.getMonth() !== Number(m[2]) - 1 ? null : d.getTime();
}

/** The start is not in the past: the minute chosen may be the current one. */
export function startInPast(startAt: number, now: number): boolean {
  return startAt < Math.floor(now / 60_000) * 60_000;
}

export function formatDateTime(ms: number | null | undefined, locale: string): string {
  if (!ms) return "—";
  return new Date(ms).toLocaleString(locale, { day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" });
}
