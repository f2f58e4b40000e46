import type { ServiceSchema } from "moleculer";
import { randomBytes } from "node:crypto";
import { channelTypeOf, PLATFORM_SERVICE, pluginRealtimeEvent, type Page, type PlatformActions } from "@openatende/plugin-sdk";
import { rooms } from "@openatende/contracts/visibility";
import { call, defineService } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { pushRealtime } from "../realtime/push";
import { availabilityCache, callerOf } from "./access";
import { contactOf, messageOf, queueOf, READABLE_SETTINGS, tagsOf, ticketOf, userOf } from "./views";
import { listNotes } from "./notes";
import { createPlatformEvents } from "./events";
import { businessTimeActions } from "./business-time";
import { chatbotsActions } from "./chatbots";
import { inboundActions } from "./inbound";
import { createFilesActions, drainStream } from "./files";
import { planActions } from "./plan";
import { messagesActions } from "./messages";
import { getGlobal } from "../settings/contract";

type P<A extends keyof PlatformActions> = Ctx<PlatformActions[A]["params"]>;
type R<A extends keyof PlatformActions> = Promise<PlatformActions[A]["result"]>;

const id = { type: "number", integer: true, positive: true };
const ids = { type: "array", items: id, max: 1000, optional: true };
const T = { tenantId: id };
const paging = { page: { type: "number", integer: true, min: 1, max: 100_000, optional: true }, limit: { type: "number", integer: true, min: 1, max: 100, optional: true } };
const search = { type: "string", max: 120, optional: true };

/** offset and limit of a page (1-based, 20 by default, at most 100). */

/** A keyset page of the core API: a full page names its last id for the next call (none after a short one); `total` when it was counted. */
function keysetPage<T extends { id: number }>(rows: T[], limit: number, total?: number): { rows: T[]; nextAfterId: number | null; total?: number } {
  return { rows, nextAfterId: rows.length === limit ? rows[rows.length - 1].id : null, ...(total === undefined ? {} : { total }) };
}

export function pageOf(p: { page?: number; limit?: number }): { offset: number; limit: number } {
  const limit = p.limit ?? 20;
  return { offset: ((p.page ?? 1) - 1) * limit, limit };
}

/**
 * The core API of plugins (plugin-sdk core-api/contract.ts): the `platform` service, on the
 * bus only (no routes). Every call names its tenant; before any handler runs, the caller must
 * be a plugin (access.ts) available to that tenant, and every id is then looked up within the
 * tenant (another tenant's answers its domain's not-found code). The service owns no table: it
 * asks the domains through their actions (their platform-query files) and shows the answers
 * in the contract's shapes (views.ts). The events it delivers to plugins are events.ts's.
 */
