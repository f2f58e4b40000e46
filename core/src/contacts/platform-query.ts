import { Op, Sequelize, WhereOptions } from "sequelize";
import type { ActionSchema } from "moleculer";
import type { Ctx } from "../types";
import { emit } from "../bus/call";
import { AppError } from "../errors/app-error";
import { containsCI } from "../db/search";
import { fieldErrorToAppError, normaliseContactFields } from "./fields";
import { numberTaken, type ContactsKit } from "./views";
import type { ContactNotesQueryParams, ContactQueryParams, ContactsActions } from "./contract";
import type { ContactNoteRow, ContactRow } from "./models";

const id = { type: "number", integer: true, positive: true };
const ids = (max = 1000) => ({ type: "array", items: id, max, optional: true });
const limit = { type: "number", integer: true, min: 1, max: 10_000 };

/** Integers only go into the literal sub-selects (validated, forced again here). */
const intList = (xs: number[]) => xs.map((x) => Math.trunc(Number(x))).join(",");
const taggedWith = (tenantId: number, tagIds: number[]) =>
  Sequelize.literal(`(SELECT contactId FROM contact_tags WHERE tenantId = ${Number(tenantId)} AND tagId IN (${intList(tagIds)}))`);

/**
 * What the core API of plugins (the platform service, core/src/platform) asks of contacts: a
 * filtered page, the ids carrying some tags (ticket and note filters), the tenant's contact
 * notes, and a plugin's change of a contact's name or e-mail. By tenant and ids: the platform
 * service has checked that the calling plugin acts for the tenant. Phone and e-mail are never
 * hidden here (hideContactInfo is about agents' screens; a plugin the tenant enabled reads them).
 */
