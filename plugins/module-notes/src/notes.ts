/**
 * Which notes a caller sees, asked of the core API (notes.list answers both kinds merged,
 * newest first).
 *
 * Visibility (spec §6): admins and supervisors see every ticket, so they see every note of
 * their tenant. An agent (profile user) sees only some tickets (their queues, their own,
 * settings that hide others' tickets), and the core API's notes.list cannot filter by what a
 * user may see (it has no ticket or queue filter). So an agent sees the ticket notes they wrote
 * themselves and every contact note (contacts are the whole tenant's, as on /contatos): two
 * lists of the core, merged here by date.
 */
import type { CoreApi, Page, PlatformNote, NoteQuery } from "@openatende/plugin-sdk";
import type { NoteFilters, NoteKind } from "./filters";
import { validationError } from "./filters";

/** The caller as the gateway puts it in ctx.meta.user. */
export interface Caller {
  id: number;
  tenantId: number;
  profile: string;
  isSupport?: boolean;
}

/** Sees every ticket of the tenant (spec §6: admins and supervisors). */
export function seesEveryTicket(c: Caller): boolean {
  return c.profile === "admin" || c.profile === "super" || c.profile === "supervisor" || !!c.isSupport;
}

/** How deep an agent's merged list can be paged (each page of it reads both lists up to there). */
export const MERGED_DEPTH_MAX = 2000;
/** The core API's largest page. */
const CORE_LIMIT = 100;

const newestFirst = (a: PlatformNote, b: PlatformNote) =>
  b.createdAt.localeCompare(a.createdAt) || (a.kind === b.kind ? b.id - a.id : a.kind === "ticket" ? -1 : 1);

/** Normalises the core's dates to ISO strings (a bus answer may carry them as Date). */
function iso(n: PlatformNote): PlatformNote {
  const d = n.createdAt as unknown;
  return d instanceof Date ? { ...n, createdAt: d.toISOString() } : n;
}

/** The query of one kind of the core for the filters (no page). */
function query(f: NoteFilters, kinds: NoteKind[], userIds: number[] | undefined): NoteQuery {
  const q: NoteQuery = { kinds };
  if (userIds) q.userIds = userIds;
  if (f.tagIds) q.tagIds = f.tagIds;
  if (f.contactIds) q.contactIds = f.contactIds;
  if (f.from) q.from = f.from;
  if (f.to) q.to = f.to;
  if (f.search) q.search = f.search;
  return q;
}

/** The first `n` notes of a core query, read page by page, and the query's count. */
async function firstOf(api: CoreApi, tenantId: number, q: NoteQuery, n: number): Promise<{ rows: PlatformNote[]; count: number }> {
  const rows: PlatformNote[] = [];
  let count = 0;
  for (let page = 1; ; page++) {
    const r = await api.notes.list({ tenantId, ...q, page, limit: CORE_LIMIT });
    count = r.count;
    rows.push(...r.rows.map(iso));
    if (rows.length >= n || !r.hasMore || r.rows.length === 0) break;
  }
  return { rows: rows.slice(0, n), count };
}

/** One page of the notes the caller may see, with the filters. */
export async function listNotes(api: CoreApi, caller: Caller, f: NoteFilters): Promise<Page<PlatformNote>> {
  const tenantId = caller.tenantId;
  const kinds: NoteKind[] = f.kinds ?? ["ticket", "contact"];
  if (seesEveryTicket(caller)) {
    const r = await api.notes.list({ tenantId, ...query(f, kinds, f.userIds), page: f.page, limit: f.limit });
    return { rows: r.rows.map(iso), count: r.count, hasMore: r.hasMore };
  }

  // An agent: their own ticket notes (when the user filter lets them through) and the contact notes.
  const depth = f.page * f.limit;
  if (depth > MERGED_DEPTH_MAX) throw validationError([{ type: "numberMax", field: "page", expected: Math.floor(MERGED_DEPTH_MAX / f.limit), actual: f.page }]);
  const own = !f.userIds || f.userIds.includes(caller.id);
  const parts = await Promise.all([
    kinds.includes("ticket") && own ? firstOf(api, tenantId, query(f, ["ticket"], [caller.id]), depth) : { rows: [], count: 0 },
    kinds.includes("contact") ? firstOf(api, tenantId, query(f, ["contact"], f.userIds), depth) : { rows: [], count: 0 },
  ]);
  const merged = [...parts[0].rows, ...parts[1].rows].sort(newestFirst);
  const count = parts[0].count + parts[1].count;
  return { rows: merged.slice((f.page - 1) * f.limit, depth), count, hasMore: depth < count };
}

/** Every note the filters select, newest first, up to `max` (the CSV export). */
export async function allNotes(api: CoreApi, caller: Caller, f: NoteFilters, max: number): Promise<PlatformNote[]> {
  // An agent's merged list reads both of the core's lists up to the depth asked, in one go.
  if (!seesEveryTicket(caller)) return (await listNotes(api, caller, { ...f, page: 1, limit: Math.min(max, MERGED_DEPTH_MAX) })).rows;
  const out: PlatformNote[] = [];
  for (let page = 1; out.length < max; page++) {
    const r = await listNotes(api, caller, { ...f, page, limit: CORE_LIMIT });
    out.push(...r.rows);
    if (!r.hasMore || r.rows.length === 0) break;
  }
  return out.slice(0, max);
}
