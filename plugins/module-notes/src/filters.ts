/**
 * The filters of GET /notes, read from the query string the way the shell's client writes it
 * (an array as JSON, `userIds=[3,4]`; a comma list or a single number is taken too) and
 * checked: ids positive integers, dates ISO with from ≤ to, search at most SEARCH_MAX
 * characters, page from 1, limit at most LIMIT_MAX. A mistake is a Moleculer ValidationError
 * naming the field, which the gateway answers as 400 ERR_VALIDATION with `data.field`.
 */
import { Errors } from "moleculer";

export const NOTE_KINDS = ["ticket", "contact"] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

/** The core API's notes.list takes a search of at most 120 characters: the route refuses longer ones itself. */
export const SEARCH_MAX = 120;
export const LIMIT_MAX = 100;
export const LIMIT_DEFAULT = 20;
export const PAGE_MAX = 10_000;
/** At most this many ids in one list filter. */
export const IDS_MAX = 100;

export interface NoteFilters {
  kinds?: NoteKind[];
  userIds?: number[];
  tagIds?: number[];
  /** Notes about these contacts (their contact notes and their tickets' notes). */
  contactIds?: number[];
  /** ISO date-times, inclusive. */
  from?: string;
  to?: string;
  search?: string;
  page: number;
  limit: number;
}

/** What the route's `params` let through: anything, checked here. */
export type RawFilters = Record<string, unknown>;

interface Problem {
  type: string;
  field: string;
  expected?: unknown;
  actual?: unknown;
  message?: string;
}

export function validationError(problems: Problem[]): Error {
  return new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", problems as unknown as Record<string, unknown>);
}

/** A list given as an array, a JSON array string, a comma list, or one value; undefined when absent or empty. */
function listOf(v: unknown): unknown[] | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === "string") {
    const s = v.trim();
    if (!s) return undefined;
    if (s.startsWith("[")) {
      try {
        const parsed: unknown = JSON.parse(s);
        return Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        return [s];
      }
    }
    return s.split(",").map((x) => x.trim());
  }
  return [v];
}

function ids(field: string, v: unknown, problems: Problem[]): number[] | undefined {
  const list = listOf(v);
  if (!list) return undefined;
  if (list.length > IDS_MAX) {
    problems.push({ type: "arrayMax", field, expected: IDS_MAX, actual: list.length });
    return undefined;
  }
  const out: number[] = [];
  for (const x of list) {
    const n = typeof x === "number" ? x : typeof x === "string" && /^\d+$/.test(x) ? Number(x) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0) {
      problems.push({ type: "numberPositive", field, actual: x });
      return undefined;
    }
    if (!out.includes(n)) out.push(n);
  }
  return out.length ? out : undefined;
}

/** An ISO date (2026-11-24) or date-time (2026-11-24T10:00:00Z, with or without zone). */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

function date(field: string, v: unknown, endOfDay: boolean, problems: Problem[]): Date | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  const s = typeof v === "string" ? v.trim() : "";
  const d = ISO.test(s) ? new Date(s.length === 10 ? `${s}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z` : s) : new Date(NaN);
  if (Number.isNaN(d.getTime())) {
    problems.push({ type: "date", field, actual: v });
    return undefined;
  }
  return d;
}

function int(field: string, v: unknown, def: number, min: number, max: number, problems: Problem[]): number {
  if (v === undefined || v === null || v === "") return def;
  const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n)) problems.push({ type: "numberInteger", field, actual: v });
  else if (n < min) problems.push({ type: "numberMin", field, expected: min, actual: n });
  else if (n > max) problems.push({ type: "numberMax", field, expected: max, actual: n });
  else return n;
  return def;
}

/**
 * The checked filters, or a ValidationError naming the first wrong field. A bare date `to`
 * (2026-11-24) means the end of that day (UTC), a bare `from` its start.
 */
export function parseFilters(raw: RawFilters): NoteFilters {
  const problems: Problem[] = [];
  const out: NoteFilters = { page: 1, limit: LIMIT_DEFAULT };

  const kinds = listOf(raw.kinds);
  if (kinds) {
    const bad = kinds.find((k) => !(NOTE_KINDS as readonly unknown[]).includes(k));
    if (bad !== undefined) problems.push({ type: "enumValue", field: "kinds", expected: NOTE_KINDS.join(", "), actual: bad });
    else out.kinds = [...new Set(kinds as NoteKind[])];
  }
  const userIds = ids("userIds", raw.userIds, problems);
  if (userIds) out.userIds = userIds;
  const tagIds = ids("tagIds", raw.tagIds, problems);
  if (tagIds) out.tagIds = tagIds;
  const contactIds = ids("contactIds", raw.contactIds, problems);
  if (contactIds) out.contactIds = contactIds;

  const from = date("from", raw.from, false, problems);
  const to = date("to", raw.to, true, problems);
  if (from && to && from.getTime() > to.getTime()) problems.push({ type: "dateMin", field: "to", expected: from.toISOString(), actual: to.toISOString() });
  if (from) out.from = from.toISOString();
  if (to) out.to = to.toISOString();

  if (raw.search !== undefined && raw.search !== null) {
    if (typeof raw.search !== "string") problems.push({ type: "string", field: "search", actual: raw.search });
    else if (raw.search.length > SEARCH_MAX) problems.push({ type: "stringMax", field: "search", expected: SEARCH_MAX, actual: raw.search.length });
    else if (raw.search.trim()) out.search = raw.search.trim();
  }

  out.page = int("page", raw.page, 1, 1, PAGE_MAX, problems);
  out.limit = int("limit", raw.limit, LIMIT_DEFAULT, 1, LIMIT_MAX, problems);

  if (problems.length) throw validationError(problems);
  return out;
}
