/**
 * The /notas page's state as the query of GET /notes, and where a note leads: a ticket note
 * opens its ticket (/atendimento/<ticketId>), a contact note the contacts page with that
 * contact (/contatos?contactId=<id>, the link the attendance's contact panel uses too).
 */
export type KindFilter = "all" | "ticket" | "contact";

export interface NotesFilterState {
  search: string;
  userIds: number[];
  tagIds: number[];
  kind: KindFilter;
  /** yyyy-mm-dd from the date inputs ("" when empty). */
  from: string;
  to: string;
  page: number;
  pageSize: number;
}

export const INITIAL_FILTERS: NotesFilterState = { search: "", userIds: [], tagIds: [], kind: "all", from: "", to: "", page: 1, pageSize: 20 };

/**
 * The filters a link to the page sets (/notas?kind=contact&search=…&from=…&to=…): the notes
 * view of the contacts is /notas?kind=contact. Anything else in the link is ignored.
 */
export function filtersFromParams(params: URLSearchParams): NotesFilterState {
  const f: NotesFilterState = { ...INITIAL_FILTERS };
  const kind = params.get("kind");
  if (kind === "ticket" || kind === "contact") f.kind = kind;
  const search = params.get("search")?.trim();
  if (search) f.search = search.slice(0, 120);
  for (const k of ["from", "to"] as const) {
    const v = params.get(k);
    if (v && /^\d{4}-\d{2}-\d{2}$/.test(v)) f[k] = v;
  }
  if (rangeInvalid(f)) f.to = "";
  return f;
}

/** The local day's start or end as an ISO instant (the date inputs are in the user's zone). */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split("-").map(Number);
  const at = end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d, 0, 0, 0, 0);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** True when both dates are set and the end is before the start. */
export function rangeInvalid(s: Pick<NotesFilterState, "from" | "to">): boolean {
  return !!s.from && !!s.to && s.to < s.from;
}

export function notesQuery(s: NotesFilterState): Record<string, string | number | number[] | string[] | undefined> {
  return {
    search: s.search.trim() || undefined,
    userIds: s.userIds.length ? s.userIds : undefined,
    tagIds: s.tagIds.length ? s.tagIds : undefined,
    kinds: s.kind === "all" ? undefined : [s.kind],
    from: dayBound(s.from, false),
    to: dayBound(s.to, true),
    page: s.page,
    limit: s.pageSize,
  };
}

export interface NoteLinkTarget {
  kind: "ticket" | "contact";
  targetId: number;
  contactId: number;
}

export function noteLink(n: NoteLinkTarget): string {
  return n.kind === "ticket" ? `/atendimento/${n.targetId}` : `/contatos?contactId=${n.contactId}`;
}

/** The first `max` characters of a note's text on one line. */
export function excerpt(body: string, max = 160): string {
  const one = body.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
