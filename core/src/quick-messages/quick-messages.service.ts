import { Op, UniqueConstraintError, WhereOptions } from "sequelize";
import { startsWith } from "../db/search";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin, type TenantDbMethods } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { CoreDeps } from "../deps";
import { AuthUser, Ctx, isAdmin } from "../types";
import { call, defineService } from "../bus/call";
import { QuickMessage, QuickMessageRow, QuickMessageScope, defineModels } from "./model";

export type { QuickMessageScope };
const SCOPES: QuickMessageScope[] = ["global", "queue", "personal"];

/**
 * A shortcut as stored: without the leading "/", trimmed, lower-case (so "/Oi" and "/oi" are
 * the same key on SQLite and MariaDB alike). No spaces: it is typed after a "/" in the chat box.
 */
export function normaliseKey(raw: string): string {
  return raw.trim().replace(/^\/+/, "").trim().toLowerCase();
}
const KEY_RE = /^[^\s/][^\s]{0,99}$/u;

/** Where a key must be unique: all global ones, all queue-scoped ones, or one user's personal ones. */
const scopeKeyOf = (scope: QuickMessageScope, userId: number) => (scope === "personal" ? `user:${userId}` : scope);

/** Exact matches prefer the narrowest scope: personal, then queue, then global. */
const SPECIFICITY: Record<QuickMessageScope, number> = { personal: 0, queue: 1, global: 2 };

const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };

/**
 * Quick messages (respostas rápidas): a "/key" shortcut that expands to a message. Scopes
 * (spec §3, §6): global (everyone in the tenant), queue (members of the listed queues) and
 * personal (its owner only). Only admins create or change global and queue-scoped ones; a
 * user manages their own personal ones. A key is unique within its scope.
 */
