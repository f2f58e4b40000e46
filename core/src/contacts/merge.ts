import { Op, Sequelize, Transaction } from "sequelize";
import type { ServiceBroker } from "moleculer";
import { FILLABLE_CONTACT_FIELDS } from "@openatende/contracts/contact-fields";
import type { Ctx } from "../types";
import { call, emit } from "../bus/call";
import type { ContactModels, ContactRow } from "./models";
import { numberMatchKey } from "./phone";

/** Whether the tickets service (which owns tickets) is there to answer `action`. */
export function ticketsAction(broker: ServiceBroker, action: string): boolean {
  const registry = broker.registry as unknown as { hasService(name: string): boolean; actions: { isAvailable(name: string): boolean } };
  return registry.hasService("tickets") && registry.actions.isAvailable(`tickets.${action}`);
}

/**
 * Merging contacts into one, the one way every merge goes (the duplicates clean-up of spec §5
 * and a channel learning that two of its ids are one person): the duplicates' tickets and
 * messages move to the kept contact (the tickets service does that), then their tags,
 * wallet, notes and channel identities; the kept contact takes what it lacks from them,
 * oldest first; they are removed, and `contacts.merged` tells every node (inbound caches).
 */
export function contactMerger(sequelize: Sequelize, models: ContactModels) {
  const { Contact, ContactIdentity, ContactTag, ContactWallet, ContactNote } = models;

  /** Removes a contact and everything that hangs on it (explicitly: SQLite's foreign keys are per connection). */
  async function destroyContact(contactId: number, transaction: Transaction) {
    await ContactTag.destroy({ where: { contactId }, transaction });
    await ContactWallet.destroy({ where: { contactId }, transaction });
    await ContactNote.destroy({ where: { contactId }, transaction });
    await ContactIdentity.destroy({ where: { contactId }, transaction });
    await Contact.destroy({ where: { id: contactId }, transaction });
  }

  /**
   * Merges `candidateIds` into `keepId`, all of tenant `tenantId`. A candidate whose tickets
   * cannot be moved here (no tickets service that moves them) is left alone rather than
   * orphaning them: it is counted in `skipped`.
   */
  async function mergeInto(ctx: Ctx, tenantId: number, keepId: number, candidateIds: number[]): Promise<{ removedIds: number[]; skipped: number }> {
    const canMove = ticketsAction(ctx.broker, "moveContact");
    const canCount = ticketsAction(ctx.broker, "countForContact");
    const dupIds: number[] = [];
    let skipped = 0;
    for (const id of candidateIds) {
      if (id === keepId) continue;
      if (canMove) await call(ctx, "tickets.moveContact", { tenantId, fromContactId: id, toContactId: keepId });
      else if (canCount && (await call(ctx, "tickets.countForContact", { tenantId, contactId: id })) > 0) {
        skipped++;
        continue;
      }
      dupIds.push(id);
    }
    if (!dupIds.length) return { removedIds: [], skipped };
    let removedIds: number[] = [];
    await sequelize.transaction(async (transaction) => {
      const keeper = await Contact.findOne({ where: { id: keepId, tenantId }, transaction });
      const dups = await Contact.findAll({ where: { id: { [Op.in]: dupIds }, tenantId }, order: [["createdAt", "ASC"], ["id", "ASC"]], transaction });
      if (!keeper || !dups.length) return;
      const ids = dups.map((d) => d.get("id") as number);
      const tags = await ContactTag.findAll({ where: { contactId: { [Op.in]: ids } }, transaction });
      if (tags.length) await ContactTag.bulkCreate(tags.map((t) => ({ tenantId, contactId: keepId, tagId: t.get("tagId") as number })), { transaction, ignoreDuplicates: true });
      const wallet = await ContactWallet.findAll({ where: { contactId: { [Op.in]: ids } }, transaction });
      if (wallet.length) await ContactWallet.bulkCreate(wallet.map((w) => ({ tenantId, contactId: keepId, userId: w.get("userId") as number })), { transaction, ignoreDuplicates: true });
      await ContactNote.update({ contactId: keepId }, { where: { contactId: { [Op.in]: ids } }, transaction });
      await ContactIdentity.update({ contactId: keepId }, { where: { contactId: { [Op.in]: ids } }, transaction });
      const k = keeper.get({ plain: true }) as ContactRow;
      const patch: Partial<ContactRow> = {};
      const info = [...(k.additionalInfo ?? [])];
      let number: string | null = k.number;
      for (const d of dups) {
        const r = d.get({ plain: true }) as ContactRow;
        for (const f of FILLABLE_CONTACT_FIELDS) if ((k[f] === null || k[f] === undefined) && patch[f] == null && r[f] != null) (patch as Record<string, unknown>)[f] = r[f];
        if (!number && r.number) number = r.number;
        if (r.whatsappValidated && !k.whatsappValidated) patch.whatsappValidated = true;
        for (const item of r.additionalInfo ?? []) {
          if (!info.some((x) => x.description === item.description && x.info === item.info)) info.push(item);
        }
      }
      if (info.length !== (k.additionalInfo ?? []).length) patch.additionalInfo = info.slice(0, 50);
      // The duplicates go first: the number a kept contact takes over is then free.
      for (const id of ids) await destroyContact(id, transaction);
      if (number !== k.number) patch.number = number;
      if (Object.keys(patch).length) await keeper.update(patch, { transaction });
      removedIds = ids;
    });
    if (removedIds.length) emit(ctx, "contacts.merged", { tenantId, keptId: keepId, removedIds });
    return { removedIds, skipped };
  }

  /**
   * POST /contacts/delete-duplicates (spec §5): the tenant's contacts that share a number
   * (by its match key) or an e-mail, directly or through each other, become one: the oldest.
   */
  async function mergeDuplicates(ctx: Ctx, tenantId: number): Promise<{ removed: number; merged: number; skipped: number }> {
    type Slim = { id: number; number: string | null; email: string | null; createdAt: Date };
    const all: Slim[] = [];
    for (let last = 0; ; ) {
      const page = await Contact.findAll({
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
      const r = await mergeInto(ctx, tenantId, keep.id, rest.map((d) => d.id));
      skipped += r.skipped;
      if (!r.removedIds.length) continue;
      removed += r.removedIds.length;
      merged++;
    }
    return { removed, merged, skipped };
  }

  return { destroyContact, mergeInto, mergeDuplicates };
}
