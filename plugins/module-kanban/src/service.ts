/**
 * The kanban module (spec §2 /kanban, §3 "Kanban column", §5): a tenant's lead board. Columns
 * (name required, colour, order) hold cards of tickets or contacts, each with a lead value;
 * agents move cards between and within columns and every other agent's board follows live
 * (`board.changed` pushed to the tenant through the core API after each change).
 *
 * Routes under /api/kanban/… for any signed-in user of a tenant whose licence reaches PLUS
 * (the core's gateway refuses the others before they get here). Ids travel in the body or the
 * query, not the path: see the README for why. A column with cards is not deleted unless the
 * caller names where its cards go (`moveTo`): ERR_KANBAN_COLUMN_NOT_EMPTY says how many.
 */
import type { Context } from "moleculer";
import { coreApi, definePlugin, openPluginData, type PlatformEventEnvelope } from "@openatende/plugin-sdk";
import { CARD_KINDS, COLOR_PATTERN, COLUMN_NAME_MAX, DEFAULT_COLUMN_COLOR, LEAD_VALUE_MAX, toCents, type CardKind } from "./board";
import { KanbanStore, type Changed } from "./store";
import { boardView, seesTicket, type BoardFilters, type Viewer } from "./view";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { id: string } };

/** The realtime event every change pushes (the UI hears it as runtime.realtime.on("board.changed")). */
export const BOARD_CHANGED = "board.changed";

type Meta = { user?: { id: number; tenantId: number; profile: string; isMaster?: boolean; isSupport?: boolean } };
type Ctx<P = Record<string, never>> = Context<P, Meta>;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const index = { type: "number", integer: true, min: 0, max: 100_000, convert: true } as const;
const name = { type: "string", trim: true, empty: false, max: COLUMN_NAME_MAX } as const;
const color = { type: "string", pattern: COLOR_PATTERN } as const;
const leadValue = { type: "number", min: 0, max: LEAD_VALUE_MAX, convert: true } as const;
const idList = { type: "string", optional: true, max: 1000, pattern: /^(\d{1,10}(,\d{1,10})*)?$/ } as const;
const kind = { type: "enum", values: CARD_KINDS } as const;

/** A PLUS route of any signed-in user: the same options on every route of the board. */
const route = (rest: string) => ({ rest, access: "user" as const, tier: "PLUS" as const });

const list = (s?: string) => (s ? s.split(",").map(Number) : undefined);

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

/** What the service adds to itself (started, methods), typed for the handlers. */
/** The caller as the board's visibility sees them: platform-level users (master, support) count as admins. */
function viewerOf(ctx: Ctx<unknown>): Viewer {
  const u = ctx.meta.user!;
  return { id: u.id, profile: u.isMaster || u.isSupport ? "admin" : u.profile };
}

interface Self {
  store: KanbanStore;
  changed<T>(ctx: Ctx<unknown>, tenantId: number, change: string, result: Changed<T>, extra?: Record<string, unknown>): Promise<T & { version: number }>;
}

const me = (svc: unknown) => svc as Self;