export function createPlatformService(deps: CoreDeps): ServiceSchema {
  const access = availabilityCache();
  const events = createPlatformEvents(deps, access);

  async function contactsByIds(ctx: Ctx, tenantId: number, contactIds: number[]) {
    const unique = [...new Set(contactIds)];
    if (!unique.length) return new Map();
    const { rows } = await call(ctx, "contacts.query", { tenantId, ids: unique, offset: 0, limit: unique.length });
    return new Map(rows.map((c) => [c.id, c]));
  }

  /** Contacts carrying any of the tags (null: no tag filter). */
  const taggedContacts = (ctx: Ctx, tenantId: number, tagIds?: number[]) => (tagIds ? call(ctx, "contacts.idsByTags", { tenantId, tagIds }) : Promise.resolve(null));

  async function ticketView(ctx: Ctx, tenantId: number, ticketId: number) {
    const t = await call(ctx, "tickets.getInternal", { tenantId, id: ticketId });
    if (!t) throw new AppError("ERR_TICKET_NOT_FOUND", { id: ticketId });
    return ticketOf(t, (await contactsByIds(ctx, tenantId, [t.contactId])).get(t.contactId));
  }

  async function usersOf(ctx: Ctx, tenantId: number) {
    return (await call(ctx, "users.listInternal", { tenantId })).filter((u) => u.tenantId === tenantId);
  }

  return defineService({
    name: PLATFORM_SERVICE,
    // Another tenant's data never crosses: the caller and the tenant are checked before each action.
    hooks: {
      before: {
        async "*"(ctx: Ctx<{ tenantId: number }>) {
          try {
            await access.assertAvailable(ctx, callerOf(ctx), ctx.params.tenantId);
          } catch (err) {
            drainStream(ctx); // a refused upload's chunks still arrive
            throw err;
          }
        },
      },
    },
    events: {
      // Every instance forgets (a group of its own): a switch or a new licence takes effect at once.
      "plugins.changed": {
        group: `platform-availability-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<{ tenantId?: number }>) {
          access.forget(ctx.params?.tenantId);
        },
      },
      "licence.changed": {
        group: `platform-licence-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<{ tenantId?: number }>) {
          access.forget(ctx.params?.tenantId);
        },
      },
      ...events.listeners,
    },
    async started() {
      await events.start(this);
    },
    async stopped() {
      await events.stop();
    },
    actions: {
      "contacts.get": {
        params: { ...T, id },
        async handler(ctx: P<"platform.contacts.get">): R<"platform.contacts.get"> {
          const c = await call(ctx, "contacts.getInternal", { tenantId: ctx.params.tenantId, id: ctx.params.id });
          if (!c) throw new AppError("ERR_CONTACT_NOT_FOUND", { id: ctx.params.id });
          return contactOf(c);
        },
      },
      "contacts.list": {
        params: {
          ...T,
          ...paging,
          ids,
          tagIds: ids,
          search,
          birthdayMonth: { type: "number", integer: true, min: 1, max: 12, optional: true },
          states: { type: "array", items: { type: "string", max: 100 }, max: 100, optional: true },
        },
        async handler(ctx: P<"platform.contacts.list">): R<"platform.contacts.list"> {
          const { tenantId, ids: only, tagIds, search: q, birthdayMonth, states } = ctx.params;
          const r = await call(ctx, "contacts.query", { tenantId, ids: only, tagIds, search: q, birthdayMonth, states, ...pageOf(ctx.params) });
          return { rows: r.rows.map(contactOf), count: r.count, hasMore: r.hasMore };
        },
      },
      "contacts.after": {
        params: { ...T, afterId: { type: "number", integer: true, min: 0, optional: true }, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true }, withTotal: { type: "boolean", optional: true } },
        async handler(ctx: P<"platform.contacts.after">): R<"platform.contacts.after"> {
          const limit = ctx.params.limit ?? 500;
          const r = await call(ctx, "contacts.afterId", { tenantId: ctx.params.tenantId, afterId: ctx.params.afterId ?? 0, limit, withTotal: ctx.params.withTotal });
          const rows = r.rows.map(contactOf);
          return keysetPage(rows, limit, r.total);
        },
      },
      "contacts.byTags": {
        params: { ...T, tagIds: { type: "array", items: id, min: 1, max: 1000 }, afterId: { type: "number", integer: true, min: 0, optional: true }, limit: { type: "number", integer: true, min: 1, max: 5000, optional: true } },
        async handler(ctx: P<"platform.contacts.byTags">): R<"platform.contacts.byTags"> {
          const { tenantId, tagIds } = ctx.params;
          const limit = ctx.params.limit ?? 1000;
          const rows = await call(ctx, "contacts.taggedPage", { tenantId, tagIds, afterId: ctx.params.afterId ?? 0, limit });
          return keysetPage(rows, limit);
        },
      },
      "contacts.addresses": {
        params: { ...T, ids: { type: "array", items: id, min: 1, max: 2000 } },
        async handler(ctx: P<"platform.contacts.addresses">): R<"platform.contacts.addresses"> {
          const { tenantId, ids: wanted } = ctx.params;
          // The caller's own channel: a connection's type names it by its id or its manifest's type.
          const plugin = callerOf(ctx);
          const { manifest } = await call(ctx, "plugins.get", { id: plugin });
          if (!manifest || manifest.kind !== "channel") throw new AppError("ERR_NO_PERMISSION", { reason: "not-a-channel" });
          const types = [...new Set([plugin, channelTypeOf(manifest)])];
          const found = new Set((await call(ctx, "contacts.summaries", { tenantId, ids: wanted })).map((c) => Number(c.id)));
          const missing = wanted.filter((x) => !found.has(x));
          if (missing.length) throw new AppError("ERR_CONTACT_NOT_FOUND", { field: "ids", ids: missing });
          const addressOf = async (contactId: number) => {
            for (const channelType of types) {
              const a = await call(ctx, "contacts.identityFor", { tenantId, contactId, channelType });
              if (a) return a;
            }
            return null;
          };
          return Promise.all(wanted.map(async (contactId) => ({ id: contactId, address: await addressOf(contactId) })));
        },
      },
      "contacts.update": {
        params: { ...T, id, name: { type: "string", min: 1, max: 200, trim: true, optional: true }, email: { type: "string", max: 190, optional: true, nullable: true } },
        async handler(ctx: P<"platform.contacts.update">): R<"platform.contacts.update"> {
          const { tenantId, id: contactId, name, email } = ctx.params;
          return contactOf(await call(ctx, "contacts.platformUpdate", { tenantId, id: contactId, name, email }));
        },
      },

      "tickets.get": {
        params: { ...T, id, visibleTo: { ...id, optional: true } },
        async handler(ctx: P<"platform.tickets.get">): R<"platform.tickets.get"> {
          const { tenantId, id: ticketId, visibleTo } = ctx.params;
          if (visibleTo) {
            // The ticket as that user's own request would find it: the tickets domain's visibility rule.
            const u = await call(ctx, "users.getInternal", { id: visibleTo });
            if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_TICKET_NOT_FOUND", { id: ticketId });
            await call(ctx, "tickets.visible", { id: ticketId }, { meta: { ...ctx.meta, user: { id: u.id, tenantId, profile: u.profile, isSupport: !!u.isSupport } } });
          }
          return ticketView(ctx, tenantId, ticketId);
        },
      },
      "tickets.list": {
        params: {
          ...T,
          ...paging,
          status: { type: "array", items: { type: "enum", values: ["open", "pending", "closed", "group", "chatbot"] }, max: 5, optional: true },
          queueIds: ids,
          userIds: ids,
          tagIds: ids,
          ids,
          search,
        },
        async handler(ctx: P<"platform.tickets.list">): R<"platform.tickets.list"> {
          const p = ctx.params;
          const contactIds = await taggedContacts(ctx, p.tenantId, p.tagIds);
          if (contactIds && !contactIds.length) return { rows: [], count: 0, hasMore: false };
          const r = await call(ctx, "tickets.query", {
            tenantId: p.tenantId,
            status: p.status,
            queueIds: p.queueIds,
            userIds: p.userIds,
            ids: p.ids,
            contactIds: contactIds ?? undefined,
            search: p.search,
            ...pageOf(p),
          });
          const contacts = await contactsByIds(ctx, p.tenantId, r.rows.map((t) => t.contactId));
          return { rows: r.rows.map((t) => ticketOf(t, contacts.get(t.contactId))), count: r.count, hasMore: r.hasMore };
        },
      },
      "tickets.after": {
        params: { ...T, afterId: { type: "number", integer: true, min: 0, optional: true }, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true }, status: { type: "array", items: { type: "enum", values: ["open", "pending", "closed", "group", "chatbot"] }, max: 5, optional: true }, withTotal: { type: "boolean", optional: true } },
        async handler(ctx: P<"platform.tickets.after">): R<"platform.tickets.after"> {
          const p = ctx.params;
          const limit = p.limit ?? 500;
          const r = await call(ctx, "tickets.afterId", { tenantId: p.tenantId, afterId: p.afterId ?? 0, limit, status: p.status, withTotal: p.withTotal });
          const contacts = await contactsByIds(ctx, p.tenantId, r.rows.map((t) => t.contactId));
          const rows = r.rows.map((t) => ticketOf(t, contacts.get(t.contactId)));
          return keysetPage(rows, limit, r.total);
        },
      },
      "tickets.update": {
        params: {
          ...T,
          id,
          status: { type: "enum", values: ["open", "pending", "closed"], optional: true },
          queueId: { ...id, optional: true, nullable: true },
          userId: { ...id, optional: true, nullable: true },
        },
        async handler(ctx: P<"platform.tickets.update">): R<"platform.tickets.update"> {
          const { tenantId, id: ticketId, status, queueId, userId } = ctx.params;
          const t = await call(ctx, "tickets.platformUpdate", { tenantId, id: ticketId, status, queueId, userId, plugin: callerOf(ctx) });
          return ticketOf(t, (await contactsByIds(ctx, tenantId, [t.contactId])).get(t.contactId));
        },
      },

      "queues.list": {
        params: T,
        async handler(ctx: P<"platform.queues.list">): R<"platform.queues.list"> {
          return (await call(ctx, "queues.listInternal", { tenantId: ctx.params.tenantId })).map(queueOf);
        },
      },
      "users.list": {
        params: T,
        async handler(ctx: P<"platform.users.list">): R<"platform.users.list"> {
          return (await usersOf(ctx, ctx.params.tenantId)).map(userOf);
        },
      },
      "users.get": {
        params: { ...T, id },
        async handler(ctx: P<"platform.users.get">): R<"platform.users.get"> {
          const u = await call(ctx, "users.getInternal", { id: ctx.params.id });
          if (!u || u.tenantId !== ctx.params.tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { id: ctx.params.id });
          return userOf(u);
        },
      },
      "tags.list": {
        params: T,
        async handler(ctx: P<"platform.tags.list">): R<"platform.tags.list"> {
          return tagsOf(await call(ctx, "tags.listInternal", { tenantId: ctx.params.tenantId }));
        },
      },
      "settings.get": {
        params: T,
        async handler(ctx: P<"platform.settings.get">): R<"platform.settings.get"> {
          const [all, tb, tenant] = await Promise.all([call(ctx, "settings.forTenant", { tenantId: ctx.params.tenantId }), getGlobal(ctx, "typebot"), call(ctx, "tenants.getInternal", { id: ctx.params.tenantId })]);
          const readable = Object.fromEntries(READABLE_SETTINGS.filter((k) => k in all).map((k) => [k, all[k]]));
          // The platform's Typebot builder and viewer URLs (global settings), never its token: a Typebot plugin's defaults.
          const str = (v: unknown) => (typeof v === "string" && v ? v : null);
          // The tenant's IANA time zone (its dates and wall-clock times: a birthday's 9:00).
          return { ...readable, timeZone: tenant?.timezone ?? "America/Sao_Paulo", typebot: { builderUrl: str(tb?.builderUrl), viewerUrl: str(tb?.viewerUrl) } };
        },
      },
      "notes.list": {
        params: {
          ...T,
          ...paging,
          kinds: { type: "array", items: { type: "enum", values: ["ticket", "contact"] }, min: 1, max: 2, optional: true },
          userIds: ids,
          tagIds: ids,
          contactIds: ids,
          ticketIds: ids,
          from: { type: "date", convert: true, optional: true },
          to: { type: "date", convert: true, optional: true },
          search,
        },
        async handler(ctx: P<"platform.notes.list">): R<"platform.notes.list"> {
          const tagged = await taggedContacts(ctx, ctx.params.tenantId, ctx.params.tagIds);
          const asked = ctx.params.contactIds;
          const contactIds = tagged && asked ? tagged.filter((c) => asked.includes(c)) : (tagged ?? asked ?? null);
          return listNotes(ctx, ctx.params, contactIds, pageOf(ctx.params)) as Promise<Page<never>>;
        },
      },

      ...businessTimeActions,
      ...chatbotsActions,
      ...inboundActions,
      ...createFilesActions(deps.config.dataDir),
      ...planActions,
      ...messagesActions(pageOf),

      "realtime.push": {
        params: {
          ...T,
          event: { type: "string", min: 1, max: 100, pattern: /^[A-Za-z0-9_.:-]+$/ },
          payload: { type: "any" },
          to: {
            type: "multi",
            optional: true,
            rules: [
              { type: "object", strict: true, props: { tenant: { type: "equal", value: true } } },
              { type: "object", strict: true, props: { admins: { type: "equal", value: true } } },
              { type: "object", strict: true, props: { users: { type: "array", items: id, min: 1, max: 1000 } } },
            ],
          },
        },
        async handler(ctx: P<"platform.realtime.push">): R<"platform.realtime.push"> {
          const { tenantId, event, payload, to } = ctx.params;
          // Rooms are named by tenant: a user id of another tenant names a room nobody of it is in.
          const targets = !to || "tenant" in to ? [rooms.tenant(tenantId)] : "admins" in to ? [rooms.admins(tenantId)] : [...new Set(to.users)].map((u) => rooms.user(tenantId, u));
          pushRealtime(ctx, { rooms: targets, event: pluginRealtimeEvent(callerOf(ctx), event), payload: payload ?? null });
          return { delivered: targets.length > 0 };
        },
      },
    },
  });
}
