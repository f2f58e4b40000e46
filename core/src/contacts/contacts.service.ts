import { Op, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin } from "../db/tenant-db.mixin";
import { containsCI } from "../db/search";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { defineService, type ParamsOf, type ResultOf } from "../bus/call";
import type { UsersEvents } from "../users/contract";
import { defineContactModels } from "./models";
import { contactMerger } from "./merge";
import { contactViews, type ContactsKit } from "./views";
import { contactCrud, type ContactsOwner, type ListParams } from "./crud";
import { contactTransfers } from "./import-export";
import { inboundIdentities } from "./inbound";
import { botCard } from "./bot-card";
import { platformContactActions } from "./platform-query";
import type { ChannelContactUpdate, InboundParams } from "./contract";
import { contactParams, idParam, optionalContactParams, tagIdsParam, walletParam } from "./params";

type FieldInput = Record<string, unknown> & { tagIds?: number[]; walletUserIds?: number[] };
const tenantParam = { tenantId: { type: "number", integer: true, positive: true } };
const identityParams = { ...tenantParam, channelType: { type: "string", min: 1, max: 40 }, externalId: { type: "string", min: 1, max: 190 } };

/**
 * Contacts of a tenant (spec §3, §5, §6): every field of the spec's Contact (the field table,
 * contracts/contact-fields), numbers normalised to E.164 digits and unique per tenant, tags
 * and wallet (join tables), notes, additional info; CSV import (Bull job) and export;
 * duplicate merge; the free plan's contact cap (410 ERR_CONTACT_LIMIT). Channels find or
 * create their contact with the race-safe `resolveInbound`.
 *
 * This file is the service's face: its actions, routes, access and params. The work is done
 * by one module per subsystem: crud.ts (with views.ts), import-export.ts, inbound.ts, merge.ts.
 */
