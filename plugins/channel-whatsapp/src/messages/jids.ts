/**
 * Identities: how a WhatsApp JID becomes the contract's `externalId` and back.
 *
 *   phone-number user  5511988887777@s.whatsapp.net (or :device, @c.us) → "5511988887777"
 *   LID user, phone unknown   123456789012345@lid                       → "123456789012345@lid"
 *   group                     120363000000000001@g.us                   → "120363000000000001@g.us"
 *   anything else             its normalised JID
 *
 * Only a phone-number identity is bare digits, so the two kinds never collide, and a LID
 * contact merged later into its phone one names the LID identity exactly as it was stored
 * (`previousExternalId`). JIDs are compared through Baileys' own helpers (device and agent
 * parts and the c.us alias make raw strings unequal for the same user).
 */
import { baileys } from "../session/baileys";
import type { SessionPort } from "../ports";

const DIGITS = /^\d{5,20}$/;
/** Where a message can go: a person (by phone or LID) or a group. */
const SENDABLE_SERVERS = new Set(["s.whatsapp.net", "lid", "g.us"]);

/** The normalised JID's user part when it is a phone-number JID, else undefined. */
export function phoneDigitsOf(jid: string | null | undefined): string | undefined {
  if (!jid) return undefined;
  const n = baileys().jidNormalizedUser(jid);
  if (!baileys().isPnUser(n)) return undefined;
  const user = baileys().jidDecode(n)?.user;
  return user && DIGITS.test(user) ? user : undefined;
}

/** The contract identity of a JID (see the table above). */
export function externalIdOf(jid: string): string {
  const n = baileys().jidNormalizedUser(jid) || jid;
  return phoneDigitsOf(n) ?? n;
}

/**
 * The JID to send to for an identity: bare digits (a "+", spaces or dashes tolerated) are a
 * phone number; a JID (LID, group, phone) is kept, normalised. Undefined when it is neither.
 */
export function jidOfExternalId(externalId: string): string | undefined {
  const raw = (externalId ?? "").trim();
  if (!raw) return undefined;
  if (raw.includes("@")) {
    const n = baileys().jidNormalizedUser(raw);
    const d = baileys().jidDecode(n);
    return d?.user && SENDABLE_SERVERS.has(d.server) ? n : undefined;
  }
  const digits = raw.replace(/[\s()+.-]/g, "");
  return DIGITS.test(digits) ? `${digits}@s.whatsapp.net` : undefined;
}

export const isGroupJid = (jid: string | null | undefined): boolean => !!jid && !!baileys().isJidGroup(jid);
export const isLidJid = (jid: string | null | undefined): boolean => !!jid && !!baileys().isLidUser(baileys().jidNormalizedUser(jid));

/** True when the JID is the account itself (its phone JID or its LID). */
export function isMe(session: SessionPort, jid: string | null | undefined): boolean {
  if (!jid) return false;
  const me = session.me();
  if (!me) return false;
  return baileys().areJidsSameUser(jid, me.id) || (!!me.lid && baileys().areJidsSameUser(jid, me.lid));
}

/** A protobuf timestamp in seconds (number, Long, null) → ms since the epoch; `fallback` when absent. */
export function secondsToMs(t: unknown, fallback: number): number {
  const s = baileys().toNumber(t as number);
  return typeof s === "number" && Number.isFinite(s) && s > 0 ? Math.round(s * 1000) : fallback;
}

/** A protobuf timestamp already in ms (senderTimestampMs, timestampMs). */
export function msOf(t: unknown): number | undefined {
  const v = baileys().toNumber(t as number);
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : undefined;
}
