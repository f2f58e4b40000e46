import { randomBytes } from "node:crypto";
import { UniqueConstraintError } from "sequelize";
import { AppError } from "../errors/app-error";
import { TtlCache } from "../lib/ttl-cache";
import { hotQuery } from "../db/sql";
import type { Ctx } from "../types";
import { emit, type ParamsOf } from "../bus/call";
import type { Contact } from "./models";
import { avatarOf, channelContactUpdates } from "./channel-update";
import { normaliseContactFields } from "./fields";
import { lenientContactNumber } from "./phone";
import type { ContactsKit } from "./views";
import type { InboundContact, InboundParams, ResolvedInbound } from "./contract";

export type { InboundParams };

/** A contact card stays this long at most in a process's cache (a safety net: changes drop it at once). */
const CARD_TTL_MS = 5000;

/**
 * Who a channel's message is from: the contact of a channel identity (WhatsApp JID, Telegram
 * id, e-mail address, …), found or created race-safely, the address a channel reaches a
 * contact at, and what a channel learns of its contacts (contacts/channel-update.ts).
 */
export function inboundIdentities(kit: ContactsKit) {
  const { deps, models } = kit;
  const { Contact: ContactModel, ContactIdentity } = models;

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
  async function resolveInbound(ctx: Ctx<InboundParams>): Promise<ResolvedInbound> {
    try {
      return await resolveIdentity(ctx);
    } finally {
      // What it wrote (a picture, a new or re-made contact) is what the next card read sees.
      cards.dropKey(cardKey(ctx.params.tenantId, ctx.params.channelType, ctx.params.externalId));
    }
  }

  async function resolveIdentity(ctx: Ctx<InboundParams>): Promise<ResolvedInbound> {
    const { tenantId, channelType, externalId, slim } = ctx.params;
    const key = { tenantId, channelType, externalId };
    const number = ctx.params.phone ? lenientContactNumber(ctx.params.phone) : null;
    const email = (() => {
      const r = normaliseContactFields({ email: ctx.params.email ?? null }, { requireName: false });
      return r.errors.length ? null : (r.value.email ?? null);
    })();
    const avatar = avatarOf(ctx.params.avatarUrl);
    const answer = async (c: Contact, created: boolean): Promise<ResolvedInbound> => {
      if (!created && avatar && c.get("profilePicUrl") !== avatar) await c.update({ profilePicUrl: avatar });
      if (created) emit(ctx, "contacts.created", { tenantId, contactId: c.get("id") as number, source: channelType });
      if (slim) return { id: c.get("id") as number, name: c.get("name") as string, profilePicUrl: (c.get("profilePicUrl") as string | null) ?? null, created };
      return { ...(await kit.views.viewOf(ctx, tenantId, c, false)), created };
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
  async function findInbound(ctx: Ctx<ParamsOf<"contacts.findInbound">>): Promise<InboundContact | null> {
    const { tenantId, channelType, externalId } = ctx.params;
    const c = await cards.get(cardKey(tenantId, channelType, externalId), async () => (await identityOf(tenantId, channelType, externalId))?.contact ?? null);
    if (!c) return null;
    const avatar = avatarOf(ctx.params.avatarUrl);
    return avatar && c.profilePicUrl !== avatar ? null : { ...c };
  }

  /**
   * The address a channel of `channelType` reaches the contact at: the identity that channel
   * reported (newest first), else the e-mail for e-mail channels and the number for the others.
   */
  async function identityFor(ctx: Ctx<ParamsOf<"contacts.identityFor">>): Promise<string | null> {
    const { tenantId, contactId, channelType } = ctx.params;
    // Every send asks: one plain statement.
    const { rows } = await hotQuery<{ externalId: string }>(
      deps.sequelize,
      "select",
      "SELECT externalId FROM contact_identities WHERE tenantId = ? AND contactId = ? AND channelType = ? ORDER BY id DESC LIMIT 1",
      [tenantId, contactId, channelType],
    );
    if (rows[0]) return String(rows[0].externalId);
    const c = await ContactModel.findOne({ where: { tenantId, id: contactId }, attributes: ["number", "email"] });
    if (!c) return null;
    return ((/mail/i.test(channelType) ? c.get("email") : c.get("number")) as string | null) ?? null;
  }

  /** channels.contact: what a channel learnt of a contact (see contacts/channel-update.ts). */
  const applyChannelUpdate = channelContactUpdates({
    sequelize: deps.sequelize,
    models,
    merger: kit.merger,
    identityOf,
    forget: (tenantId, channelType, externalIds) => externalIds.forEach((id) => cards.dropKey(cardKey(tenantId, channelType, id))),
  });

  /** A contact changed somewhere: the cards go (each node hears it: a group of its own). */
  const cardEvents = Object.fromEntries(
    ["contacts.updated", "contacts.deleted", "contacts.merged"].map((name) => [name, { group: cardsGroup, handler: () => cards.drop() }]),
  );

  return { resolveInbound, findInbound, identityFor, applyChannelUpdate, cardEvents };
}