export function createQuickMessagesService(deps: CoreDeps): ServiceSchema {
  const { QuickMessage: model, QuickMessageQueue: QMQueue } = defineModels(deps.sequelize);

  async function queuesOf(ids: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!ids.length) return map;
    const rows = await QMQueue.findAll({ where: { quickMessageId: { [Op.in]: ids } }, order: [["queueId", "ASC"]] });
    for (const r of rows) {
      const id = r.get("quickMessageId") as number;
      if (!map.has(id)) map.set(id, []);
      map.get(id)!.push(r.get("queueId") as number);
    }
    return map;
  }

  /**
   * `editable`: whether the caller may change or delete it (spec §6): their own personal ones,
   * and for admins the global and queue-scoped ones too; the others are theirs to use only.
   */
  function view(q: QuickMessage, queueIds: number[], me?: AuthUser) {
    const r = q.get({ plain: true });
    return {
      id: r.id,
      key: r.key,
      shortcut: `/${r.key}`,
      message: r.message,
      scope: r.scope,
      global: r.scope === "global",
      queueIds: r.scope === "queue" ? queueIds : [],
      userId: r.userId,
      editable: !!me && (r.scope === "personal" ? r.userId === me.id : isAdmin(me)),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  async function views(rows: QuickMessage[], me: AuthUser | undefined) {
    const qs = await queuesOf(rows.filter((r) => r.get("scope") === "queue").map((r) => r.get("id") as number));
    return rows.map((r) => view(r, qs.get(r.get("id") as number) ?? [], me));
  }

  async function myQueues(ctx: Ctx): Promise<number[]> {
    const me = await call(ctx, "users.getInternal", { id: ctx.meta.user!.id });
    return me?.queues ?? [];
  }

  /** What the caller may use: global, their queues' and their personal messages. */
  async function usableWhere(ctx: Ctx, tenantId: number): Promise<WhereOptions> {
    const queues = await myQueues(ctx);
    const or: WhereOptions[] = [{ scope: "global" }, { scope: "personal", userId: ctx.meta.user!.id }];
    if (queues.length) {
      const linked = await QMQueue.findAll({ where: { tenantId, queueId: { [Op.in]: queues } }, attributes: ["quickMessageId"] });
      const ids = [...new Set(linked.map((l) => l.get("quickMessageId") as number))];
      if (ids.length) or.push({ scope: "queue", id: { [Op.in]: ids } });
    }
    return { tenantId, [Op.or]: or };
  }

  /**
   * The message `id` as the caller sees it: another user's personal message does not exist
   * for them, nor a queue-scoped one of a queue they are not in (admins see every queue's).
   */
  async function findVisible(svc: TenantDbMethods<QuickMessage>, ctx: Ctx, id: number): Promise<QuickMessage> {
    const q = await svc.findOwned(ctx, id, "ERR_QUICK_MESSAGE_NOT_FOUND");
    const me = ctx.meta.user!;
    const scope = q.get("scope") as QuickMessageScope;
    if (scope === "personal" && q.get("userId") !== me.id) throw new AppError("ERR_QUICK_MESSAGE_NOT_FOUND", { id });
    if (scope === "queue" && !isAdmin(me)) {
      const mine = await myQueues(ctx);
      const linked = await QMQueue.count({ where: { quickMessageId: id, queueId: { [Op.in]: mine.length ? mine : [0] } } });
      if (!linked) throw new AppError("ERR_QUICK_MESSAGE_NOT_FOUND", { id });
    }
    return q;
  }

  async function checkQueues(ctx: Ctx, tenantId: number, ids: number[]) {
    const found = await call(ctx, "queues.existing", { tenantId, ids });
    const missing = ids.filter((q) => !found.includes(q));
    if (missing.length) throw new AppError("ERR_QUEUE_NOT_FOUND", { field: "queueIds", ids: missing });
  }

  const uniqueError = (err: unknown) => (err instanceof UniqueConstraintError ? new AppError("ERR_QUICK_MESSAGE_EXISTS", { field: "key" }) : err);

  function checkKey(raw: string): string {
    const key = normaliseKey(raw);
    if (!KEY_RE.test(key)) throw new AppError("ERR_VALIDATION", { field: "key", rule: "stringPattern" });
    return key;
  }

  const writable = {
    key: { type: "string", min: 1, max: 101 },
    message: { type: "string", min: 1, max: 10000 },
    scope: { type: "enum", values: SCOPES, optional: true },
    /** Accepted for the original shell's flag: `global: true` is scope "global". */
    global: { type: "boolean", optional: true, convert: true },
    queueIds: { type: "array", items: { type: "number", integer: true, positive: true }, max: 200, optional: true },
  };

  return defineService<TenantDbMethods<QuickMessage>>({
    name: "quickMessages",
    mixins: [tenantDbMixin(deps.sequelize, model)],
    settings: { rest: "/" },
    events: {
      /** A deleted queue leaves no links behind. */
      async "queues.changed"(ctx: Ctx<{ tenantId: number; queueId: number }>) {
        const { tenantId, queueId } = ctx.params ?? ({} as { tenantId: number; queueId: number });
        if (!tenantId || !queueId) return;
        const still = await call(ctx, "queues.existing", { tenantId, ids: [queueId] });
        if (!still.length) await QMQueue.destroy({ where: { tenantId, queueId } });
      },
      /** A deleted user's personal messages go with them. */
      async "users.deleted"(ctx: Ctx<{ tenantId: number; userId: number }>) {
        const { tenantId, userId } = ctx.params ?? ({} as { tenantId: number; userId: number });
        if (tenantId && userId) await model.destroy({ where: { tenantId, scope: "personal", userId } });
      },
    },
    actions: {
      list: {
        rest: "GET /quick-messages",
        access: "user",
        params: {
          searchParam: { type: "string", optional: true, max: 100 },
          scope: { type: "enum", values: SCOPES, optional: true },
          /** Admins: every global and queue-scoped message (to manage them), plus their own personal ones. */
          all: { type: "boolean", optional: true, convert: true },
        },
        async handler(ctx: Ctx<{ searchParam?: string; scope?: QuickMessageScope; all?: boolean }>) {
          const tenantId = this.tenantOf(ctx);
          const me = ctx.meta.user!;
          const and: WhereOptions[] = [
            ctx.params.all && isAdmin(me)
              ? { tenantId, [Op.or]: [{ scope: { [Op.in]: ["global", "queue"] } }, { scope: "personal", userId: me.id }] }
              : await usableWhere(ctx, tenantId),
          ];
          if (ctx.params.scope) and.push({ scope: ctx.params.scope });
          const q = ctx.params.searchParam ? normaliseKey(ctx.params.searchParam) : "";
          if (q) and.push(startsWith("key", q));
          const rows = await model.findAll({ where: { [Op.and]: and }, order: [["key", "ASC"], ["id", "ASC"]], limit: 2000 });
          return views(rows, me);
        },
      },
      /** "/key" expansion: the exact key wins, else the one key starting with it; several → 409 with the candidates. */
      resolve: {
        rest: "GET /quick-messages/resolve",
        access: "user",
        params: { key: { type: "string", min: 1, max: 101 } },
        async handler(ctx: Ctx<{ key: string }>) {
          const tenantId = this.tenantOf(ctx);
          const key = normaliseKey(ctx.params.key);
          if (!key) throw new AppError("ERR_QUICK_MESSAGE_NOT_FOUND", { key: ctx.params.key });
          const rows = (await model.findAll({ where: { [Op.and]: [await usableWhere(ctx, tenantId)] }, order: [["key", "ASC"], ["id", "ASC"]], limit: 5000 })).filter(
            (r) => (r.get("key") as string).startsWith(key),
          );
          const bySpecificity = (a: QuickMessage, b: QuickMessage) =>
            SPECIFICITY[a.get("scope") as QuickMessageScope] - SPECIFICITY[b.get("scope") as QuickMessageScope];
          const exact = rows.filter((r) => r.get("key") === key).sort(bySpecificity);
          if (exact.length) return (await views([exact[0]], ctx.meta.user))[0];
          const keys = [...new Set(rows.map((r) => r.get("key") as string))];
          if (!keys.length) throw new AppError("ERR_QUICK_MESSAGE_NOT_FOUND", { key });
          if (keys.length > 1) throw new AppError("ERR_QUICK_MESSAGE_AMBIGUOUS", { key, candidates: keys.slice(0, 20).map((k) => `/${k}`), count: keys.length });
          return (await views([rows.sort(bySpecificity)[0]], ctx.meta.user))[0];
        },
      },
      get: {
        rest: "GET /quick-messages/:id",
        access: "user",
        resource: "quickMessages",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const q = await findVisible(this, ctx, ctx.params.id);
          return (await views([q], ctx.meta.user))[0];
        },
      },
      create: {
        rest: "POST /quick-messages",
        access: "user",
        params: writable,
        async handler(ctx: Ctx<{ key: string; message: string; scope?: QuickMessageScope; global?: boolean; queueIds?: number[] }>) {
          const tenantId = this.tenantOf(ctx);
          const me = ctx.meta.user!;
          const key = checkKey(ctx.params.key);
          const scope: QuickMessageScope = ctx.params.scope ?? (ctx.params.global ? "global" : ctx.params.queueIds?.length ? "queue" : "personal");
          // Spec §6: only admins create global and queue-scoped quick messages.
          if (scope !== "personal" && !isAdmin(me)) throw new AppError("ERR_NO_PERMISSION", { field: "scope" });
          const queueIds = [...new Set(ctx.params.queueIds ?? [])];
          if (scope === "queue") {
            if (!queueIds.length) throw new AppError("ERR_VALIDATION", { field: "queueIds", rule: "arrayEmpty" });
            await checkQueues(ctx, tenantId, queueIds);
          }
          const q = await deps.sequelize.transaction(async (transaction) => {
            try {
              const created = await model.create(
                { tenantId, key, message: ctx.params.message, scope, userId: me.id, scopeKey: scopeKeyOf(scope, me.id) },
                { transaction },
              );
              if (scope === "queue") {
                await QMQueue.bulkCreate(
                  queueIds.map((queueId) => ({ tenantId, quickMessageId: created.get("id") as number, queueId })),
                  { transaction },
                );
              }
              return created;
            } catch (err) {
              throw uniqueError(err);
            }
          });
          ctx.meta.$statusCode = 201;
          return view(q, scope === "queue" ? queueIds.sort((a, b) => a - b) : [], me);
        },
      },
      update: {
        rest: "PUT /quick-messages/:id",
        access: "user",
        resource: "quickMessages",
        params: {
          ...idParam,
          ...Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, { ...v, optional: true }])),
        },
        async handler(ctx: Ctx<{ id: number; key?: string; message?: string; scope?: QuickMessageScope; global?: boolean; queueIds?: number[] }>) {
          const q = await findVisible(this, ctx, ctx.params.id);
          const me = ctx.meta.user!;
          const row = q.get({ plain: true });
          // A user edits only their own personal messages; global and queue ones are admins'.
          if (row.scope !== "personal" && !isAdmin(me)) throw new AppError("ERR_NO_PERMISSION");
          let scope: QuickMessageScope = ctx.params.scope ?? row.scope;
          if (ctx.params.scope === undefined && ctx.params.global !== undefined) scope = ctx.params.global ? "global" : row.scope === "global" ? "personal" : row.scope;
          // Queues given without a scope make it queue-scoped, as on create.
          else if (ctx.params.scope === undefined && ctx.params.queueIds?.length) scope = "queue";
          if (scope !== "personal" && !isAdmin(me)) throw new AppError("ERR_NO_PERMISSION", { field: "scope" });
          const patch: Partial<QuickMessageRow> = {};
          if (ctx.params.key !== undefined) patch.key = checkKey(ctx.params.key);
          if (ctx.params.message !== undefined) patch.message = ctx.params.message;
          if (scope !== row.scope) {
            patch.scope = scope;
            // A message that becomes personal belongs to whoever made it so.
            if (scope === "personal") patch.userId = me.id;
          }
          patch.scopeKey = scopeKeyOf(scope, patch.userId ?? row.userId ?? me.id);
          const tenantId = row.tenantId;
          let queueIds: number[] | undefined;
          if (scope === "queue") {
            queueIds = ctx.params.queueIds ? [...new Set(ctx.params.queueIds)] : row.scope === "queue" ? undefined : [];
            if (queueIds && !queueIds.length) throw new AppError("ERR_VALIDATION", { field: "queueIds", rule: "arrayEmpty" });
            if (queueIds) await checkQueues(ctx, tenantId, queueIds);
          }
          await deps.sequelize.transaction(async (transaction) => {
            try {
              await q.update(patch, { transaction });
            } catch (err) {
              throw uniqueError(err);
            }
            if (scope !== "queue" || queueIds) await QMQueue.destroy({ where: { quickMessageId: row.id }, transaction });
            if (queueIds?.length) {
              await QMQueue.bulkCreate(queueIds.map((queueId) => ({ tenantId, quickMessageId: row.id, queueId })), { transaction });
            }
          });
          return (await views([q], ctx.meta.user))[0];
        },
      },
      remove: {
        rest: "DELETE /quick-messages/:id",
        access: "user",
        resource: "quickMessages",
        params: idParam,
        async handler(ctx: Ctx<{ id: number }>) {
          const q = await findVisible(this, ctx, ctx.params.id);
          if (q.get("scope") !== "personal" && !isAdmin(ctx.meta.user)) throw new AppError("ERR_NO_PERMISSION");
          await deps.sequelize.transaction(async (transaction) => {
            await QMQueue.destroy({ where: { quickMessageId: ctx.params.id }, transaction });
            await q.destroy({ transaction });
          });
          return { id: ctx.params.id, deleted: true };
        },
      },

      // --- internal ---------------------------------------------------------------------------
      /** Creates a quick message without an authenticated caller (seed, fixtures). */
      createInternal: {
        visibility: "public",
        params: {
          tenantId: "number",
          userId: "number",
          key: "string",
          message: "string",
          scope: { type: "enum", values: SCOPES, optional: true },
          queueIds: { type: "array", items: "number", optional: true },
        },
        async handler(ctx: Ctx<{ tenantId: number; userId: number; key: string; message: string; scope?: QuickMessageScope; queueIds?: number[] }>) {
          const p = ctx.params;
          const scope = p.scope ?? "personal";
          const key = checkKey(p.key);
          try {
            const q = await model.create({ tenantId: p.tenantId, key, message: p.message, scope, userId: p.userId, scopeKey: scopeKeyOf(scope, p.userId) });
            if (scope === "queue" && p.queueIds?.length) {
              await QMQueue.bulkCreate(p.queueIds.map((queueId) => ({ tenantId: p.tenantId, quickMessageId: q.get("id") as number, queueId })));
            }
            return view(q, scope === "queue" ? p.queueIds ?? [] : []);
          } catch (err) {
            throw uniqueError(err);
          }
        },
      },
    },
  });
}
