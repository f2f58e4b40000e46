import { Sequelize, UniqueConstraintError } from "sequelize";
import type { ContactUpdateResult } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { call, emit } from "../bus/call";
import type { ChannelContactUpdate } from "./contract";
import type { ContactModels, ContactRow } from "./models";
import type { contactMerger } from "./merge";
import { lenientContactNumber } from "./phone";

/** A picture URL a channel reported, kept only when it is a plain http(s) URL that fits. */
export const avatarOf = (url: string | null | undefined): string | null => (url && url.length <= 1000 && /^https?:\/\/\S+$/i.test(url) ? url : null);

/**
 * Whether a contact's name is still what the platform wrote when it knew nothing better (its
 * number, its id on a channel: "5511988887777", "+55 11 98888-7777", "123@lid"), rather than a
 * name someone gave it. Only such a name is replaced by the name a channel reports.
 */
export function isRawName(name: string | null | undefined, ids: Array<string | null | undefined>): boolean {
  const t = (name ?? "").trim();
  if (!t) return true;
  const known = ids.filter((x): x is string => !!x);
  if (known.includes(t)) return true;
  if (/\p{L}/u.test(t)) return false;
  const digits = t.replace(/\D/g, "");
  return !!digits && known.some((id) => id.split("@")[0].replace(/\D/g, "") === digits);
}

export type { ChannelContactUpdate };

type Identity = { identityId: number; contact: { id: number; name: string } | null } | undefined;

interface Deps {
  sequelize: Sequelize;
  models: ContactModels;
  merger: ReturnType<typeof contactMerger>;
  identityOf(tenantId: number, channelType: string, externalId: string): Promise<Identity>;
  /** Forgets this process's cards of these identities (every node also hears the events). */
  forget(tenantId: number, channelType: string, externalIds: string[]): void;
}

/**
 * What a channel learnt of one of its contacts (channels.contact), applied to the tenant's
 * contact of that identity. With `previousExternalId` the two ids are one person: the contact
 * of the previous id is merged into the contact of this one (the contacts merge, tickets and
 * messages included), or, when this id is new, takes it. The previous id stays an alias of
 * the contact, so a late message addressed to it still lands there; this id becomes the
 * contact's newest identity, which is the address outgoing messages use (identityFor).
 * Every step looks first and writes only what differs: a repeated update changes nothing.
 */
