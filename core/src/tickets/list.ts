import { QueryTypes } from "sequelize";
import { AppError } from "../errors/app-error";
import { searchText } from "../db/search";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { TicketRow, TicketStatus, TICKET_STATUSES } from "./model";
import { listPage, ListedRow, type ListOrder } from "./list-query";
import { view, type TicketsKit } from "./kit";
import { groupsHiddenFor } from "./visibility";

function csvOrArray(v: unknown): string[] {
  if (v === undefined || v === null || v === "") return [];
  if (Array.isArray(v)) return v.map(String);
  return String(v).split(",").map((s) => s.trim()).filter(Boolean);
}

const fold = (x: string) => x.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * The attendance list (spec §3): a page of the tickets the caller may see under their filter,
 * pinned first, then unread, then by last activity (see list-query.ts). The caller's queues
 * and the tenant's settings come from the list cache: a list call is the hottest read there is.
 */
export function createList(kit: TicketsKit) {
  return {
    async list(ctx: Ctx<Record<string, unknown>>) {
      const p = ctx.params;
      const tenantId = ctx.meta.user!.tenantId;
      const statuses = csvOrArray(p.status).length ? csvOrArray(p.status) : ["open", "pending"];
      for (const s of statuses) if (!(TICKET_STATUSES as readonly string[]).includes(s)) throw new AppError("ERR_VALIDATION", { field: "status", rule: "enumValue" });
      const queueIds = csvOrArray(p.queuesIds).map(Number);
      if (queueIds.some((q) => !Number.isInteger(q) || q <= 0)) throw new AppError("ERR_VALIDATION", { field: "queuesIds", rule: "number" });
      const [me, settings] = await Promise.all([kit.meOf(ctx, true), kit.settingsOf(ctx, tenantId, true)]);
      // Spec §3 "ticket list limit": the tenant's page of the attendance list (a caller may ask for another).
      const pageSize = (p.pageSize as number | undefined) ?? settings.ticketListLimit ?? 40;
      // Spec §6: a user the groups are hidden from gets no group ticket, whatever they ask for.
      const noGroups = groupsHiddenFor(me.id, settings);
      const wanted = noGroups ? statuses.filter((s) => s !== "group") : statuses;
      const pageNumber = (p.pageNumber as number | undefined) ?? 1;
      let contactIds: number[] | undefined;
      let protocolOrId: { protocol: string; id: number | null } | undefined;
      const search = (p.searchParam as string | undefined)?.trim();
      if (search) {
        if (search.length < 2) throw new AppError("ERR_SEARCH_TOO_SHORT", { field: "searchParam" });
        contactIds = await call(ctx, "contacts.searchIds", { tenantId, q: search, limit: 500 });
        if (kit.hidesContactInfo(ctx, settings) && contactIds.length) {
          // What the caller may not see is no search key for them: names only.
          const names = await kit.summaries(ctx, tenantId, contactIds);
          contactIds = contactIds.filter((id) => fold(names.get(id)?.name ?? "").includes(fold(search)));
        }
        // The list's SQL takes replacements, written into its text: see searchText.
        protocolOrId = { protocol: searchText(search), id: /^\d{1,9}$/.test(search) ? Number(search) : null };
      }
      const page = await listPage(
        {
          tenantId,
          statuses: wanted as TicketStatus[],
          noGroups,
          queueIds,
          showAll: !!p.showAll,
          viewer: me,
          withUnreadMessages: !!p.withUnreadMessages,
          isNotAssignedUser: !!p.isNotAssignedUser,
          includeNotQueueDefined: p.includeNotQueueDefined === undefined ? true : !!p.includeNotQueueDefined,
          contactIds,
          protocolOrId,
          settings,
          order: p.orderBy as ListOrder | undefined,
          offset: (pageNumber - 1) * pageSize,
          limit: pageSize,
          datesAsText: kit.sequelize.getDialect() === "mysql",
        },
        (sql, replacements) => kit.sequelize.query(sql, { replacements, type: QueryTypes.SELECT }) as Promise<ListedRow[]>,
      );
      const contacts = await kit.summaries(ctx, tenantId, page.rows.map((r) => Number(r.contactId)));
      if (kit.hidesContactInfo(ctx, settings)) for (const c of contacts.values()) c.number = null;
      return {
        tickets: page.rows.map((r) => {
          const t = { ...(r as unknown as TicketRow), lastMessageAt: Number(r.lastMessageAt), isGroup: !!r.isGroup, pinned: !!r.pinned } as TicketRow;
          return view(t, contacts.get(t.contactId));
        }),
        hasMore: page.hasMore,
        pageNumber,
      };
    },
  };
}