export const kanbanPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    async started() {
      me(this).store = new KanbanStore(await openPluginData(this));
    },
    methods: {
      /** Tells the tenant's boards (other agents' screens) that the board changed; a failed push never fails the change. */
      async changed(ctx: Ctx<unknown>, tenantId: number, change: string, result: Changed<unknown>, extra: Record<string, unknown> = {}) {
        const payload = { version: result.version, change, by: ctx.meta.user?.id ?? null, ...extra };
        try {
          await coreApi(ctx).realtime.push({ tenantId, event: BOARD_CHANGED, payload });
        } catch (err) {
          this.logger.warn(`board.changed not pushed to tenant ${tenantId}: ${(err as Error).message}`);
        }
        return { ...(result.value as object), version: result.version };
      },
    },
    actions: {
      board: {
        ...route("GET /kanban/board"),
        params: { queueIds: idList, userIds: idList, tagIds: idList },
        async handler(ctx: Ctx<{ queueIds?: string; userIds?: string; tagIds?: string }>) {
          const tenantId = tenantOf(ctx);
          const filters: BoardFilters = { queueIds: list(ctx.params.queueIds), userIds: list(ctx.params.userIds), tagIds: list(ctx.params.tagIds) };
          return boardView(coreApi(ctx), tenantId, await me(this).store.board(tenantId), filters, viewerOf(ctx));
        },
      },
      /** Tickets or contacts to put on the board, by name, number or protocol (at least 2 letters, spec §5). */
      search: {
        ...route("GET /kanban/search"),
        params: { kind, q: { type: "string", trim: true, min: 2, max: 100 } },
        async handler(ctx: Ctx<{ kind: CardKind; q: string }>) {
          const tenantId = tenantOf(ctx);
          const api = coreApi(ctx);
          const board = await me(this).store.board(tenantId);
          const onBoard = new Set(board.columns.flatMap((c) => c.cards.filter((k) => k.kind === ctx.params.kind).map((k) => k.targetId)));
          if (ctx.params.kind === "ticket") {
            const viewer = viewerOf(ctx);
            const [{ rows: found }, users] = await Promise.all([api.tickets.list({ tenantId, search: ctx.params.q, limit: 20 }), viewer.profile === "user" ? api.users.list({ tenantId }) : Promise.resolve([])]);
            const queues = users.find((u) => u.id === viewer.id)?.queueIds ?? [];
            const rows = found.filter((t) => seesTicket(viewer, queues, t));
            return rows.map((t) => ({ id: t.id, name: t.contact?.name ?? `#${t.id}`, detail: t.protocol ?? `#${t.id}`, status: t.status, onBoard: onBoard.has(t.id) }));
          }
          const { rows } = await api.contacts.list({ tenantId, search: ctx.params.q, limit: 20 });
          return rows.map((c) => ({ id: c.id, name: c.name, detail: c.number ?? c.email ?? "", onBoard: onBoard.has(c.id) }));
        },
      },
      createColumn: {
        ...route("POST /kanban/columns"),
        params: { name, color: { ...color, optional: true } },
        async handler(ctx: Ctx<{ name: string; color?: string }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.createColumn(tenantId, { name: ctx.params.name, color: ctx.params.color ?? DEFAULT_COLUMN_COLOR });
          return me(this).changed(ctx, tenantId, "column.created", r, { columnId: r.value.id });
        },
      },
      /** Renames and/or recolours a column. */
      updateColumn: {
        ...route("PATCH /kanban/columns"),
        params: { id, name: { ...name, optional: true }, color: { ...color, optional: true } },
        async handler(ctx: Ctx<{ id: number; name?: string; color?: string }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.updateColumn(tenantId, ctx.params.id, { name: ctx.params.name, color: ctx.params.color });
          return me(this).changed(ctx, tenantId, "column.updated", r, { columnId: r.value.id });
        },
      },
      moveColumn: {
        ...route("POST /kanban/columns/move"),
        params: { id, index },
        async handler(ctx: Ctx<{ id: number; index: number }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.moveColumn(tenantId, ctx.params.id, ctx.params.index);
          return me(this).changed(ctx, tenantId, "column.moved", r, { columnId: r.value.id });
        },
      },
      deleteColumn: {
        ...route("DELETE /kanban/columns"),
        params: { id, moveTo: { ...id, optional: true } },
        async handler(ctx: Ctx<{ id: number; moveTo?: number }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.deleteColumn(tenantId, ctx.params.id, ctx.params.moveTo);
          return me(this).changed(ctx, tenantId, "column.deleted", r, { columnId: ctx.params.id });
        },
      },
      /** Puts a ticket or a contact of the tenant on the board (the core says whether it exists: its not-found code otherwise). */
      addCard: {
        ...route("POST /kanban/cards"),
        params: { kind, targetId: id, columnId: id, index: { ...index, optional: true }, leadValue: { ...leadValue, optional: true } },
        async handler(ctx: Ctx<{ kind: CardKind; targetId: number; columnId: number; index?: number; leadValue?: number }>) {
          const tenantId = tenantOf(ctx);
          const api = coreApi(ctx);
          if (ctx.params.kind === "ticket") await api.tickets.get({ tenantId, id: ctx.params.targetId });
          else await api.contacts.get({ tenantId, id: ctx.params.targetId });
          const r = await me(this).store.addCard(tenantId, {
            kind: ctx.params.kind,
            targetId: ctx.params.targetId,
            columnId: ctx.params.columnId,
            index: ctx.params.index,
            leadValueCents: ctx.params.leadValue === undefined ? 0 : toCents(ctx.params.leadValue),
          });
          return me(this).changed(ctx, tenantId, "card.added", r, { cardId: r.value.id, columnId: r.value.columnId });
        },
      },
      setLeadValue: {
        ...route("PATCH /kanban/cards"),
        params: { id, leadValue },
        async handler(ctx: Ctx<{ id: number; leadValue: number }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.setLeadValue(tenantId, ctx.params.id, toCents(ctx.params.leadValue));
          return me(this).changed(ctx, tenantId, "card.updated", r, { cardId: r.value.id, columnId: r.value.columnId });
        },
      },
      /** Moves a card to `columnId` at `index` (of that column's cards without this one; past the end: last). */
      moveCard: {
        ...route("POST /kanban/cards/move"),
        params: { id, columnId: id, index },
        async handler(ctx: Ctx<{ id: number; columnId: number; index: number }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.moveCard(tenantId, ctx.params.id, ctx.params.columnId, ctx.params.index);
          return me(this).changed(ctx, tenantId, "card.moved", r, { cardId: r.value.id, from: r.value.from, columnId: r.value.columnId, index: r.value.position });
        },
      },
      removeCard: {
        ...route("DELETE /kanban/cards"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenantId = tenantOf(ctx);
          const r = await me(this).store.removeCard(tenantId, ctx.params.id);
          return me(this).changed(ctx, tenantId, "card.removed", r, { cardId: r.value.id, columnId: r.value.columnId });
        },
      },
    },
  },
  platformEvents: {
    /** A deleted ticket leaves the board with it. */
    async "ticket.deleted"(envelope: PlatformEventEnvelope<"ticket.deleted">, ctx: Context) {
      await dropTargets(ctx, envelope.tenantId, "ticket", [envelope.data.ticketId]);
    },
    /** So does a deleted contact, and the contacts merged into another. */
    async "contact.changed"(envelope: PlatformEventEnvelope<"contact.changed">, ctx: Context) {
      const d = envelope.data;
      if (d.change === "deleted") await dropTargets(ctx, envelope.tenantId, "contact", [d.contactId]);
      else if (d.change === "merged" && d.removedIds?.length) await dropTargets(ctx, envelope.tenantId, "contact", d.removedIds);
    },
  },
});

async function dropTargets(ctx: Context, tenantId: number, kind: CardKind, ids: number[]) {
  const svc = me(ctx.service);
  const r = await svc.store.removeTargets(tenantId, kind, ids);
  if (r) await svc.changed(ctx as Ctx<unknown>, tenantId, "card.removed", r, { cardIds: r.value.map((c) => c.id) });
}

export default kanbanPlugin;
