/**
 * GET /notes's filters (src/filters.ts), the page's query and links (src/ui/query.ts) and the
 * texts: no service needed.
 */
import { LIMIT_MAX, parseFilters, SEARCH_MAX } from "../src/filters";
import { dayBound, excerpt, filtersFromParams, INITIAL_FILTERS, noteLink, notesQuery, rangeInvalid } from "../src/ui/query";
import { notesCsv } from "../src/csv";
import { seesEveryTicket } from "../src/notes";

/** The ValidationError's first problem, as the gateway reads it (data[0]: field and rule). */
function problem(raw: Record<string, unknown>): { field?: string; type?: string } {
  try {
    parseFilters(raw);
  } catch (err) {
    const e = err as { type?: string; code?: number; data?: Array<{ field?: string; type?: string }> };
    expect(e.type).toBe("VALIDATION_ERROR");
    expect(e.code).toBe(422);
    return { field: e.data?.[0]?.field, type: e.data?.[0]?.type };
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe("GET /notes filters", () => {
  it("defaults to the first page of 20, every kind, no filter", () => {
    expect(parseFilters({})).toEqual({ page: 1, limit: 20 });
  });

  it("reads lists as the shell's client writes them (JSON arrays), as comma lists and single values", () => {
    expect(parseFilters({ userIds: "[3,4]", tagIds: "7", kinds: '["contact"]', page: "2", limit: "50" })).toEqual({ userIds: [3, 4], tagIds: [7], kinds: ["contact"], page: 2, limit: 50 });
    expect(parseFilters({ userIds: "3,4,3", tagIds: [5, "6"] })).toMatchObject({ userIds: [3, 4], tagIds: [5, 6] });
    expect(parseFilters({ userIds: "", tagIds: "[]" })).toEqual({ page: 1, limit: 20 });
  });

  it("refuses ids that are not positive integers, and too many of them", () => {
    expect(problem({ userIds: "[0]" })).toEqual({ field: "userIds", type: "numberPositive" });
    expect(problem({ userIds: "abc" })).toEqual({ field: "userIds", type: "numberPositive" });
    expect(problem({ tagIds: "[1.5]" })).toEqual({ field: "tagIds", type: "numberPositive" });
    expect(problem({ tagIds: "-2" })).toEqual({ field: "tagIds", type: "numberPositive" });
    expect(problem({ userIds: JSON.stringify(Array.from({ length: 101 }, (_, i) => i + 1)) })).toEqual({ field: "userIds", type: "arrayMax" });
    expect(problem({ kinds: '["ticket","memo"]' })).toEqual({ field: "kinds", type: "enumValue" });
    expect(problem({ contactIds: "[0]" })).toEqual({ field: "contactIds", type: "numberPositive" });
    expect(parseFilters({ contactIds: "[12]" })).toEqual({ contactIds: [12], page: 1, limit: 20 });
  });

  it("takes ISO dates and date-times; a bare date is the whole day (UTC); from after to is refused on `to`", () => {
    expect(parseFilters({ from: "2026-11-01", to: "2026-11-24" })).toMatchObject({ from: "2026-11-01T00:00:00.000Z", to: "2026-11-24T23:59:59.999Z" });
    expect(parseFilters({ from: "2026-11-24T10:00:00-03:00", to: "2026-11-24T13:00:00Z" })).toMatchObject({ from: "2026-11-24T13:00:00.000Z", to: "2026-11-24T13:00:00.000Z" });
    expect(parseFilters({ from: "2026-11-24", to: "2026-11-24" })).toMatchObject({ from: "2026-11-24T00:00:00.000Z", to: "2026-11-24T23:59:59.999Z" });
    expect(problem({ from: "2026-11-25", to: "2026-11-24" })).toEqual({ field: "to", type: "dateMin" });
    expect(problem({ from: "24/11/2026" })).toEqual({ field: "from", type: "date" });
    expect(problem({ to: "2026-13-45" })).toEqual({ field: "to", type: "date" });
    expect(problem({ to: "yesterday" })).toEqual({ field: "to", type: "date" });
  });

  it("trims the search and refuses one longer than the core API takes", () => {
    expect(parseFilters({ search: "  pedido 42 " })).toMatchObject({ search: "pedido 42" });
    expect(parseFilters({ search: "   " })).toEqual({ page: 1, limit: 20 });
    expect(parseFilters({ search: "x".repeat(SEARCH_MAX) }).search).toHaveLength(SEARCH_MAX);
    expect(problem({ search: "x".repeat(SEARCH_MAX + 1) })).toEqual({ field: "search", type: "stringMax" });
  });

  it("pages from 1, at most LIMIT_MAX a page", () => {
    expect(parseFilters({ limit: String(LIMIT_MAX) }).limit).toBe(LIMIT_MAX);
    expect(problem({ limit: String(LIMIT_MAX + 1) })).toEqual({ field: "limit", type: "numberMax" });
    expect(problem({ limit: "0" })).toEqual({ field: "limit", type: "numberMin" });
    expect(problem({ page: "0" })).toEqual({ field: "page", type: "numberMin" });
    expect(problem({ page: "1.5" })).toEqual({ field: "page", type: "numberInteger" });
  });

  it("admins, supervisors and support accounts see every ticket; an agent does not", () => {
    expect(seesEveryTicket({ id: 1, tenantId: 1, profile: "admin" })).toBe(true);
    expect(seesEveryTicket({ id: 1, tenantId: 1, profile: "supervisor" })).toBe(true);
    expect(seesEveryTicket({ id: 1, tenantId: 1, profile: "user", isSupport: true })).toBe(true);
    expect(seesEveryTicket({ id: 1, tenantId: 1, profile: "user" })).toBe(false);
  });
});

describe("the /notas page's query and links", () => {
  it("sends only the filters set; the date inputs are the user's local days", () => {
    expect(notesQuery(INITIAL_FILTERS)).toEqual({ page: 1, limit: 20, search: undefined, userIds: undefined, tagIds: undefined, kinds: undefined, from: undefined, to: undefined });
    const q = notesQuery({ ...INITIAL_FILTERS, search: " oi ", userIds: [2], tagIds: [9], kind: "contact", from: "2026-11-01", to: "2026-11-02", page: 3, pageSize: 50 });
    expect(q).toMatchObject({ search: "oi", userIds: [2], tagIds: [9], kinds: ["contact"], page: 3, limit: 50 });
    expect(q.from).toBe(new Date(2026, 10, 1, 0, 0, 0, 0).toISOString());
    expect(q.to).toBe(new Date(2026, 10, 2, 23, 59, 59, 999).toISOString());
    expect(dayBound("", false)).toBeUndefined();
    expect(rangeInvalid({ from: "2026-11-02", to: "2026-11-01" })).toBe(true);
    expect(rangeInvalid({ from: "2026-11-02", to: "" })).toBe(false);
    expect(rangeInvalid({ from: "2026-11-02", to: "2026-11-02" })).toBe(false);
  });

  it("a link sets the first filters: kind, search and dates, nothing else", () => {
    expect(filtersFromParams(new URLSearchParams(""))).toEqual(INITIAL_FILTERS);
    expect(filtersFromParams(new URLSearchParams("kind=contact&search=%20entrega%20&from=2026-11-01&to=2026-11-30&userIds=[1]&page=9"))).toEqual({ ...INITIAL_FILTERS, kind: "contact", search: "entrega", from: "2026-11-01", to: "2026-11-30" });
    expect(filtersFromParams(new URLSearchParams("kind=memo&from=ontem&to=2026-11-01"))).toEqual({ ...INITIAL_FILTERS, to: "2026-11-01" });
    // An end before the start keeps the start.
    expect(filtersFromParams(new URLSearchParams("from=2026-11-02&to=2026-11-01"))).toEqual({ ...INITIAL_FILTERS, from: "2026-11-02" });
    expect(filtersFromParams(new URLSearchParams(`search=${"x".repeat(300)}`)).search).toHaveLength(120);
  });

  it("a ticket note opens its ticket, a contact note its contact", () => {
    expect(noteLink({ kind: "ticket", targetId: 41, contactId: 7 })).toBe("/atendimento/41");
    expect(noteLink({ kind: "contact", targetId: 7, contactId: 7 })).toBe("/contatos?contactId=7");
    expect(excerpt("a\n\nb   c")).toBe("a b c");
    expect(excerpt("x".repeat(200), 10)).toBe(`${"x".repeat(9)}…`);
  });
});

describe("CSV export", () => {
  it("quotes what needs it and defuses formulas", () => {
    const csv = notesCsv([
      { kind: "ticket", id: 1, targetId: 41, contactId: 7, contactName: 'Ana "A", SP', userId: 2, userName: "Bia", title: null, body: "=HYPERLINK(1)\nlinha 2", createdAt: "2026-11-24T10:00:00.000Z" },
      { kind: "contact", id: 2, targetId: 7, contactId: 7, contactName: "Ana", userId: null, userName: null, title: "Aviso", body: "ok", createdAt: "2026-11-23T10:00:00.000Z" },
    ]);
    expect(csv.split("\r\n")[0]).toBe("kind,createdAt,contactId,contactName,userName,title,body,ticketId");
    expect(csv).toContain('ticket,2026-11-24T10:00:00.000Z,7,"Ana ""A"", SP",Bia,,"\'=HYPERLINK(1)\nlinha 2",41\r\n');
    expect(csv).toContain("contact,2026-11-23T10:00:00.000Z,7,Ana,,Aviso,ok,\r\n");
  });
});
