/**
 * Notes (spec §2 /notas, and the notes view of /contatos): the tenant's ticket notes and
 * contact notes in one searchable list, filtered by author, date range, tag and kind, read
 * through the core API (notes.list). Routes of the /notas page:
 *
 *   GET /api/notes         a page of notes ({ rows, count, hasMore }); `contactIds` gives one
 *                          contact's notes (the attendance's contact panel section)
 *   GET /api/notes/export  the same selection as CSV (at most EXPORT_MAX rows)
 *   GET /api/notes/options the tenant's users and tags, for the page's selects
 *
 * The tenant is always the caller's (ctx.meta.user.tenantId), never one from the request;
 * what an agent sees is limited as notes.ts explains. PLUS tier (spec §6 licence gating):
 * the core refuses the routes to a tenant below it with ERR_LICENSE_TIER_REQUIRED.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin } from "@openatende/plugin-sdk";
import { parseFilters, type RawFilters } from "./filters";
import { allNotes, listNotes, type Caller } from "./notes";
import { notesCsv } from "./csv";

/** The most rows one CSV export carries. */
export const EXPORT_MAX = 5000;

type Ctx = Context<RawFilters, { user?: Caller; $responseType?: string; $responseHeaders?: Record<string, string> }>;

/** Every filter arrives as a query string value (or JSON array): parseFilters checks them. */
const filterParams = {
  $$strict: false,
  kinds: { type: "any", optional: true },
  userIds: { type: "any", optional: true },
  tagIds: { type: "any", optional: true },
  contactIds: { type: "any", optional: true },
  from: { type: "any", optional: true },
  to: { type: "any", optional: true },
  search: { type: "any", optional: true },
  page: { type: "any", optional: true },
  limit: { type: "any", optional: true },
};

function callerOf(ctx: Ctx): Caller {
  const u = ctx.meta.user;
  // The gateway only routes signed-in users here (access "user"); a bus call without one is refused.
  if (!u || !u.tenantId) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return { id: u.id, tenantId: u.tenantId, profile: u.profile, isSupport: u.isSupport };
}

export const notesPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    actions: {
      options: {
        rest: "GET /notes/options",
        access: "user",
        tier: "PLUS",
        async handler(ctx: Ctx) {
          const { tenantId } = callerOf(ctx);
          const api = coreApi(ctx);
          const [users, tags] = await Promise.all([api.users.list({ tenantId }), api.tags.list({ tenantId })]);
          return {
            users: users.map((u) => ({ id: u.id, name: u.name })).sort((a, b) => a.name.localeCompare(b.name)),
            tags: tags.map((t) => ({ id: t.id, name: t.name, color: t.color })),
          };
        },
      },
      list: {
        rest: "GET /notes",
        access: "user",
        tier: "PLUS",
        params: filterParams,
        handler(ctx: Ctx) {
          return listNotes(coreApi(ctx), callerOf(ctx), parseFilters(ctx.params));
        },
      },
      export: {
        rest: "GET /notes/export",
        access: "user",
        tier: "PLUS",
        params: filterParams,
        async handler(ctx: Ctx) {
          const rows = await allNotes(coreApi(ctx), callerOf(ctx), parseFilters(ctx.params), EXPORT_MAX);
          ctx.meta.$responseType = "text/csv; charset=utf-8";
          ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename="notes-${new Date().toISOString().slice(0, 10)}.csv"` };
          return notesCsv(rows);
        },
      },
    },
  },
});

export default notesPlugin;
