/**
 * Contact sync: what WhatsApp tells of people (contacts.upsert / contacts.update, and the
 * contacts of the history a new device receives) as the core's contact changes. The name is
 * the one saved in the phone's address book, else the business' verified name, else the one
 * the person chose. A contact that names both its LID and its phone teaches that mapping (and,
 * when it is new, merges the LID contact into the phone one, as messages do).
 *
 * Pictures: a URL or null (none set) is passed on; "changed" is listed in `avatarsChanged`
 * so the caller can drop its cached picture and fetch the new one.
 */
import type { Contact } from "@whiskeysockets/baileys";
import { baileys } from "../session/baileys";
import type { ConnectionRef, ContactUpdateEvent } from "@openatende/plugin-sdk";
import type { ImportSettings, LidDirectory, SessionPort } from "../ports";
import { externalIdOf, isMe, phoneDigitsOf } from "../messages/jids";

export interface ContactSyncOptions {
  lids?: LidDirectory;
  /** Leaves the account's own contact out. */
  session?: SessionPort;
}

export interface ContactSync {
  events: ContactUpdateEvent[];
  /** Identities whose picture changed (contacts.update imgUrl "changed"). */
  avatarsChanged: string[];
}

const nameOf = (...names: Array<string | null | undefined>) => names.map((n) => (typeof n === "string" ? n.trim() : "")).find(Boolean);

export async function contactUpdates(ref: ConnectionRef, contacts: Array<Partial<Contact>>, opts: ContactSyncOptions = {}): Promise<ContactSync> {
  const { isJidBroadcast, isJidGroup, isJidNewsletter, isLidUser, isPnUser, jidNormalizedUser } = baileys();
  const events: ContactUpdateEvent[] = [];
  const avatarsChanged: string[] = [];
  for (const c of contacts ?? []) {
    if (!c?.id) continue;
    const id = jidNormalizedUser(c.id) || c.id;
    if (isJidGroup(id) || isJidBroadcast(id) || isJidNewsletter(id)) continue;
    if (opts.session && isMe(opts.session, id)) continue;

    const jids = [id, c.phoneNumber, c.lid].filter((j): j is string => !!j).map((j) => jidNormalizedUser(j));
    let pn = jids.find((j) => isPnUser(j));
    const lid = jids.find((j) => isLidUser(j));
    let previousExternalId: string | undefined;
    if (pn && lid && opts.lids) {
      if (await opts.lids.remember(lid, pn)) previousExternalId = externalIdOf(lid);
    } else if (!pn && lid && opts.lids) {
      const known = await opts.lids.phoneOf(lid);
      if (known && isPnUser(jidNormalizedUser(known))) pn = jidNormalizedUser(known);
    }
    const phone = phoneDigitsOf(pn);
    const externalId = phone ?? externalIdOf(lid ?? id);

    const evt: ContactUpdateEvent = { ...ref, externalId };
    const name = nameOf(c.name, c.verifiedName, c.notify);
    if (name) evt.name = name;
    if (phone) evt.phone = phone;
    if (previousExternalId) evt.previousExternalId = previousExternalId;
    if (c.imgUrl === "changed") avatarsChanged.push(externalId);
    else if (c.imgUrl === null) evt.avatarUrl = null;
    else if (typeof c.imgUrl === "string" && /^https?:\/\//.test(c.imgUrl)) evt.avatarUrl = c.imgUrl;

    // Nothing learnt beyond the identity itself: no event.
    if (evt.name || evt.previousExternalId || evt.avatarUrl !== undefined) events.push(evt);
  }
  return { events, avatarsChanged };
}

/**
 * Contacts of the history a new device receives: imported only when the import settings ask
 * for contacts, and then made in the core even when they never wrote (`create`); live
 * contact updates only touch contacts the core already has.
 */
export async function historyContactUpdates(ref: ConnectionRef, contacts: Array<Partial<Contact>>, settings: ImportSettings | undefined, opts: ContactSyncOptions = {}): Promise<ContactSync> {
  if (!settings?.contacts) return { events: [], avatarsChanged: [] };
  const sync = await contactUpdates(ref, contacts, opts);
  return { ...sync, events: sync.events.map((e) => ({ ...e, create: true })) };
}
