import { createHash, randomBytes, randomUUID } from "node:crypto";
import Bull from "bull";
import { CONTACT_EXPORT_COLUMNS, CONTACT_FIELDS, CONTACT_FIELD_NAMES, HIDDEN_CONTACT_FIELDS, type ContactTagRef, type ContactView as ContactWire } from "@openatende/contracts/contact-fields";
import { Op, Sequelize, Transaction, UniqueConstraintError, WhereOptions } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { tenantDbMixin } from "../db/tenant-db.mixin";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import type { CoreDeps } from "../deps";
import { Ctx, isAdmin } from "../types";
import { containsCI } from "../db/search";
import { PlanLimits, assertWithinLimit } from "../licence/plans";
import { defineContactModels, Contact, ContactNote, ContactRow } from "./models";
import { contactMerger, ticketsAction } from "./merge";
import { avatarOf, channelContactUpdates } from "./channel-update";
import { ContactFields, fieldErrorToAppError, normaliseContactFields } from "./fields";
import { contactParams, idParam, optionalContactParams, tagIdsParam, walletParam } from "./params";
import { lenientContactNumber, numberMatchKey } from "./phone";
import { checkOnWhatsApp } from "./validate-whatsapp";
import { CsvFormatError, CsvRow, parseContactsCsv, splitTagNames, toCsv } from "./csv";
import type { TagView } from "../tags/contract";
import { TtlCache } from "../lib/ttl-cache";
import { hotQuery } from "../db/sql";
import { lockTenantRow } from "../db/row-locks";

/** Bull queue that runs CSV imports (one job per file). */
export const IMPORT_QUEUE = "contacts-import";
/** Finished imports stay readable this long (seconds). */
const IMPORT_KEEP_SECONDS = 24 * 3600;
const IMPORT_MAX_ROWS = 100_000;
const IMPORT_BATCH = 100;
/** Errors kept in an import's answer (the count is always exact). */
const IMPORT_MAX_ERRORS = 5000;
/** A contact card stays this long at most in a process's cache (a safety net: changes drop it at once). */
const CARD_TTL_MS = 5000;

export interface ImportRowError {
  row: number;
  field: string | null;
  code: ErrorCode;
}
interface ImportJobData {
  tenantId: number;
  userId: number;
  rows: CsvRow[];
}
interface ImportProgress {
  processed: number;
  total: number;
  imported: number;
  errorCount: number;
  errors: ImportRowError[];
  limit?: { current: number; max: number; code: string };
}

type ContactView = ContactWire<Date>;

function hiddenSetting(v: unknown): boolean {
  if (v && typeof v === "object" && !Array.isArray(v)) v = (v as { value?: unknown; enabled?: unknown }).value ?? (v as { enabled?: unknown }).enabled;
  return v === true || v === "true" || v === 1 || v === "enabled";
}

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

/**
 * Contacts of a tenant (spec §3, §5, §6): every field of the spec's Contact, numbers
 * normalised to E.164 digits and unique per tenant, tags and wallet (join tables), notes,
 * additional info; CSV import (Bull job) and export; duplicate merge; the free plan's
 * contact cap (410 ERR_CONTACT_LIMIT). Channels find or create their contact with the
 * race-safe `resolveInbound`.
 */
