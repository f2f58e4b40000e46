import { Op, Transaction, UniqueConstraintError } from "sequelize";
import { CONTACT_FIELDS, CONTACT_FIELD_NAMES, HIDDEN_CONTACT_FIELDS, type ContactFields, type ContactTagRef } from "@openatende/contracts/contact-fields";
import type { CoreDeps } from "../deps";
import { AppError } from "../errors/app-error";
import { call } from "../bus/call";
import { Ctx, isAdmin } from "../types";
import type { Contact, ContactModels, ContactNote, ContactRow } from "./models";
import type { contactMerger } from "./merge";
import type { ContactView } from "./contract";

export type { ContactView };

/** The two lists a contact links to: its tags (contact_tags) and its wallet of users (contact_wallets). */
export type LinkKind = "tags" | "wallet";

/** What every part of the contacts service shares; one per service instance. */
export interface ContactsKit {
  deps: CoreDeps;
  models: ContactModels;
  merger: ReturnType<typeof contactMerger>;
  views: ContactViews;
}

export type ContactViews = ReturnType<typeof contactViews>;

function hiddenSetting(v: unknown): boolean {
  if (v && typeof v === "object" && !Array.isArray(v)) v = (v as { value?: unknown; enabled?: unknown }).value ?? (v as { enabled?: unknown }).enabled;
  return v === true || v === "true" || v === 1 || v === "enabled";
}

/** A unique-key failure on a contact's write is its number being another contact's. */
export function numberTaken(err: unknown): AppError | unknown {
  return err instanceof UniqueConstraintError ? new AppError("ERR_CONTACT_ALREADY_EXISTS", { field: "number" }) : err;
}

/**
 * Contacts as the API shows them (the field table's view, with tags and wallet), who may see
 * their number and e-mail, and the links to tags and users: checked, and replaced whole.
 */
export function contactViews(models: ContactModels) {
  const { ContactTag, ContactWallet } = models;

  /** The ids each contact links to, ascending. */
  async function linksOf(kind: LinkKind, contactIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!contactIds.length) return map;
    const where = { contactId: { [Op.in]: contactIds } };
    const pairs: Array<readonly [number, number]> =
      kind === "tags"
        ? (await ContactTag.findAll({ where, order: [["tagId", "ASC"]] })).map((r) => [r.get("contactId") as number, r.get("tagId") as number] as const)
        : (await ContactWallet.findAll({ where, order: [["userId", "ASC"]] })).map((r) => [r.get("contactId") as number, r.get("userId") as number] as const);
    for (const [contactId, id] of pairs) {
      if (!map.has(contactId)) map.set(contactId, []);
      map.get(contactId)!.push(id);
    }
    return map;
  }

  const noteView = (n: ContactNote) => {
    const r = n.get({ plain: true });
    return { id: r.id, contactId: r.contactId, title: r.title, description: r.description, userId: r.userId, createdAt: r.createdAt };
  };

  function plainView(c: Contact, tags: ContactTagRef[], wallet: number[], hide: boolean): ContactView {
    const r = c.get({ plain: true }) as ContactRow;
    const fields = CONTACT_FIELD_NAMES.map((f) => {
      const kind = CONTACT_FIELDS[f].kind;
      if (hide && HIDDEN_CONTACT_FIELDS.includes(f)) return [f, null];
      return [f, kind === "info" ? (r[f] ?? []) : kind === "boolean" ? !!r[f] : (r[f] ?? null)];
    });
    return {
      id: r.id,
      ...(Object.fromEntries(fields) as ContactFields),
      tags,
      wallet,
      ...(hide ? { contactInfoHidden: true } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  /** Views of contacts of one tenant, with their tags and wallet. */
  async function views(ctx: Ctx, tenantId: number, rows: Contact[], hide: boolean): Promise<ContactView[]> {
    const ids = rows.map((r) => r.get("id") as number);
    const [tagIds, wallets] = await Promise.all([linksOf("tags", ids), linksOf("wallet", ids)]);
    const allTagIds = [...new Set([...tagIds.values()].flat())];
    const tags = allTagIds.length ? await call(ctx, "tags.byIds", { tenantId, ids: allTagIds }) : [];
    const byId = new Map(tags.map((t) => [t.id, { id: t.id, name: t.name, color: t.color }]));
    return rows.map((r) => {
      const id = r.get("id") as number;
      const own = (tagIds.get(id) ?? []).map((t) => byId.get(t)).filter((t): t is ContactTagRef => !!t);
      own.sort((a, b) => a.name.localeCompare(b.name));
      return plainView(r, own, wallets.get(id) ?? [], hide);
    });
  }

  /** The view of one contact. */
  async function viewOf(ctx: Ctx, tenantId: number, c: Contact, hide: boolean): Promise<ContactView> {
    return (await views(ctx, tenantId, [c], hide))[0];
  }

  /** Spec §6: the tenant setting hideContactInfo hides phone and e-mail from non-admins. */
  async function hiddenFor(ctx: Ctx): Promise<boolean> {
    if (isAdmin(ctx.meta.user)) return false;
    const s = await call(ctx, "settings.list", undefined);
    return hiddenSetting(s?.hideContactInfo);
  }

  /** The distinct ids, each a tag of the tenant (ERR_TAG_NOT_FOUND names the others). */
  async function checkTags(ctx: Ctx, tenantId: number, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    const found = (await call(ctx, "tags.byIds", { tenantId, ids: unique })).map((t) => t.id);
    const missing = unique.filter((id) => !found.includes(id));
    if (missing.length) throw new AppError("ERR_TAG_NOT_FOUND", { field: "tagIds", ids: missing });
    return unique;
  }

  /** The distinct ids, each a user of the tenant not deleted (ERR_USER_NOT_FOUND names the others). */
  async function checkUsers(ctx: Ctx, tenantId: number, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const users = await Promise.all(unique.map((id) => call(ctx, "users.getInternal", { id })));
    const missing = unique.filter((_, i) => !users[i] || users[i]!.tenantId !== tenantId || users[i]!.deletedAt);
    if (missing.length) throw new AppError("ERR_USER_NOT_FOUND", { field: "userIds", ids: missing });
    return unique;
  }

  /** The ids of a new list, checked against the tenant's tags or users. */
  const checkLinks = (kind: LinkKind, ctx: Ctx, tenantId: number, ids: number[]) => (kind === "tags" ? checkTags(ctx, tenantId, ids) : checkUsers(ctx, tenantId, ids));

  /** The contact's list becomes `ids`. */
  async function replaceLinks(kind: LinkKind, tenantId: number, contactId: number, ids: number[], transaction?: Transaction) {
    if (kind === "tags") {
      await ContactTag.destroy({ where: { contactId }, transaction });
      if (ids.length) await ContactTag.bulkCreate(ids.map((tagId) => ({ tenantId, contactId, tagId })), { transaction });
    } else {
      await ContactWallet.destroy({ where: { contactId }, transaction });
      if (ids.length) await ContactWallet.bulkCreate(ids.map((userId) => ({ tenantId, contactId, userId })), { transaction });
    }
  }

  return { views, viewOf, noteView, hiddenFor, checkLinks, replaceLinks };
}