export function platformContactActions(kit: ContactsKit): Record<string, ActionSchema> {
  const { Contact: ContactModel, ContactTag, ContactNote } = kit.models;

  return {
    /** contacts.query: by name, then id. */
    query: {
      visibility: "public",
      params: {
        tenantId: id,
        ids: ids(),
        tagIds: ids(),
        search: { type: "string", max: 120, optional: true },
        birthdayMonth: { type: "number", integer: true, min: 1, max: 12, optional: true },
        states: { type: "array", items: { type: "string", max: 100 }, max: 100, optional: true },
        offset: { type: "number", integer: true, min: 0, max: 1_000_000 }, limit },
      async handler(ctx: Ctx<ContactQueryParams>): Promise<ContactsActions["contacts.query"]["result"]> {
        const p = ctx.params;
        const and: WhereOptions[] = [{ tenantId: p.tenantId }];
        if (p.ids) and.push({ id: { [Op.in]: p.ids } });
        if (p.tagIds) and.push({ id: p.tagIds.length ? { [Op.in]: taggedWith(p.tenantId, p.tagIds) } : -1 });
        // A DATEONLY reads "YYYY-MM-DD" as text on both MariaDB and SQLite: the month is characters 6–7.
        if (p.birthdayMonth) and.push(Sequelize.where(Sequelize.fn("SUBSTR", Sequelize.col("birthday"), 6, 2), String(p.birthdayMonth).padStart(2, "0")));
        if (p.states) and.push(p.states.length ? { state: { [Op.in]: p.states } } : { id: -1 });
        const q = p.search?.trim();
        if (q) {
          const or: WhereOptions[] = [containsCI("name", q), containsCI("email", q)];
          const digits = q.replace(/\D/g, "");
          if (digits.length >= 2) or.push(containsCI("number", digits));
          and.push({ [Op.or]: or });
        }
        const where = { [Op.and]: and };
        const [count, rows] = await Promise.all([
          ContactModel.count({ where }),
          ContactModel.findAll({ where, order: [["name", "ASC"], ["id", "ASC"]], offset: p.offset, limit: p.limit }),
        ]);
        return { rows: await kit.views.views(ctx, p.tenantId, rows, false), count, hasMore: p.offset + rows.length < count };
      },
    },

    /** contacts.idsByTags: the tenant's contacts carrying any of the tags (at most 100 000). */
    idsByTags: {
      visibility: "public",
      params: { tenantId: id, tagIds: { type: "array", items: id, max: 1000 } },
      async handler(ctx: Ctx<{ tenantId: number; tagIds: number[] }>): Promise<number[]> {
        if (!ctx.params.tagIds.length) return [];
        const rows = await ContactTag.findAll({ where: { tenantId: ctx.params.tenantId, tagId: { [Op.in]: ctx.params.tagIds } }, attributes: ["contactId"], limit: 100_000 });
        return [...new Set(rows.map((r) => r.get("contactId") as number))];
      },
    },

    /**
     * contacts.afterId: the next `limit` contacts of the tenant by id after `afterId` (keyset:
     * one index range a page, no OFFSET), whole as contacts.query answers them, for a plugin
     * reading every contact (a report's backfill); `total` with `withTotal` (the first page).
     */
    afterId: {
      visibility: "public",
      params: { tenantId: id, afterId: { type: "number", integer: true, min: 0 }, limit, withTotal: { type: "boolean", optional: true } },
      async handler(ctx: Ctx<{ tenantId: number; afterId: number; limit: number; withTotal?: boolean }>): Promise<ContactsActions["contacts.afterId"]["result"]> {
        const { tenantId, afterId } = ctx.params;
        const [rows, total] = await Promise.all([
          ContactModel.findAll({ where: { tenantId, id: { [Op.gt]: afterId } }, order: [["id", "ASC"]], limit: ctx.params.limit }),
          ctx.params.withTotal ? ContactModel.count({ where: { tenantId } }) : Promise.resolve(undefined),
        ]);
        return { rows: await kit.views.views(ctx, tenantId, rows, false), ...(total === undefined ? {} : { total }) };
      },
    },

    /**
     * contacts.taggedPage: the next `limit` contacts carrying any of the tags, by id after
     * `afterId` (keyset: each page is one index range, no COUNT, no OFFSET), with only what a
     * campaign links. A 100 000-contact tag is read in pages that each cost the same.
     */
    taggedPage: {
      visibility: "public",
      params: { tenantId: id, tagIds: { type: "array", items: id, min: 1, max: 1000 }, afterId: { type: "number", integer: true, min: 0 }, limit },
      async handler(ctx: Ctx<{ tenantId: number; tagIds: number[]; afterId: number; limit: number }>): Promise<ContactsActions["contacts.taggedPage"]["result"]> {
        const { tenantId, tagIds, afterId } = ctx.params;
        const rows = await ContactModel.findAll({
          where: { tenantId, id: { [Op.gt]: afterId, [Op.in]: taggedWith(tenantId, tagIds) } },
          attributes: ["id", "name", "number"],
          order: [["id", "ASC"]],
          limit: ctx.params.limit,
          raw: true,
        });
        return (rows as unknown as Array<Record<string, unknown>>).map((r) => ({ id: Number(r.id), name: String(r.name ?? ""), number: (r.number as string | null) ?? null }));
      },
    },

    /** contacts.notesQuery: the first `limit` contact notes of the tenant, newest first, with the contact's name. */
    notesQuery: {
      visibility: "public",
      params: {
        tenantId: id,
        contactIds: ids(100_000),
        userIds: ids(),
        from: { type: "date", convert: true, optional: true },
        to: { type: "date", convert: true, optional: true },
        search: { type: "string", max: 120, optional: true },
        limit,
      },
      async handler(ctx: Ctx<ContactNotesQueryParams>): Promise<ContactsActions["contacts.notesQuery"]["result"]> {
        const p = ctx.params;
        const and: WhereOptions[] = [{ tenantId: p.tenantId }];
        if (p.contactIds) and.push({ contactId: { [Op.in]: p.contactIds } });
        if (p.userIds) and.push({ userId: { [Op.in]: p.userIds } });
        if (p.from) and.push({ createdAt: { [Op.gte]: p.from } });
        if (p.to) and.push({ createdAt: { [Op.lte]: p.to } });
        const q = p.search?.trim();
        if (q) and.push({ [Op.or]: [containsCI("title", q), containsCI("description", q)] });
        const where = { [Op.and]: and };
        const [count, rows] = await Promise.all([ContactNote.count({ where }), ContactNote.findAll({ where, order: [["createdAt", "DESC"], ["id", "DESC"]], limit: p.limit })]);
        const notes = rows.map((r) => r.get({ plain: true }) as ContactNoteRow);
        const contacts = notes.length ? await ContactModel.findAll({ where: { tenantId: p.tenantId, id: { [Op.in]: [...new Set(notes.map((n) => n.contactId))] } }, attributes: ["id", "name"] }) : [];
        const nameOf = new Map(contacts.map((c) => [c.get("id") as number, c.get("name") as string]));
        return { rows: notes.map((n) => ({ id: n.id, contactId: n.contactId, contactName: nameOf.get(n.contactId) ?? "", userId: n.userId, title: n.title, body: n.description, createdAt: n.createdAt })), count };
      },
    },

    /** contacts.platformUpdate: a plugin renames a contact or changes its e-mail (the API's rules, contacts.updated emitted). */
    platformUpdate: {
      visibility: "public",
      params: { tenantId: id, id, name: { type: "string", max: 200, optional: true }, email: { type: "string", max: 190, optional: true, nullable: true } },
      async handler(ctx: Ctx<{ tenantId: number; id: number; name?: string; email?: string | null }>): Promise<ContactsActions["contacts.platformUpdate"]["result"]> {
        const { tenantId } = ctx.params;
        const c = await ContactModel.findOne({ where: { id: ctx.params.id, tenantId } });
        if (!c) throw new AppError("ERR_CONTACT_NOT_FOUND", { id: ctx.params.id });
        const input: Record<string, unknown> = {};
        if (ctx.params.name !== undefined) input.name = ctx.params.name;
        if (ctx.params.email !== undefined) input.email = ctx.params.email;
        const { value, errors } = normaliseContactFields(input, { requireName: false });
        if (errors.length) throw fieldErrorToAppError(errors[0]);
        if (Object.keys(value).length) {
          try {
            await c.update(value as Partial<ContactRow>);
          } catch (err) {
            throw numberTaken(err);
          }
          void emit(ctx, "contacts.updated", { tenantId, contactId: ctx.params.id });
        }
        return kit.views.viewOf(ctx, tenantId, c, false);
      },
    },
  };
}
