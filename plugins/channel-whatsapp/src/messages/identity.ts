/**
 * Who a message is from, with LIDs resolved. A 7.x key names a person by a LID or a phone
 * JID, often with the other one beside it (remoteJidAlt for 1:1 chats, participantAlt in
 * groups), in either order. When both are there the pair is remembered; when only the LID is,
 * the directory is asked for its phone. A LID whose phone is unknown stays a LID identity
 * ("<lid>@lid"); the first time its phone is learnt the caller tells the core to merge that
 * identity into the phone one (a `contact` action with previousExternalId).
 *
 * Directory errors propagate: answering "unknown" on a failed look-up would file the message
 * under a LID contact that no later merge would ever fold back (the mapping already exists).
 */
import { baileys } from "../session/baileys";
import type { NormaliseContext } from "../ports";
import { externalIdOf, isMe, phoneDigitsOf } from "./jids";

export interface Person {
  externalId: string;
  /** Digits with country code, when the phone number is known. */
  phone?: string;
}

/** A LID whose phone number was learnt just now. */
export interface LearntMapping {
  lidExternalId: string;
  phone: string;
}

export interface ResolvedPerson {
  person: Person;
  learnt?: LearntMapping;
}

export async function resolvePerson(ctx: NormaliseContext, jid: string, alt?: string | null): Promise<ResolvedPerson> {
  const { isLidUser, isPnUser, jidNormalizedUser } = baileys();
  const main = jidNormalizedUser(jid) || jid;
  // A key's alt can name the account itself (the sender of a phone-sent message): never pair
  // someone else's identity with ours.
  const altJid = alt ? jidNormalizedUser(alt) : undefined;
  const other = altJid && isMe(ctx.session, altJid) === isMe(ctx.session, main) ? altJid : undefined;

  let pn = isPnUser(main) ? main : other && isPnUser(other) ? other : undefined;
  const lid = isLidUser(main) ? main : other && isLidUser(other) ? other : undefined;
  let learnt: LearntMapping | undefined;

  if (lid && pn) {
    if (!isMe(ctx.session, lid) && (await ctx.lids.remember(lid, pn))) {
      const phone = phoneDigitsOf(pn);
      if (phone) learnt = { lidExternalId: externalIdOf(lid), phone };
    }
  } else if (lid) {
    const known = await ctx.lids.phoneOf(lid);
    if (known && isPnUser(jidNormalizedUser(known))) pn = jidNormalizedUser(known);
  }

  const phone = phoneDigitsOf(pn);
  if (phone) return { person: { externalId: phone, phone }, ...(learnt ? { learnt } : {}) };
  return { person: { externalId: externalIdOf(lid ?? main) } };
}
