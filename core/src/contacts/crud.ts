import { Op, Sequelize, WhereOptions } from "sequelize";
import { CONTACT_FIELD_NAMES, HIDDEN_CONTACT_FIELDS } from "@openatende/contracts/contact-fields";
import { AppError } from "../errors/app-error";
import { containsCI } from "../db/search";
import { lockTenantRow } from "../db/row-locks";
import type { TenantDbMethods } from "../db/tenant-db.mixin";
import { assertWithinLimit } from "../licence/plans";
import { call, emit } from "../bus/call";
import { Ctx, isAdmin } from "../types";
import type { Contact, ContactRow } from "./models";
import { ticketsAction } from "./merge";
import { fieldErrorToAppError, normaliseContactFields } from "./fields";
import { checkOnWhatsApp } from "./validate-whatsapp";
import { numberTaken, type ContactsKit, type LinkKind } from "./views";

/** The service itself: the caller's tenant, and a contact of it by id (404 otherwise). */
export type ContactsOwner = TenantDbMethods<Contact>;

export interface ListParams {
  searchParam?: string;
  pageNumber?: number;
  pageSize?: number;
  tags?: unknown;
  walletUserId?: number;
}
type FieldInput = Record<string, unknown> & { tagIds?: number[]; walletUserIds?: number[] };

/** Digits-or-letters search term of at least 2 characters (spec §5, §9). */
function searchTerm(raw: string | undefined): string | undefined {
  const q = raw?.trim();
  if (!q) return undefined;
  if ([...q].length < 2) throw new AppError("ERR_SEARCH_TOO_SHORT", { field: "searchParam", min: 2 });
  return q;
}

/** `tags` as a list, "1,2" or a single id (query strings). */
function parseIdList(raw: unknown, field: string): number[] | undefined {
  if (raw === undefined || raw === null || raw === "") return undefined;
  const parts = Array.isArray(raw) ? raw : String(raw).replace(/^\[|\]$/g, "").split(",");
  const ids = parts.map((p) => Number(String(p).trim()));
  if (ids.length > 100 || ids.some((n) => !Number.isInteger(n) || n <= 0)) throw new AppError("ERR_VALIDATION", { field, rule: "array" });
  return [...new Set(ids)];
}