export function channelContactUpdates(d: Deps) {
  const { Contact, ContactIdentity } = d.models;

  /** Makes `externalId` the newest identity of its contact on the channel (re-registered in one transaction). */
  async function makeNewest(tenantId: number, channelType: string, externalId: string, contactId: number) {
    const mine = await ContactIdentity.findAll({ where: { tenantId, channelType, contactId }, attributes: ["id", "externalId"], order: [["id", "DESC"]] });
    if (!mine.length || mine[0].get("externalId") === externalId) return;
    await d.sequelize.transaction(async (transaction) => {
      await ContactIdentity.destroy({ where: { tenantId, channelType, externalId }, transaction });
      await ContactIdentity.create({ tenantId, channelType, externalId, contactId }, { transaction });
    });
  }

  /** The contact of the two ids once they are one; null when neither is known. */
  async function join(ctx: Ctx, p: ChannelContactUpdate, target: Identity, prev: Identity): Promise<{ contactId: number; merged: boolean; prevName?: string } | null> {
    const { tenantId, channelType, externalId } = p;
    const from = prev?.contact;
    if (!from) return null;
    let to = target?.contact ?? null;
    if (!to && p.phone) {
      // Someone already has this number (typed by an agent, or met on another channel): that is the person.
      const number = lenientContactNumber(p.phone);
      const owner = number ? await Contact.findOne({ where: { tenantId, number }, attributes: ["id", "name"] }) : null;
      if (owner) to = { id: owner.get("id") as number, name: owner.get("name") as string };
    }
    if (!to) {
      if (target) {
        // A left-over identity of a removed contact: it now names this one.
        await ContactIdentity.update({ contactId: from.id }, { where: { id: target.identityId, tenantId } });
        return { contactId: from.id, merged: false };
      }
      try {
        await ContactIdentity.create({ tenantId, channelType, externalId, contactId: from.id });
      } catch (err) {
        // This id was met meanwhile (a message just arrived on it): merge into that contact instead.
        if (!(err instanceof UniqueConstraintError)) throw err;
        const again = await d.identityOf(tenantId, channelType, externalId);
        if (!again?.contact) throw new AppError("ERR_CONFLICT", { field: "externalId" });
        return join(ctx, p, again, prev);
      }
      return { contactId: from.id, merged: false };
    }
    let merged = false;
    if (to.id !== from.id) merged = (await d.merger.mergeInto(ctx, tenantId, to.id, [from.id])).removedIds.length > 0;
    if (!target?.contact) {
      await ContactIdentity.destroy({ where: { tenantId, channelType, externalId } }); // a left-over of a removed contact
      await ContactIdentity.create({ tenantId, channelType, externalId, contactId: to.id });
    } else await makeNewest(tenantId, channelType, externalId, to.id);
    return { contactId: to.id, merged, prevName: merged ? from.name : undefined };
  }

  /** The fields that change, given what the contact is now. */
  function patchOf(c: ContactRow, p: ChannelContactUpdate, prevName?: string): Partial<ContactRow> {
    const patch: Partial<ContactRow> = {};
    const raw = isRawName(c.name, [p.externalId, p.previousExternalId, c.number, p.phone]);
    const name = p.name?.trim().slice(0, 200);
    if (raw && name && name !== c.name) patch.name = name;
    else if (raw && prevName && !isRawName(prevName, [p.externalId, p.previousExternalId, c.number, p.phone])) patch.name = prevName;
    if (p.avatarUrl === null && c.profilePicUrl !== null) patch.profilePicUrl = null;
    else if (p.avatarUrl) {
      const avatar = avatarOf(p.avatarUrl);
      if (avatar && avatar !== c.profilePicUrl) patch.profilePicUrl = avatar;
    }
    if (p.validated !== undefined && !!c.whatsappValidated !== p.validated) patch.whatsappValidated = p.validated;
    if (!c.number && p.phone) {
      const number = lenientContactNumber(p.phone);
      if (number) patch.number = number;
    }
    return patch;
  }

  return async function applyChannelUpdate(ctx: Ctx<ChannelContactUpdate>): Promise<ContactUpdateResult> {
    const p = ctx.params;
    const { tenantId, channelType, externalId } = p;
    try {
      const target = await d.identityOf(tenantId, channelType, externalId);
      const prev = p.previousExternalId && p.previousExternalId !== externalId ? await d.identityOf(tenantId, channelType, p.previousExternalId) : undefined;
      const joined = await join(ctx, p, target, prev);
      let contactId = joined?.contactId ?? target?.contact?.id ?? null;
      if (!contactId) {
        if (!p.create) return { applied: false };
        const made = await call(ctx, "contacts.resolveInbound", { tenantId, channelType, externalId, name: p.name, phone: p.phone, avatarUrl: p.avatarUrl ?? undefined, slim: true });
        contactId = made.id;
      }
      const c = await Contact.findOne({ where: { id: contactId, tenantId } });
      if (!c) return { applied: false };
      const patch = patchOf(c.get({ plain: true }) as ContactRow, p, joined?.prevName);
      if (Object.keys(patch).length) {
        try {
          await c.update(patch);
        } catch (err) {
          // The number is another contact's: everything else still applies.
          if (!(err instanceof UniqueConstraintError) || patch.number === undefined) throw err;
          await c.reload();
          delete patch.number;
          if (Object.keys(patch).length) await c.update(patch);
        }
      }
      if (Object.keys(patch).length || joined) emit(ctx, "contacts.updated", { tenantId, contactId });
      return { applied: true, contactId, merged: !!joined?.merged };
    } finally {
      d.forget(tenantId, channelType, [externalId, ...(p.previousExternalId ? [p.previousExternalId] : [])]);
    }
  };
}
