/**
 * platform.notes.list: ticket notes and contact notes in one list, newest first. Each kind is
 * asked of its domain (tickets.notesQuery, contacts.notesQuery) for the first page × limit
 * rows, which is enough to cut any page of the merge; pages past MAX_DEPTH rows are refused.
 */
import type { NoteQuery, Page, PlatformNote } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { iso } from "./views";

const MAX_DEPTH = 10_000;

type Hit = PlatformNote & { at: number };

export async function listNotes(ctx: Ctx, p: NoteQuery & { tenantId: number }, contactIds: number[] | null, page: { offset: number; limit: number }): Promise<Page<PlatformNote>> {
  const depth = page.offset + page.limit;
  if (depth > MAX_DEPTH) throw new AppError("ERR_VALIDATION", { field: "page", rule: "numberMax", expected: Math.floor(MAX_DEPTH / page.limit) });
  if (contactIds && !contactIds.length) return { rows: [], count: 0, hasMore: false };
  // Contact notes belong to no ticket: a ticket filter leaves only ticket notes.
  const kinds = (p.kinds ?? ["ticket", "contact"]).filter((k) => k === "ticket" || !p.ticketIds);
  const filter = { tenantId: p.tenantId, contactIds: contactIds ?? undefined, userIds: p.userIds, from: p.from, to: p.to, search: p.search, limit: depth };
  const [tickets, contacts] = await Promise.all([
    kinds.includes("ticket") ? call(ctx, "tickets.notesQuery", { ...filter, ticketIds: p.ticketIds }) : { rows: [], count: 0 },
    kinds.includes("contact") ? call(ctx, "contacts.notesQuery", filter) : { rows: [], count: 0 },
  ]);
  const hits: Hit[] = [
    ...tickets.rows.map((n) => ({ kind: "ticket" as const, id: n.id, targetId: n.ticketId, contactId: n.contactId, contactName: "", userId: n.userId, userName: null, title: null, body: n.body, createdAt: iso(n.createdAt)!, at: new Date(n.createdAt).getTime() })),
    ...contacts.rows.map((n) => ({ kind: "contact" as const, id: n.id, targetId: n.contactId, contactId: n.contactId, contactName: n.contactName, userId: n.userId, userName: null, title: n.title, body: n.body, createdAt: iso(n.createdAt)!, at: new Date(n.createdAt).getTime() })),
  ];
  hits.sort((a, b) => b.at - a.at || b.id - a.id);
  const rows = hits.slice(page.offset, depth);
  const contactNames = rows.some((n) => n.kind === "ticket")
    ? new Map((await call(ctx, "contacts.summaries", { tenantId: p.tenantId, ids: [...new Set(rows.filter((n) => n.kind === "ticket").map((n) => n.contactId))] })).map((c) => [c.id, c.name]))
    : new Map<number, string>();
  const userIds = [...new Set(rows.map((n) => n.userId).filter((u): u is number => u !== null))];
  const userNames = userIds.length ? new Map((await call(ctx, "users.names", { tenantId: p.tenantId, ids: userIds })).map((u) => [u.id, u.name])) : new Map<number, string>();
  const count = tickets.count + contacts.count;
  return {
    rows: rows.map(({ at: _at, ...n }) => ({ ...n, contactName: n.kind === "ticket" ? (contactNames.get(n.contactId) ?? "") : n.contactName, userName: n.userId === null ? null : (userNames.get(n.userId) ?? null) })),
    count,
    hasMore: depth < count,
  };
}