/** The API's contacts: the page, one contact with its notes, create, change, remove; notes, tags and wallet. */
export function contactCrud(kit: ContactsKit) {
  const { deps, models, views: v } = kit;
  const { Contact: ContactModel, ContactNote: NoteModel } = models;
  const { views, viewOf, hiddenFor } = v;

  async function list(svc: ContactsOwner, ctx: Ctx<ListParams>) {
    const tenantId = svc.tenantOf(ctx);
    const { pageNumber = 1, walletUserId } = ctx.params;
    // Spec §3 "page size": the tenant's, when the caller names none (at most this list's 100).
    const pageSize = ctx.params.pageSize ?? Math.min(100, Number((await call(ctx, "settings.forTenant", { tenantId })).pageSize) || 20);
    const q = searchTerm(ctx.params.searchParam);
    const tagFilter = parseIdList(ctx.params.tags, "tags");
    const hide = await hiddenFor(ctx);
    const and: WhereOptions[] = [{ tenantId }];
    if (q) {
      const or: WhereOptions[] = [containsCI("name", q)];
      if (!hide) {
        or.push(containsCI("email", q));
        const digits = q.replace(/\D/g, "");
        if (digits.length >= 2) or.push(containsCI("number", digits));
      }
      and.push({ [Op.or]: or });
    }
    // Sub-selects on the join tables' (tenantId, …) indexes; ids are validated integers.
    if (tagFilter?.length) {
      and.push({
        id: { [Op.in]: Sequelize.literal(`(SELECT contactId FROM contact_tags WHERE tenantId = ${Number(tenantId)} AND tagId IN (${tagFilter.map(Number).join(",")}))`) },
      });
    }
    if (walletUserId) {
      and.push({ id: { [Op.in]: Sequelize.literal(`(SELECT contactId FROM contact_wallets WHERE tenantId = ${Number(tenantId)} AND userId = ${Number(walletUserId)})`) } });
    }
    // One row more than the page says whether another page exists; no COUNT over the table.
    const rows = await ContactModel.findAll({
      where: { [Op.and]: and },
      order: [["name", "ASC"], ["id", "ASC"]],
      limit: pageSize + 1,
      offset: (pageNumber - 1) * pageSize,
    });
    const hasMore = rows.length > pageSize;
    return { contacts: await views(ctx, tenantId, rows.slice(0, pageSize), hide), hasMore, pageNumber, pageSize };
  }

  async function get(svc: ContactsOwner, ctx: Ctx<{ id: number }>) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const tenantId = c.get("tenantId") as number;
    const view = await viewOf(ctx, tenantId, c, await hiddenFor(ctx));
    const notes = await NoteModel.findAll({ where: { tenantId, contactId: ctx.params.id }, order: [["createdAt", "DESC"], ["id", "DESC"]], limit: 500 });
    return { ...view, notes: notes.map(v.noteView) };
  }

  async function create(svc: ContactsOwner, ctx: Ctx<FieldInput>) {
    const tenantId = svc.tenantOf(ctx);
    const { value, errors } = normaliseContactFields(ctx.params, { requireName: true });
    if (errors.length) throw fieldErrorToAppError(errors[0]);
    const tagIds = await v.checkLinks("tags", ctx, tenantId, ctx.params.tagIds ?? []);
    const wallet = await v.checkLinks("wallet", ctx, tenantId, ctx.params.walletUserIds ?? []);
    const limits = await call(ctx, "licence.limits", { tenantId });
    const c = await deps.sequelize.transaction(async (transaction) => {
      // Under the tenant's lock, so the plan's cap holds against concurrent creations.
      await lockTenantRow(deps.sequelize, tenantId, transaction);
      if (limits.contacts !== null) assertWithinLimit(limits, "contacts", await ContactModel.count({ where: { tenantId }, transaction }));
      let made: Contact;
      try {
        made = await ContactModel.create({ ...value, tenantId } as Partial<ContactRow>, { transaction });
      } catch (err) {
        throw numberTaken(err);
      }
      const id = made.get("id") as number;
      await v.replaceLinks("tags", tenantId, id, tagIds, transaction);
      await v.replaceLinks("wallet", tenantId, id, wallet, transaction);
      return made;
    });
    ctx.meta.$statusCode = 201;
    emit(ctx, "contacts.created", { tenantId, contactId: c.get("id") as number, source: "api" });
    return viewOf(ctx, tenantId, c, await hiddenFor(ctx));
  }

  async function update(svc: ContactsOwner, ctx: Ctx<FieldInput & { id: number }>) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const tenantId = c.get("tenantId") as number;
    const hide = await hiddenFor(ctx);
    const input: Record<string, unknown> = {};
    for (const f of CONTACT_FIELD_NAMES) if (ctx.params[f] !== undefined) input[f] = ctx.params[f];
    if (hide) {
      // What this caller cannot see it cannot change; the hidden nulls it was shown are echoes.
      for (const f of HIDDEN_CONTACT_FIELDS) {
        if (input[f] === null) delete input[f];
        else if (input[f] !== undefined) throw new AppError("ERR_NO_PERMISSION", { field: f });
      }
    }
    const { value, errors } = normaliseContactFields(input, { requireName: false });
    if (errors.length) throw fieldErrorToAppError(errors[0]);
    if (value.number !== undefined && value.number !== c.get("number") && value.whatsappValidated === undefined) value.whatsappValidated = false;
    const tagIds = ctx.params.tagIds ? await v.checkLinks("tags", ctx, tenantId, ctx.params.tagIds) : undefined;
    const wallet = ctx.params.walletUserIds ? await v.checkLinks("wallet", ctx, tenantId, ctx.params.walletUserIds) : undefined;
    await deps.sequelize.transaction(async (transaction) => {
      try {
        await c.update(value as Partial<ContactRow>, { transaction });
      } catch (err) {
        throw numberTaken(err);
      }
      if (tagIds) await v.replaceLinks("tags", tenantId, ctx.params.id, tagIds, transaction);
      if (wallet) await v.replaceLinks("wallet", tenantId, ctx.params.id, wallet, transaction);
    });
    emit(ctx, "contacts.updated", { tenantId, contactId: ctx.params.id });
    return viewOf(ctx, tenantId, c, hide);
  }

  /** PUT /contacts/:id/tags and /wallet: the contact's list becomes the given one, every id checked. */
  async function setLinks(svc: ContactsOwner, ctx: Ctx<{ id: number }>, kind: LinkKind, ids: number[]) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const tenantId = c.get("tenantId") as number;
    const checked = await v.checkLinks(kind, ctx, tenantId, ids);
    await deps.sequelize.transaction((transaction) => v.replaceLinks(kind, tenantId, ctx.params.id, checked, transaction));
    emit(ctx, "contacts.updated", { tenantId, contactId: ctx.params.id });
    return viewOf(ctx, tenantId, c, await hiddenFor(ctx));
  }

  /** Spec §3 "WhatsApp-validated": the contact's number asked on WhatsApp (contacts/validate-whatsapp.ts). */
  async function validateWhatsApp(svc: ContactsOwner, ctx: Ctx<{ id: number }>) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const tenantId = c.get("tenantId") as number;
    const r = await checkOnWhatsApp(ctx, tenantId, c.get("number") as string | null);
    if (!!c.get("whatsappValidated") !== r.exists) {
      await c.update({ whatsappValidated: r.exists });
      emit(ctx, "contacts.updated", { tenantId, contactId: ctx.params.id });
    }
    if (!r.exists) throw new AppError("ERR_CONTACT_NUMBER_INVALID", { field: "number", reason: "not-on-whatsapp", connectionId: r.connectionId });
    return viewOf(ctx, tenantId, c, await hiddenFor(ctx));
  }

  /** A contact with tickets stays (its conversations would be lost); merge it instead. */
  async function remove(svc: ContactsOwner, ctx: Ctx<{ id: number }>) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const tenantId = c.get("tenantId") as number;
    if (ticketsAction(ctx.broker, "countForContact")) {
      const n = await call(ctx, "tickets.countForContact", { tenantId, contactId: ctx.params.id });
      if (n > 0) throw new AppError("ERR_CONTACT_HAS_TICKETS", { count: n });
    }
    await deps.sequelize.transaction((transaction) => kit.merger.destroyContact(ctx.params.id, transaction));
    emit(ctx, "contacts.deleted", { tenantId, contactId: ctx.params.id });
    return { id: ctx.params.id, deleted: true };
  }

  async function addNote(svc: ContactsOwner, ctx: Ctx<{ id: number; title: string; description: string }>) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const n = await NoteModel.create({
      tenantId: c.get("tenantId") as number,
      contactId: ctx.params.id,
      userId: ctx.meta.user!.id,
      title: ctx.params.title,
      description: ctx.params.description,
    });
    ctx.meta.$statusCode = 201;
    return v.noteView(n);
  }

  async function removeNote(svc: ContactsOwner, ctx: Ctx<{ id: number; noteId: number }>) {
    const c = await svc.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
    const n = await NoteModel.findOne({ where: { id: ctx.params.noteId, contactId: ctx.params.id, tenantId: c.get("tenantId") as number } });
    if (!n) throw new AppError("ERR_NOT_FOUND", { field: "noteId", id: ctx.params.noteId });
    // A note is its author's; admins may remove any.
    if (n.get("userId") !== ctx.meta.user!.id && !isAdmin(ctx.meta.user)) throw new AppError("ERR_NO_PERMISSION");
    await n.destroy();
    return { id: ctx.params.noteId, deleted: true };
  }

  /** users.deleted: a deleted user's wallet goes to whoever received their tickets. */
  async function handOverWallet(tenantId: number, userId: number, newUserId?: number) {
    const { ContactWallet } = models;
    await deps.sequelize.transaction(async (transaction) => {
      const rows = await ContactWallet.findAll({ where: { tenantId, userId }, transaction });
      if (newUserId && rows.length) {
        await ContactWallet.bulkCreate(rows.map((r) => ({ tenantId, contactId: r.get("contactId") as number, userId: newUserId })), {
          transaction,
          ignoreDuplicates: true,
        });
      }
      await ContactWallet.destroy({ where: { tenantId, userId }, transaction });
    });
  }

  return { list, get, create, update, setLinks, validateWhatsApp, remove, addNote, removeNote, handOverWallet };
}
