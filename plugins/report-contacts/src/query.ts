/**
 * The contact reports' questions to their projection: which contacts a page selects (all of
 * them; those with any of the chosen tags; those in any of the chosen states), a page of them
 * by name, all of them a chunk at a time (exports), their tag links, and the counts the pages
 * show above the table (per chosen tag, per chosen state).
 */
import type { TenantData, Where } from "@openatende/plugin-sdk";
import { contactsTable, fromDb, linksTable, type ContactRow } from "./projection";

export type Selection = { kind: "list" } | { kind: "tags"; tagIds: number[] } | { kind: "states"; states: string[] };

const ORDER: Array<[string, "asc" | "desc"]> = [
  ["name", "asc"],
  ["id", "asc"],
];

/** The selection as a condition; null when it can select nobody. */
async function whereOf(tenant: TenantData, s: Selection): Promise<Where | null> {
  if (s.kind === "list") return { deleted: false };
  if (s.kind === "states") return { deleted: false, state: s.states };
  const ids = [...new Set((await linksTable(tenant).find({ tagId: s.tagIds })).map((l) => Number(l.contactId)))];
  return ids.length ? { deleted: false, id: ids } : null;
}

export async function pageOf(tenant: TenantData, s: Selection, page: number, limit: number): Promise<{ rows: ContactRow[]; hasMore: boolean }> {
  const where = await whereOf(tenant, s);
  if (!where) return { rows: [], hasMore: false };
  const found = await contactsTable(tenant).find(where, { orderBy: ORDER, limit: limit + 1, offset: (page - 1) * limit });
  return { rows: found.slice(0, limit).map(fromDb), hasMore: found.length > limit };
}

export async function* allOf(tenant: TenantData, s: Selection, chunk = 500): AsyncGenerator<ContactRow> {
  const where = await whereOf(tenant, s);
  if (!where) return;
  for (let offset = 0; ; offset += chunk) {
    const found = await contactsTable(tenant).find(where, { orderBy: ORDER, limit: chunk, offset });
    yield* found.map(fromDb);
    if (found.length < chunk) return;
  }
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

export async function summaryOf(tenant: TenantData, s: Selection): Promise<ContactsSummary> {
  const where = await whereOf(tenant, s);
  const total = where ? await contactsTable(tenant).count(where) : 0;
  if (s.kind === "tags") {
    // A deleted contact's links are gone with it: the links count the live contacts.
    const groups = await Promise.all(s.tagIds.map(async (tagId) => ({ key: String(tagId), count: await linksTable(tenant).count({ tagId }) })));
    return { total, groups };
  }
  if (s.kind === "states") return { total, groups: await Promise.all(s.states.map(async (state) => ({ key: state, count: await contactsTable(tenant).count({ deleted: false, state }) }))) };
  return { total, groups: [] };
}

/** The states the tenant's contacts have, with how many each (the state filter's choices). */
export async function statesOf(tenant: TenantData, chunk = 2000): Promise<Array<{ state: string; count: number }>> {
  const counts = new Map<string, number>();
  for (let offset = 0; ; offset += chunk) {
    const found = await contactsTable(tenant).find({ deleted: false }, { orderBy: [["id", "asc"]], limit: chunk, offset });
    for (const r of found) if (r.state) counts.set(r.state, (counts.get(r.state) ?? 0) + 1);
    if (found.length < chunk) break;
  }
  return [...counts].map(([state, count]) => ({ state, count })).sort((a, b) => a.state.localeCompare(b.state, "pt-BR"));
}
