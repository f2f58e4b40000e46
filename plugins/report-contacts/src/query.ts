/**
 * The contact reports' questions to their projection: which contacts a page selects (all of
 * them; those with any of the chosen tags; those in any of the chosen states), a page of them
 * by name, all of them a chunk at a time (exports), their tag links, and the counts the pages
 * show above the table (per chosen tag, per chosen state).
 *
 * Every read is by name a batch of name buckets at a time (buckets.ts, report-kit's batched
 * read): a query holds at most a chunk of rows and never skips the rows before its batch, so
 * 100,000 contacts are listed, counted and exported with one chunk in memory. The tags page reads
 * the tag links (they carry the contact's name and bucket) and then those contacts by id.
 */
import type { TenantData, Where } from "@openatende/plugin-sdk";
import { batchedPage, batchedRows, type BatchedSelection } from "@openatende/report-kit";
import { NAME_BUCKETS, NO_BUCKET } from "./buckets";
import { contactsTable, fromDb, linksTable, type ContactRow, type LinkRow } from "./projection";

export type Selection = { kind: "list" } | { kind: "tags"; tagIds: number[] } | { kind: "states"; states: string[] };

/** The list and states pages' contacts, by name. */
function contactSelection(s: Exclude<Selection, { kind: "tags" }>): BatchedSelection<ContactRow> {
  const where: Where = s.kind === "states" ? { deleted: false, state: s.states } : { deleted: false };
  return { where, key: "bucket", keys: NAME_BUCKETS, orderBy: [["bucket", "asc"], ["name", "asc"], ["id", "asc"]], map: fromDb, pad: NO_BUCKET };
}

/** The links of the chosen tags, by the contact's name (a contact with two of them: adjacent). */
function linkSelection(tagIds: number[]): BatchedSelection<LinkRow> {
  const map = (r: LinkRow): LinkRow => ({ ...r, contactId: Number(r.contactId), tagId: Number(r.tagId), bucket: Number(r.bucket) });
  return { where: { tagId: tagIds }, key: "bucket", keys: NAME_BUCKETS, orderBy: [["bucket", "asc"], ["name", "asc"], ["contactId", "asc"]], map, pad: NO_BUCKET };
}

/** The ids of the contacts carrying any of the tags, by name, each once. */
async function* taggedIds(tenant: TenantData, tagIds: number[], chunk: number): AsyncGenerator<number> {
  let last: number | null = null;
  for await (const l of batchedRows(linksTable(tenant), linkSelection(tagIds), chunk)) {
    if (l.contactId === last) continue;
    last = l.contactId;
    yield l.contactId;
  }
}

/** The tagged contacts by name, `chunk` at a time: a chunk of ids, then those contacts in one query. */
async function* taggedContacts(tenant: TenantData, tagIds: number[], chunk: number, skip = 0): AsyncGenerator<ContactRow> {
  let ids: number[] = [];
  const flush = async function* () {
    const found = new Map((await contactsTable(tenant).find({ deleted: false, id: ids })).map((r) => [Number(r.id), fromDb(r)]));
    for (const id of ids) if (found.has(id)) yield found.get(id)!;
    ids = [];
  };
  let n = 0;
  for await (const id of taggedIds(tenant, tagIds, chunk)) {
    if (n++ < skip) continue;
    ids.push(id);
    if (ids.length === chunk) yield* flush();
  }
  if (ids.length) yield* flush();
}

export async function pageOf(tenant: TenantData, s: Selection, page: number, limit: number): Promise<{ rows: ContactRow[]; hasMore: boolean }> {
  if (s.kind !== "tags") return batchedPage(contactsTable(tenant), contactSelection(s), page, limit);
  // The tags page counts distinct contacts: the links before the page are read (a chunk at a time), not held.
  const rows: ContactRow[] = [];
  for await (const r of taggedContacts(tenant, s.tagIds, limit + 1, (page - 1) * limit)) {
    rows.push(r);
    if (rows.length > limit) break;
  }
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

export function allOf(tenant: TenantData, s: Selection, chunk = 500): AsyncGenerator<ContactRow> {
  return s.kind === "tags" ? taggedContacts(tenant, s.tagIds, chunk) : batchedRows(contactsTable(tenant), contactSelection(s), chunk);
}

/** The tag ids of these contacts. */
export async function tagsOf(tenant: TenantData, contactIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (!contactIds.length) return out;
  for (const l of await linksTable(tenant).find({ contactId: contactIds }, { orderBy: [["tagId", "asc"]] })) {
    const id = Number(l.contactId);
    out.set(id, [...(out.get(id) ?? []), Number(l.tagId)]);
  }
  return out;
}

export interface ContactsSummary {
  total: number;
  /** Per chosen tag (tag report) or state (state report), in the order chosen. */
  groups: Array<{ key: string; count: number }>;
}

export async function summaryOf(tenant: TenantData, s: Selection, chunk = 2000): Promise<ContactsSummary> {
  if (s.kind === "tags") {
    // A deleted contact's links are gone with it: the links count the live contacts.
    const groups = await Promise.all(s.tagIds.map(async (tagId) => ({ key: String(tagId), count: await linksTable(tenant).count({ tagId }) })));
    // One tag: its count; more: the contacts carrying any of them, each once (links read a chunk at a time).
    let total = groups.length === 1 ? groups[0].count : 0;
    if (groups.length > 1) for await (const _ of taggedIds(tenant, s.tagIds, chunk)) total++;
    return { total, groups };
  }
  const total = await contactsTable(tenant).count(contactSelection(s).where);
  if (s.kind === "states") return { total, groups: await Promise.all(s.states.map(async (state) => ({ key: state, count: await contactsTable(tenant).count({ deleted: false, state }) }))) };
  return { total, groups: [] };
}

/**
 * The states the tenant's contacts have, with how many each (the state filter's choices): the
 * contacts read a batch of buckets at a time, only the counts kept (the repository has no GROUP BY).
 */
export async function statesOf(tenant: TenantData, chunk = 2000): Promise<Array<{ state: string; count: number }>> {
  const counts = new Map<string, number>();
  for await (const r of batchedRows(contactsTable(tenant), contactSelection({ kind: "list" }), chunk)) if (r.state) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
  return [...counts].map(([state, count]) => ({ state, count })).sort((a, b) => a.state.localeCompare(b.state, "pt-BR"));
}