export function createContactsService(deps: CoreDeps): ServiceSchema {
  const models = defineContactModels(deps.sequelize);
  const { Contact: ContactModel, ContactTag } = models;
  const kit: ContactsKit = { deps, models, merger: contactMerger(deps.sequelize, models), views: contactViews(models) };
  const crud = contactCrud(kit);
  const transfers = contactTransfers(kit);
  const inbound = inboundIdentities(kit);

  // Handlers see `this` as the Service with the tenant DB mixin's methods (tenantOf, findOwned).
  return defineService<ContactsOwner>({
    name: "contacts",
    mixins: [tenantDbMixin(deps.sequelize, ContactModel)],
    settings: { rest: "/" },

    async started() {
      transfers.start(this);
    },
    async stopped() {
      await transfers.stop();
    },

    events: {
      ...inbound.cardEvents,
      /** A deleted user's wallet goes to whoever received their tickets. */
      async "users.deleted"(ctx: Ctx<UsersEvents["users.deleted"] | undefined>) {
        const { tenantId, userId, newUserId } = ctx.params ?? {};
        if (!tenantId || !userId) return;
        await crud.handOverWallet(tenantId, userId, newUserId);
      },
    },

    actions: {
      list: {
        rest: "GET /contacts",
        access: "user",
        params: {
          searchParam: { type: "string", optional: true, max: 120 },
          pageNumber: { type: "number", integer: true, min: 1, max: 1_000_000, optional: true, convert: true },
          pageSize: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
          tags: { type: "any", optional: true },
          walletUserId: { type: "number", integer: true, positive: true, optional: true, convert: true },
        },
        handler(ctx: Ctx<ListParams>) {
          return crud.list(this, ctx);
        },
      },

      exportCsv: {
        rest: "GET /contacts/export",
        access: "admin",
        handler(ctx: Ctx) {
          return transfers.exportCsv(ctx, this.tenantOf(ctx));
        },
      },

      importCsv: {
        rest: "POST /contacts/import",
        access: "admin",
        params: { csv: { type: "string", min: 1, max: 20_000_000 } },
        handler(ctx: Ctx<{ csv: string }>) {
          return transfers.enqueue(ctx, this.tenantOf(ctx));
        },
      },

      importStatus: {
        rest: "GET /contacts/import/:importId",
        access: "admin",
        resource: "contactImports",
        params: { importId: { type: "string", min: 1, max: 64 } },
        handler(ctx: Ctx<{ importId: string }>) {
          return transfers.status(ctx, this.tenantOf(ctx));
        },
      },

      deleteDuplicates: {
        rest: "POST /contacts/delete-duplicates",
        access: "admin",
        handler(ctx: Ctx) {
          return kit.merger.mergeDuplicates(ctx, this.tenantOf(ctx));
        },
      },

      get: {
        rest: "GET /contacts/:id",
        access: "user",
        resource: "contacts",
        params: idParam,
        handler(ctx: Ctx<{ id: number }>) {
          return crud.get(this, ctx);
        },
      },

      create: {
        rest: "POST /contacts",
        access: "user",
        params: contactParams,
        handler(ctx: Ctx<FieldInput>) {
          return crud.create(this, ctx);
        },
      },

      update: {
        rest: "PUT /contacts/:id",
        access: "user",
        resource: "contacts",
        params: { ...idParam, ...optionalContactParams },
        handler(ctx: Ctx<FieldInput & { id: number }>) {
          return crud.update(this, ctx);
        },
      },

      /** Spec §3 "WhatsApp-validated": the contact's number asked on WhatsApp (contacts/validate-whatsapp.ts). */
      validateWhatsApp: {
        rest: "POST /contacts/:id/validate-whatsapp",
        access: "user",
        resource: "contacts",
        params: idParam,
        handler(ctx: Ctx<{ id: number }>) {
          return crud.validateWhatsApp(this, ctx);
        },
      },

      remove: {
        rest: "DELETE /contacts/:id",
        access: "user",
        resource: "contacts",
        params: idParam,
        handler(ctx: Ctx<{ id: number }>) {
          return crud.remove(this, ctx);
        },
      },

      addNote: {
        rest: "POST /contacts/:id/notes",
        access: "user",
        resource: "contacts",
        params: { ...idParam, title: { type: "string", min: 1, max: 200, trim: true }, description: { type: "string", min: 1, max: 5000, trim: true } },
        handler(ctx: Ctx<{ id: number; title: string; description: string }>) {
          return crud.addNote(this, ctx);
        },
      },

      removeNote: {
        rest: "DELETE /contacts/:id/notes/:noteId",
        access: "user",
        resource: "contacts",
        params: { ...idParam, noteId: { type: "number", integer: true, positive: true, convert: true } },
        handler(ctx: Ctx<{ id: number; noteId: number }>) {
          return crud.removeNote(this, ctx);
        },
      },

      setTags: {
        rest: "PUT /contacts/:id/tags",
        access: "user",
        resource: "contacts",
        params: { ...idParam, ...tagIdsParam },
        handler(ctx: Ctx<{ id: number; tagIds: number[] }>) {
          return crud.setLinks(this, ctx, "tags", ctx.params.tagIds);
        },
      },

      setWallet: {
        rest: "PUT /contacts/:id/wallet",
        access: "user",
        resource: "contacts",
        params: { ...idParam, ...walletParam },
        handler(ctx: Ctx<{ id: number; userIds: number[] }>) {
          return crud.setLinks(this, ctx, "wallet", ctx.params.userIds);
        },
      },

      // --- internal (no REST) -----------------------------------------------------------------
      resolveInbound: {
        visibility: "public",
        params: {
          ...identityParams,
          name: { type: "string", optional: true, max: 500 },
          phone: { type: "string", optional: true, max: 60 },
          email: { type: "string", optional: true, max: 190 },
          avatarUrl: { type: "string", optional: true, max: 2000 },
          slim: { type: "boolean", optional: true },
        },
        handler: (ctx: Ctx<InboundParams>) => inbound.resolveInbound(ctx),
      },
      findInbound: {
        visibility: "public",
        params: { ...identityParams, avatarUrl: { type: "string", optional: true, max: 2000 } },
        handler: (ctx: Ctx<ParamsOf<"contacts.findInbound">>) => inbound.findInbound(ctx),
      },
      applyChannelUpdate: {
        visibility: "public",
        params: {
          ...identityParams,
          name: { type: "string", optional: true, max: 200 },
          avatarUrl: { type: "string", optional: true, nullable: true, max: 2000 },
          phone: { type: "string", optional: true, max: 60 },
          validated: { type: "boolean", optional: true },
          previousExternalId: { type: "string", optional: true, min: 1, max: 190 },
          create: { type: "boolean", optional: true },
        },
        handler: (ctx: Ctx<ChannelContactUpdate>) => inbound.applyChannelUpdate(ctx),
      },
      getInternal: {
        visibility: "public",
        params: { tenantId: "number", id: "number" },
        async handler(ctx: Ctx<ParamsOf<"contacts.getInternal">>): Promise<ResultOf<"contacts.getInternal">> {
          const c = await ContactModel.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
          return c ? kit.views.viewOf(ctx, ctx.params.tenantId, c, false) : null;
        },
      },
      /** Name, number and picture of several contacts of one tenant (ticket lists); unknown ids are left out. */
      summaries: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number", max: 5000 } },
        async handler(ctx: Ctx<ParamsOf<"contacts.summaries">>): Promise<ResultOf<"contacts.summaries">> {
          if (!ctx.params.ids.length) return [];
          const rows = await ContactModel.findAll({
            where: { tenantId: ctx.params.tenantId, id: { [Op.in]: [...new Set(ctx.params.ids)] } },
            attributes: ["id", "name", "number", "profilePicUrl"],
          });
          return rows.map((r) => ({ id: r.get("id") as number, name: r.get("name") as string, number: (r.get("number") as string | null) ?? null, profilePicUrl: (r.get("profilePicUrl") as string | null) ?? null }));
        },
      },
      /** Ids of the tenant's contacts whose name, e-mail or number contains `q` (ticket search). */
      searchIds: {
        visibility: "public",
        params: { tenantId: "number", q: { type: "string", min: 1, max: 120 }, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true } },
        async handler(ctx: Ctx<ParamsOf<"contacts.searchIds">>): Promise<ResultOf<"contacts.searchIds">> {
          const q = ctx.params.q.trim();
          if (!q) return [];
          const or: WhereOptions[] = [containsCI("name", q), containsCI("email", q)];
          const digits = q.replace(/\D/g, "");
          if (digits.length >= 2) or.push(containsCI("number", digits));
          const rows = await ContactModel.findAll({
            where: { [Op.and]: [{ tenantId: ctx.params.tenantId }, { [Op.or]: or }] },
            attributes: ["id"],
            order: [["id", "DESC"]],
            limit: ctx.params.limit ?? 500,
          });
          return rows.map((r) => r.get("id") as number);
        },
      },
      botCard: { visibility: "public", params: { tenantId: "number", id: "number" }, handler: botCard(kit) },
      /** The address a channel of `channelType` reaches the contact at (see inbound.ts). */
      identityFor: {
        visibility: "public",
        params: { tenantId: "number", contactId: "number", channelType: { type: "string", min: 1, max: 40 } },
        handler: (ctx: Ctx<ParamsOf<"contacts.identityFor">>) => inbound.identityFor(ctx),
      },
      count: {
        visibility: "public",
        params: { tenantId: "number" },
        handler(ctx: Ctx<ParamsOf<"contacts.count">>): Promise<ResultOf<"contacts.count">> {
          return ContactModel.count({ where: { tenantId: ctx.params.tenantId } });
        },
      },
      countByTag: {
        visibility: "public",
        params: { tenantId: "number", tagId: "number" },
        handler(ctx: Ctx<ParamsOf<"contacts.countByTag">>): Promise<ResultOf<"contacts.countByTag">> {
          return ContactTag.count({ where: { tenantId: ctx.params.tenantId, tagId: ctx.params.tagId } });
        },
      },
      detachTag: {
        visibility: "public",
        params: { tenantId: "number", tagId: "number" },
        handler(ctx: Ctx<ParamsOf<"contacts.detachTag">>): Promise<ResultOf<"contacts.detachTag">> {
          return ContactTag.destroy({ where: { tenantId: ctx.params.tenantId, tagId: ctx.params.tagId } });
        },
      },
      /** What the core API of plugins asks (platform-query.ts): query, idsByTags, notesQuery, platformUpdate. */
      ...platformContactActions(kit),
    },
  });
}