export function createContactsService(deps: CoreDeps): ServiceSchema {
  const models = defineContactModels(deps.sequelize);
  const { Contact: ContactModel, ContactIdentity, ContactTag, ContactWallet, ContactNote: NoteModel } = models;
  const merger = contactMerger(deps.sequelize, models);
  const { destroyContact } = merger;
  const mysql = () => deps.sequelize.getDialect() === "mysql";
  let importQueue: Bull.Queue<ImportJobData> | undefined;

  /** Bull keys of this deployment: nodes sharing a database share the queue; another database (another test) never sees it. */
  function queuePrefix(): string {
    const db = deps.config.database;
    const id = createHash("sha1")
      .update([db.dialect, db.host ?? "", db.port ?? "", db.database ?? "", db.storage ?? ""].join("|"))
      .digest("hex")
      .slice(0, 12);
    return `oa:${deps.config.namespace}:${id}`;
  }

  async function lockTenant(tenantId: number, transaction: Transaction) {
    await lockTenantRow(deps.sequelize, tenantId, transaction);
  }

  async function tagIdsOf(contactIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!contactIds.length) return map;
    for (const r of await ContactTag.findAll({ where: { contactId: { [Op.in]: contactIds } }, order: [["tagId", "ASC"]] })) {
      const id = r.get("contactId") as number;
      if (!map.has(id)) map.set(id, []);
      map.get(id)!.push(r.get("tagId") as number);
    }
    return map;
  }

  async function walletOf(contactIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!contactIds.length) return map;
    for (const r of await ContactWallet.findAll({ where: { contactId: { [Op.in]: contactIds } }, order: [["userId", "ASC"]] })) {
      const id = r.get("contactId") as number;
      if (!map.has(id)) map.set(id, []);
      map.get(id)!.push(r.get("userId") as number);
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
    const [tagIds, wallets] = await Promise.all([tagIdsOf(ids), walletOf(ids)]);
    const allTagIds = [...new Set([...tagIds.values()].flat())];
    const tags = allTagIds.length ? ((await ctx.call("tags.byIds", { tenantId, ids: allTagIds })) as TagView[]) : [];
    const byId = new Map(tags.map((t) => [t.id, { id: t.id, name: t.name, color: t.color }]));
    return rows.map((r) => {
      const id = r.get("id") as number;
      const own = (tagIds.get(id) ?? []).map((t) => byId.get(t)).filter((t): t is ContactTagRef => !!t);
      own.sort((a, b) => a.name.localeCompare(b.name));
      return plainView(r, own, wallets.get(id) ?? [], hide);
    });
  }

  /** Spec §6: the tenant setting hideContactInfo hides phone and e-mail from non-admins. */
  async function hiddenFor(ctx: Ctx): Promise<boolean> {
    if (isAdmin(ctx.meta.user)) return false;
    const s = (await ctx.call("settings.list")) as Record<string, unknown> | null;
    return hiddenSetting(s?.hideContactInfo);
  }

  async function checkTags(ctx: Ctx, tenantId: number, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    const found = ((await ctx.call("tags.byIds", { tenantId, ids: unique })) as TagView[]).map((t) => t.id);
    const missing = unique.filter((id) => !found.includes(id));
    if (missing.length) throw new AppError("ERR_TAG_NOT_FOUND", { field: "tagIds", ids: missing });
    return unique;
  }

  async function checkUsers(ctx: Ctx, tenantId: number, ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    const users = (await Promise.all(unique.map((id) => ctx.call("users.getInternal", { id })))) as Array<{ tenantId: number; deletedAt: Date | null } | null>;
    const missing = unique.filter((_, i) => !users[i] || users[i]!.tenantId !== tenantId || users[i]!.deletedAt);
    if (missing.length) throw new AppError("ERR_USER_NOT_FOUND", { field: "userIds", ids: missing });
    return unique;
  }

  async function replaceLinks(kind: "tags" | "wallet", tenantId: number, contactId: number, ids: number[], transaction?: Transaction) {
    if (kind === "tags") {
      await ContactTag.destroy({ where: { contactId }, transaction });
      if (ids.length) await ContactTag.bulkCreate(ids.map((tagId) => ({ tenantId, contactId, tagId })), { transaction });
    } else {
      await ContactWallet.destroy({ where: { contactId }, transaction });
      if (ids.length) await ContactWallet.bulkCreate(ids.map((userId) => ({ tenantId, contactId, userId })), { transaction });
    }
  }

  function numberTaken(err: unknown): AppError | unknown {
    return err instanceof UniqueConstraintError ? new AppError("ERR_CONTACT_ALREADY_EXISTS", { field: "number" }) : err;
  }

  // --- import -----------------------------------------------------------------------------------

  async function runImport(this: any, job: Bull.Job<ImportJobData>): Promise<ImportProgress> {
    const { tenantId, rows } = job.data;
    const broker = this.broker;
    const p: ImportProgress = { processed: 0, total: rows.length, imported: 0, errorCount: 0, errors: [] };
    const fail = (row: number, field: string | null, code: ErrorCode) => {
      p.errorCount++;
      if (p.errors.length < IMPORT_MAX_ERRORS) p.errors.push({ row, field, code });
    };

    // 1. Check every row; a bad row is refused whole, with one error per bad field.
    const good: Array<{ row: number; value: Partial<ContactFields>; tags: string[] }> = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const { value, errors } = normaliseContactFields(r.values, { requireName: true });
      const tags = splitTagNames(r.values.tags);
      if (tags.some((t) => t.length > 100)) errors.push({ field: "tags", code: "ERR_VALIDATION", rule: "stringMax" });
      if (!errors.length && value.number) {
        if (seen.has(value.number)) errors.push({ field: "number", code: "ERR_CONTACT_DUPLICATED", rule: "unique" });
        seen.add(value.number);
      }
      if (errors.length) {
        for (const e of errors) fail(r.row, e.field, e.code);
        p.processed++;
      } else good.push({ row: r.row, value, tags });
    }
    await job.progress({ ...p });

    // 2. Tags by name (created when missing), then the plan's cap.
    const names = [...new Set(good.flatMap((g) => g.tags))];
    const tagIds = new Map<string, number>();
    for (let i = 0; i < names.length; i += 1000) {
      const chunk = names.slice(i, i + 1000);
      const ids = (await broker.call("tags.ensureByNames", { tenantId, names: chunk })) as Record<string, number>;
      for (const n of chunk) if (ids[n]) tagIds.set(n, ids[n]);
    }
    const limits = (await broker.call("licence.limits", { tenantId })) as PlanLimits;

    // 3. Insert in batches, each under the tenant lock so the cap holds against concurrent creations.
    for (let i = 0; i < good.length; i += IMPORT_BATCH) {
      const batch = good.slice(i, i + IMPORT_BATCH);
      const created: number[] = [];
      await deps.sequelize.transaction(async (transaction) => {
        await lockTenant(tenantId, transaction);
        let current = limits.contacts === null ? 0 : await ContactModel.count({ where: { tenantId }, transaction });
        const numbers = batch.map((b) => b.value.number).filter((n): n is string => !!n);
        const existing = new Set(
          numbers.length
            ? (await ContactModel.findAll({ where: { tenantId, number: { [Op.in]: numbers } }, attributes: ["number"], transaction })).map((c) => c.get("number") as string)
            : [],
        );
        for (const b of batch) {
          if (b.value.number && existing.has(b.value.number)) {
            fail(b.row, "number", "ERR_CONTACT_ALREADY_EXISTS");
            continue;
          }
          if (limits.contacts !== null && current >= limits.contacts) {
            p.limit = { current, max: limits.contacts, code: `ERR_CONTACT_LIMIT:${current}:${limits.contacts}` };
            fail(b.row, null, "ERR_CONTACT_LIMIT");
            continue;
          }
          try {
            const c = await ContactModel.create({ ...b.value, tenantId, source: b.value.source ?? "import" } as Partial<ContactRow>, { transaction });
            const id = c.get("id") as number;
            const tags = [...new Set(b.tags.map((t) => tagIds.get(t)).filter((t): t is number => !!t))];
            if (tags.length) await ContactTag.bulkCreate(tags.map((tagId) => ({ tenantId, contactId: id, tagId })), { transaction });
            created.push(id);
            current++;
          } catch (err) {
            if (!(err instanceof UniqueConstraintError)) throw err;
            fail(b.row, "number", "ERR_CONTACT_ALREADY_EXISTS");
          }
        }
      });
      p.imported += created.length;
      p.processed += batch.length;
      for (const id of created) broker.emit("contacts.created", { tenantId, contactId: id, source: "import" });
      await job.progress({ ...p });
    }
    p.errors.sort((a, b) => a.row - b.row);
    return p;
  }

  async function importView(job: Bull.Job<ImportJobData>) {
    const state = await job.getState();
    const done = state === "completed" ? (job.returnvalue as ImportProgress | null) : null;
    const prog = done ?? (typeof job.progress() === "object" ? (job.progress() as ImportProgress) : null);
    const total = prog?.total ?? job.data.rows.length;
    return {
      importId: String(job.id),
      status: state,
      processed: prog?.processed ?? 0,
      total,
      imported: prog?.imported ?? 0,
      errorCount: prog?.errorCount ?? 0,
      errors: [...(prog?.errors ?? [])].sort((a, b) => a.row - b.row),
      ...(prog?.limit ? { limit: prog.limit } : {}),
      ...(state === "failed" ? { failedReason: job.failedReason ?? null } : {}),
      createdAt: new Date(job.timestamp).toISOString(),
      finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    };
  }

  // --- inbound -----------------------------------------------------------------------------------

  interface InboundParams {
    tenantId: number;
    channelType: string;
    externalId: string;
    name?: string;
    phone?: string;
    email?: string;
    avatarUrl?: string;
    /** Answer id, name and picture only (what a channel needs), without tags and wallet. */
    slim?: boolean;
  }

  interface InboundContact {
    id: number;
    name: string;
    profilePicUrl: string | null;
  }


  /**
   * Contact cards (id, name, picture) by channel identity, per process: what every inbound
   * message shows of its sender. A change to a contact drops them (contacts.updated, .deleted,
   * .merged, heard by every node through the handler's own event group; resolveInbound drops
   * the identity it wrote); entries live CARD_TTL_MS at most. Unknown identities are not kept.
   * A stale card can only name a contact that still has its active ticket (a contact with
   * tickets is not deleted, a merge moves them), so the ticket lookup that follows keeps the
   * message on the right contact.
   */
  const cards = new TtlCache<string, InboundContact | null>(CARD_TTL_MS, 50_000, (c) => c !== null);
  const cardsGroup = `contacts-cards-${randomBytes(6).toString("hex")}`;
  const cardKey = (tenantId: number, channelType: string, externalId: string) => `${tenantId}\u0000${channelType}\u0000${externalId}`;

  /**
   * A channel identity and its contact in one statement: undefined when the identity is
   * unknown, `contact: null` when the identity is left over from a removed contact.
   */
  async function identityOf(tenantId: number, channelType: string, externalId: string): Promise<{ identityId: number; contact: InboundContact | null } | undefined> {
    const { rows } = await hotQuery<{ identityId: number; id: number | null; name: string | null; profilePicUrl: string | null }>(
      deps.sequelize,
      "select",
      "SELECT i.id AS identityId, c.id AS id, c.name AS name, c.profilePicUrl AS profilePicUrl FROM contact_identities i LEFT JOIN contacts c ON c.id = i.contactId AND c.tenantId = i.tenantId WHERE i.tenantId = ? AND i.channelType = ? AND i.externalId = ? LIMIT 1",
      [tenantId, channelType, externalId],
    );
    const r = rows[0];
    if (!r) return undefined;
    return { identityId: Number(r.identityId), contact: r.id === null || r.id === undefined ? null : { id: Number(r.id), name: r.name as string, profilePicUrl: r.profilePicUrl ?? null } };
  }

  /**
   * The contact of a channel identity, created on first contact. Race-safe without
   * check-then-insert: the identity's unique key decides; a loser reads the winner's row.
   * A known identity costs one statement (two more for tags and wallet unless `slim`).
   */
  async function resolveInbound(ctx: Ctx<InboundParams>) {
    try {
      return await resolveIdentity(ctx);
    } finally {
      // What it wrote (a picture, a new or re-made contact) is what the next card read sees.
      cards.dropKey(cardKey(ctx.params.tenantId, ctx.params.channelType, ctx.params.externalId));
    }
  }

  async function resolveIdentity(ctx: Ctx<InboundParams>) {
    const { tenantId, channelType, externalId, slim } = ctx.params;
    const key = { tenantId, channelType, externalId };
    const number = ctx.params.phone ? lenientContactNumber(ctx.params.phone) : null;
    const email = (() => {
      const r = normaliseContactFields({ email: ctx.params.email ?? null }, { requireName: false });
      return r.errors.length ? null : (r.value.email ?? null);
    })();
    const avatar = avatarOf(ctx.params.avatarUrl);
    const answer = async (c: Contact, created: boolean) => {
      if (!created && avatar && c.get("profilePicUrl") !== avatar) await c.update({ profilePicUrl: avatar });
      if (created) ctx.emit("contacts.created", { tenantId, contactId: c.get("id"), source: channelType });
      if (slim) return { id: c.get("id") as number, name: c.get("name") as string, profilePicUrl: (c.get("profilePicUrl") as string | null) ?? null, created };
      return { ...(await views(ctx, tenantId, [c], false))[0], created };
    };

    for (let attempt = 0; attempt < 5; attempt++) {
      const ident = await identityOf(tenantId, channelType, externalId);
      if (ident) {
        if (ident.contact) {
          const known = ident.contact;
          if (slim && !(avatar && known.profilePicUrl !== avatar)) return { ...known, created: false };
          const c = await ContactModel.findOne({ where: { id: known.id, tenantId } });
          if (c) return answer(c, false);
        }
        await ContactIdentity.destroy({ where: { id: ident.identityId } }); // its contact is gone: the identity starts afresh
        continue;
      }
      let existing = number ? await ContactModel.findOne({ where: { tenantId, number } }) : null;
      if (!existing && email) existing = await ContactModel.findOne({ where: { tenantId, email }, order: [["createdAt", "ASC"], ["id", "ASC"]] });
      try {
        if (existing) {
          await ContactIdentity.create({ ...key, contactId: existing.get("id") as number });
          return answer(existing, false);
        }
        const name = (ctx.params.name?.trim() || number || email || externalId).slice(0, 200);
        const c = await deps.sequelize.transaction(async (transaction) => {
          const made = await ContactModel.create({ tenantId, name, number, email, profilePicUrl: avatar, source: channelType.slice(0, 100) }, { transaction });
          await ContactIdentity.create({ ...key, contactId: made.get("id") as number }, { transaction });
          return made;
        });
        return answer(c, true);
      } catch (err) {
        // Someone else created the identity (or the contact with this number) meanwhile: read theirs.
        if (!(err instanceof UniqueConstraintError)) throw err;
      }
    }
    throw new AppError("ERR_CONFLICT", { field: "externalId" });
  }

  /**
   * Read only: the contact of a known channel identity (id, name, picture), or null when
   * resolving it would write anything (an unknown identity, a left-over identity, a new picture).
   * Answered from the per-process card cache when it can be.
   */
  async function findInbound(ctx: Ctx<InboundParams>): Promise<InboundContact | null> {
    const { tenantId, channelType, externalId } = ctx.params;
    const c = await cards.get(cardKey(tenantId, channelType, externalId), async () => (await identityOf(tenantId, channelType, externalId))?.contact ?? null);
    if (!c) return null;
    const avatar = avatarOf(ctx.params.avatarUrl);
    return avatar && c.profilePicUrl !== avatar ? null : { ...c };
  }

  /** channels.contact: what a channel learnt of a contact (see contacts/channel-update.ts). */
  const applyChannelUpdate = channelContactUpdates({
    sequelize: deps.sequelize,
    models,
    merger,
    identityOf,
    forget: (tenantId, channelType, externalIds) => externalIds.forEach((id) => cards.dropKey(cardKey(tenantId, channelType, id))),
  });

  // --- merge -------------------------------------------------------------------------------------

  async function mergeDuplicates(this: any, ctx: Ctx, tenantId: number) {
    type Slim = { id: number; number: string | null; email: string | null; createdAt: Date };
    const all: Slim[] = [];
    for (let last = 0; ; ) {
      const page = await ContactModel.findAll({
        where: { tenantId, id: { [Op.gt]: last } },
        attributes: ["id", "number", "email", "createdAt"],
        order: [["id", "ASC"]],
        limit: 5000,
        raw: true,
      });
      all.push(...(page as unknown as Slim[]));
      if (page.length < 5000) break;
      last = (page[page.length - 1] as unknown as Slim).id;
    }
    // Union-find over "same number (match key)" and "same e-mail".
    const parent = all.map((_, i) => i);
    const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
    const firstByKey = new Map<string, number>();
    all.forEach((c, i) => {
      const keys = [numberMatchKey(c.number), c.email?.trim().toLowerCase() || null].map((k, j) => (k ? `${j}:${k}` : null));
      for (const k of keys) {
        if (!k) continue;
        const j = firstByKey.get(k);
        if (j === undefined) firstByKey.set(k, i);
        else parent[find(i)] = find(j);
      }
    });
    const groups = new Map<number, Slim[]>();
    all.forEach((c, i) => {
      const r = find(i);
      if (!groups.has(r)) groups.set(r, []);
      groups.get(r)!.push(c);
    });

    let removed = 0;
    let merged = 0;
    let skipped = 0;
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      members.sort((a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a.id - b.id);
      const [keep, ...rest] = members;
      const r = await merger.mergeInto(ctx, tenantId, keep.id, rest.map((d) => d.id));
      skipped += r.skipped;
      if (!r.removedIds.length) continue;
      removed += r.removedIds.length;
      merged++;
    }
    return { removed, merged, skipped };
  }

  return {
    name: "contacts",
    mixins: [tenantDbMixin(deps.sequelize, ContactModel)],
    settings: { rest: "/" },

    async started(this: any) {
      importQueue = new Bull<ImportJobData>(IMPORT_QUEUE, deps.config.redisUrl, {
        prefix: queuePrefix(),
        defaultJobOptions: { attempts: 1, removeOnComplete: { age: IMPORT_KEEP_SECONDS }, removeOnFail: { age: IMPORT_KEEP_SECONDS } },
      });
      importQueue.on("error", (err) => this.logger.warn(`contacts import queue: ${err.message}`));
      importQueue.process(1, (job) => runImport.call(this, job)).catch((err: Error) => this.logger.warn(`contacts import worker stopped: ${err.message}`));
    },
    async stopped() {
      const q = importQueue;
      importQueue = undefined;
      await q?.close().catch(() => undefined);
    },

    events: {
      // A contact changed somewhere: the cards go (each node hears it: a group of its own).
      ...Object.fromEntries(
        ["contacts.updated", "contacts.deleted", "contacts.merged"].map((name) => [name, { group: cardsGroup, handler: () => cards.drop() }]),
      ),
      /** A deleted user's wallet goes to whoever received their tickets. */
      async "users.deleted"(ctx: Ctx<{ tenantId: number; userId: number; newUserId?: number }>) {
        const { tenantId, userId, newUserId } = ctx.params ?? ({} as { tenantId: number; userId: number });
        if (!tenantId || !userId) return;
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
        async handler(this: any, ctx: Ctx<{ searchParam?: string; pageNumber?: number; pageSize?: number; tags?: unknown; walletUserId?: number }>) {
          const tenantId = this.tenantOf(ctx);
          const { pageNumber = 1, pageSize = 20, walletUserId } = ctx.params;
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
        },
      },

      exportCsv: {
        rest: "GET /contacts/export",
        access: "admin",
        async handler(this: any, ctx: Ctx) {
          const tenantId = this.tenantOf(ctx);
          const out: Array<Record<string, unknown>> = [];
          for (let last = 0; ; ) {
            const page = await ContactModel.findAll({ where: { tenantId, id: { [Op.gt]: last } }, order: [["id", "ASC"]], limit: 1000 });
            if (!page.length) break;
            for (const v of await views(ctx, tenantId, page, false)) {
              out.push({ ...v, tags: v.tags.map((t) => t.name).join(";"), wallet: v.wallet.join(";"), createdAt: new Date(v.createdAt).toISOString() });
            }
            last = page[page.length - 1].get("id") as number;
            if (page.length < 1000) break;
          }
          const stamp = new Date().toISOString().slice(0, 10);
          ctx.meta.$responseType = "text/csv; charset=utf-8";
          ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename="contacts-${stamp}.csv"` };
          return toCsv([...CONTACT_EXPORT_COLUMNS], out);
        },
      },

      importCsv: {
        rest: "POST /contacts/import",
        access: "admin",
        params: { csv: { type: "string", min: 1, max: 20_000_000 } },
        async handler(this: any, ctx: Ctx<{ csv: string }>) {
          const tenantId = this.tenantOf(ctx);
          let parsed: ReturnType<typeof parseContactsCsv>;
          try {
            parsed = parseContactsCsv(ctx.params.csv, IMPORT_MAX_ROWS);
          } catch (err) {
            if (err instanceof CsvFormatError) {
              const rule = err.reason === "too_many_rows" ? "arrayMax" : err.reason === "empty" ? "stringEmpty" : "any";
              throw new AppError("ERR_VALIDATION", { field: "csv", rule, reason: err.reason, ...(err.reason === "too_many_rows" ? { errors: [{ field: "csv", rule, expected: IMPORT_MAX_ROWS }] } : {}) });
            }
            throw err;
          }
          if (!importQueue) throw new AppError("ERR_SERVICE_UNAVAILABLE", { service: IMPORT_QUEUE });
          const job = await importQueue.add({ tenantId, userId: ctx.meta.user!.id, rows: parsed.rows }, { jobId: randomUUID() });
          ctx.meta.$statusCode = 202;
          return { importId: String(job.id), total: parsed.rows.length, columns: parsed.fields };
        },
      },

      importStatus: {
        rest: "GET /contacts/import/:importId",
        access: "admin",
        resource: "contactImports",
        params: { importId: { type: "string", min: 1, max: 64 } },
        async handler(this: any, ctx: Ctx<{ importId: string }>) {
          const tenantId = this.tenantOf(ctx);
          const job = importQueue ? await importQueue.getJob(ctx.params.importId) : null;
          // Another tenant's import does not exist for this caller.
          if (!job || Number(job.data?.tenantId) !== tenantId) throw new AppError("ERR_IMPORT_NOT_FOUND", { importId: ctx.params.importId });
          return importView(job);
        },
      },

      deleteDuplicates: {
        rest: "POST /contacts/delete-duplicates",
        access: "admin",
        async handler(this: any, ctx: Ctx) {
          return mergeDuplicates.call(this, ctx, this.tenantOf(ctx));
        },
      },

      get: {
        rest: "GET /contacts/:id",
        access: "user",
        resource: "contacts",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const tenantId = c.get("tenantId") as number;
          const [v] = await views(ctx, tenantId, [c], await hiddenFor(ctx));
          const notes = await NoteModel.findAll({ where: { tenantId, contactId: ctx.params.id }, order: [["createdAt", "DESC"], ["id", "DESC"]], limit: 500 });
          return { ...v, notes: notes.map(noteView) };
        },
      },

      create: {
        rest: "POST /contacts",
        access: "user",
        params: contactParams,
        async handler(this: any, ctx: Ctx<Record<string, unknown> & { tagIds?: number[]; walletUserIds?: number[] }>) {
          const tenantId = this.tenantOf(ctx);
          const { value, errors } = normaliseContactFields(ctx.params, { requireName: true });
          if (errors.length) throw fieldErrorToAppError(errors[0]);
          const tagIds = await checkTags(ctx, tenantId, ctx.params.tagIds ?? []);
          const wallet = await checkUsers(ctx, tenantId, ctx.params.walletUserIds ?? []);
          const limits = (await ctx.call("licence.limits", { tenantId })) as PlanLimits;
          const c = await deps.sequelize.transaction(async (transaction) => {
            await lockTenant(tenantId, transaction);
            if (limits.contacts !== null) assertWithinLimit(limits, "contacts", await ContactModel.count({ where: { tenantId }, transaction }));
            let made: Contact;
            try {
              made = await ContactModel.create({ ...value, tenantId } as Partial<ContactRow>, { transaction });
            } catch (err) {
              throw numberTaken(err);
            }
            const id = made.get("id") as number;
            await replaceLinks("tags", tenantId, id, tagIds, transaction);
            await replaceLinks("wallet", tenantId, id, wallet, transaction);
            return made;
          });
          ctx.meta.$statusCode = 201;
          ctx.emit("contacts.created", { tenantId, contactId: c.get("id"), source: "api" });
          return (await views(ctx, tenantId, [c], await hiddenFor(ctx)))[0];
        },
      },

      update: {
        rest: "PUT /contacts/:id",
        access: "user",
        resource: "contacts",
        params: { ...idParam, ...optionalContactParams },
        async handler(this: any, ctx: Ctx<Record<string, unknown> & { id: number; tagIds?: number[]; walletUserIds?: number[] }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
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
          const tagIds = ctx.params.tagIds ? await checkTags(ctx, tenantId, ctx.params.tagIds) : undefined;
          const wallet = ctx.params.walletUserIds ? await checkUsers(ctx, tenantId, ctx.params.walletUserIds) : undefined;
          await deps.sequelize.transaction(async (transaction) => {
            try {
              await c.update(value as Partial<ContactRow>, { transaction });
            } catch (err) {
              throw numberTaken(err);
            }
            if (tagIds) await replaceLinks("tags", tenantId, ctx.params.id, tagIds, transaction);
            if (wallet) await replaceLinks("wallet", tenantId, ctx.params.id, wallet, transaction);
          });
          ctx.emit("contacts.updated", { tenantId, contactId: ctx.params.id });
          return (await views(ctx, tenantId, [c], hide))[0];
        },
      },

      /** Spec §3 "WhatsApp-validated": the contact's number asked on WhatsApp (contacts/validate-whatsapp.ts). */
      validateWhatsApp: {
        rest: "POST /contacts/:id/validate-whatsapp",
        access: "user",
        resource: "contacts",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const tenantId = c.get("tenantId") as number;
          const r = await checkOnWhatsApp(ctx, deps.sequelize, tenantId, c.get("number") as string | null);
          if (!!c.get("whatsappValidated") !== r.exists) {
            await c.update({ whatsappValidated: r.exists });
            ctx.emit("contacts.updated", { tenantId, contactId: ctx.params.id });
          }
          if (!r.exists) throw new AppError("ERR_CONTACT_NUMBER_INVALID", { field: "number", reason: "not-on-whatsapp", connectionId: r.connectionId });
          return (await views(ctx, tenantId, [c], await hiddenFor(ctx)))[0];
        },
      },

      remove: {
        rest: "DELETE /contacts/:id",
        access: "user",
        resource: "contacts",
        params: idParam,
        async handler(this: any, ctx: Ctx<{ id: number }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const tenantId = c.get("tenantId") as number;
          if (ticketsAction(this.broker, "countForContact")) {
            const n = (await ctx.call("tickets.countForContact", { tenantId, contactId: ctx.params.id })) as number;
            if (n > 0) throw new AppError("ERR_CONTACT_HAS_TICKETS", { count: n });
          }
          await deps.sequelize.transaction((transaction) => destroyContact(ctx.params.id, transaction));
          ctx.emit("contacts.deleted", { tenantId, contactId: ctx.params.id });
          return { id: ctx.params.id, deleted: true };
        },
      },

      addNote: {
        rest: "POST /contacts/:id/notes",
        access: "user",
        resource: "contacts",
        params: { ...idParam, title: { type: "string", min: 1, max: 200, trim: true }, description: { type: "string", min: 1, max: 5000, trim: true } },
        async handler(this: any, ctx: Ctx<{ id: number; title: string; description: string }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const n = await NoteModel.create({
            tenantId: c.get("tenantId") as number,
            contactId: ctx.params.id,
            userId: ctx.meta.user!.id,
            title: ctx.params.title,
            description: ctx.params.description,
          });
          ctx.meta.$statusCode = 201;
          return noteView(n);
        },
      },

      removeNote: {
        rest: "DELETE /contacts/:id/notes/:noteId",
        access: "user",
        resource: "contacts",
        params: { ...idParam, noteId: { type: "number", integer: true, positive: true, convert: true } },
        async handler(this: any, ctx: Ctx<{ id: number; noteId: number }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const n = await NoteModel.findOne({ where: { id: ctx.params.noteId, contactId: ctx.params.id, tenantId: c.get("tenantId") as number } });
          if (!n) throw new AppError("ERR_NOT_FOUND", { field: "noteId", id: ctx.params.noteId });
          // A note is its author's; admins may remove any.
          if (n.get("userId") !== ctx.meta.user!.id && !isAdmin(ctx.meta.user)) throw new AppError("ERR_NO_PERMISSION");
          await n.destroy();
          return { id: ctx.params.noteId, deleted: true };
        },
      },

      setTags: {
        rest: "PUT /contacts/:id/tags",
        access: "user",
        resource: "contacts",
        params: { ...idParam, ...tagIdsParam },
        async handler(this: any, ctx: Ctx<{ id: number; tagIds: number[] }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const tenantId = c.get("tenantId") as number;
          const ids = await checkTags(ctx, tenantId, ctx.params.tagIds);
          await deps.sequelize.transaction((transaction) => replaceLinks("tags", tenantId, ctx.params.id, ids, transaction));
          ctx.emit("contacts.updated", { tenantId, contactId: ctx.params.id });
          return (await views(ctx, tenantId, [c], await hiddenFor(ctx)))[0];
        },
      },

      setWallet: {
        rest: "PUT /contacts/:id/wallet",
        access: "user",
        resource: "contacts",
        params: { ...idParam, ...walletParam },
        async handler(this: any, ctx: Ctx<{ id: number; userIds: number[] }>) {
          const c: Contact = await this.findOwned(ctx, ctx.params.id, "ERR_CONTACT_NOT_FOUND");
          const tenantId = c.get("tenantId") as number;
          const ids = await checkUsers(ctx, tenantId, ctx.params.userIds);
          await deps.sequelize.transaction((transaction) => replaceLinks("wallet", tenantId, ctx.params.id, ids, transaction));
          ctx.emit("contacts.updated", { tenantId, contactId: ctx.params.id });
          return (await views(ctx, tenantId, [c], await hiddenFor(ctx)))[0];
        },
      },

      // --- internal (no REST) -----------------------------------------------------------------
      resolveInbound: {
        visibility: "public",
        params: {
          tenantId: { type: "number", integer: true, positive: true },
          channelType: { type: "string", min: 1, max: 40 },
          externalId: { type: "string", min: 1, max: 190 },
          name: { type: "string", optional: true, max: 500 },
          phone: { type: "string", optional: true, max: 60 },
          email: { type: "string", optional: true, max: 190 },
          avatarUrl: { type: "string", optional: true, max: 2000 },
          slim: { type: "boolean", optional: true },
        },
        handler: resolveInbound,
      },
      findInbound: {
        visibility: "public",
        params: {
          tenantId: { type: "number", integer: true, positive: true },
          channelType: { type: "string", min: 1, max: 40 },
          externalId: { type: "string", min: 1, max: 190 },
          avatarUrl: { type: "string", optional: true, max: 2000 },
        },
        handler: findInbound,
      },
      applyChannelUpdate: {
        visibility: "public",
        params: {
          tenantId: { type: "number", integer: true, positive: true },
          channelType: { type: "string", min: 1, max: 40 },
          externalId: { type: "string", min: 1, max: 190 },
          name: { type: "string", optional: true, max: 200 },
          avatarUrl: { type: "string", optional: true, nullable: true, max: 2000 },
          phone: { type: "string", optional: true, max: 60 },
          validated: { type: "boolean", optional: true },
          previousExternalId: { type: "string", optional: true, min: 1, max: 190 },
          create: { type: "boolean", optional: true },
        },
        handler: applyChannelUpdate,
      },
      getInternal: {
        visibility: "public",
        params: { tenantId: "number", id: "number" },
        async handler(ctx: Ctx<{ tenantId: number; id: number }>) {
          const c = await ContactModel.findOne({ where: { id: ctx.params.id, tenantId: ctx.params.tenantId } });
          return c ? (await views(ctx, ctx.params.tenantId, [c], false))[0] : null;
        },
      },
      /** Name, number and picture of several contacts of one tenant (ticket lists); unknown ids are left out. */
      summaries: {
        visibility: "public",
        params: { tenantId: "number", ids: { type: "array", items: "number", max: 5000 } },
        async handler(ctx: Ctx<{ tenantId: number; ids: number[] }>) {
          if (!ctx.params.ids.length) return [];
          const rows = await ContactModel.findAll({
            where: { tenantId: ctx.params.tenantId, id: { [Op.in]: [...new Set(ctx.params.ids)] } },
            attributes: ["id", "name", "number", "profilePicUrl"],
          });
          return rows.map((r) => ({ id: r.get("id"), name: r.get("name"), number: r.get("number") ?? null, profilePicUrl: r.get("profilePicUrl") ?? null }));
        },
      },
      /** Ids of the tenant's contacts whose name, e-mail or number contains `q` (ticket search). */
      searchIds: {
        visibility: "public",
        params: { tenantId: "number", q: { type: "string", min: 1, max: 120 }, limit: { type: "number", integer: true, min: 1, max: 1000, optional: true } },
        async handler(ctx: Ctx<{ tenantId: number; q: string; limit?: number }>) {
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
      /**
       * The address a channel of `channelType` reaches the contact at: the identity that channel
       * reported (newest first), else the e-mail for e-mail channels and the number for the others.
       */
      identityFor: {
        visibility: "public",
        params: { tenantId: "number", contactId: "number", channelType: { type: "string", min: 1, max: 40 } },
        async handler(ctx: Ctx<{ tenantId: number; contactId: number; channelType: string }>): Promise<string | null> {
          const { tenantId, contactId, channelType } = ctx.params;
          const ident = await ContactIdentity.findOne({ where: { tenantId, contactId, channelType }, order: [["id", "DESC"]] });
          if (ident) return ident.get("externalId") as string;
          const c = await ContactModel.findOne({ where: { tenantId, id: contactId }, attributes: ["number", "email"] });
          if (!c) return null;
          return ((/mail/i.test(channelType) ? c.get("email") : c.get("number")) as string | null) ?? null;
        },
      },
      count: {
        visibility: "public",
        params: { tenantId: "number" },
        handler(ctx: Ctx<{ tenantId: number }>) {
          return ContactModel.count({ where: { tenantId: ctx.params.tenantId } });
        },
      },
      countByTag: {
        visibility: "public",
        params: { tenantId: "number", tagId: "number" },
        handler(ctx: Ctx<{ tenantId: number; tagId: number }>) {
          return ContactTag.count({ where: { tenantId: ctx.params.tenantId, tagId: ctx.params.tagId } });
        },
      },
      detachTag: {
        visibility: "public",
        params: { tenantId: "number", tagId: "number" },
        handler(ctx: Ctx<{ tenantId: number; tagId: number }>) {
          return ContactTag.destroy({ where: { tenantId: ctx.params.tenantId, tagId: ctx.params.tagId } });
        },
      },
    },
  };
}
