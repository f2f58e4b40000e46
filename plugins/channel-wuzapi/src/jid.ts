/**
 * WhatsApp addresses (JIDs) as whatsmeow writes them in wuzapi's events: "<user>@<server>",
 * a device suffix on senders ("5511988887777:12@s.whatsapp.net", "…​.0:12@…"), groups on
 * "g.us", hidden-number users on "lid", status updates on "broadcast", channels on "newsletter".
 */

export const USER_SERVER = "s.whatsapp.net";

/** The JID without its device part; "" for an empty or malformed one. */
export function bareJid(jid: unknown): string {
  if (typeof jid !== "string") return "";
  const at = jid.indexOf("@");
  if (at <= 0) return "";
  const user = jid.slice(0, at).split(":")[0].split(".")[0];
  const server = jid.slice(at + 1);
  return user && server ? `${user}@${server}` : "";
}

export function serverOf(jid: string): string {
  const at = jid.indexOf("@");
  return at >= 0 ? jid.slice(at + 1) : "";
}

/** The phone number (digits) of a phone-number JID; undefined for groups, LIDs and the like. */
export function phoneOf(jid: string): string | undefined {
  const s = serverOf(jid);
  if (s !== USER_SERVER && s !== "c.us") return undefined;
  const user = jid.slice(0, jid.indexOf("@"));
  return /^\d{6,20}$/.test(user) ? user : undefined;
}

export const isGroupJid = (jid: string) => serverOf(jid) === "g.us";
/** Status updates, broadcast lists and channels: not a conversation with a customer. */
export const isNotAChat = (jid: string) => ["broadcast", "newsletter"].includes(serverOf(jid));

/** A recipient as wuzapi's `Phone` takes it: a JID, or the digits of a number ("+55 (11) 9…" → "5511…@s.whatsapp.net"). */
export function recipientJid(externalId: string): string | null {
  const t = externalId.trim();
  if (t.includes("@")) return bareJid(t) || null;
  const digits = t.replace(/[\s()+.-]/g, "");
  return /^\d{6,20}$/.test(digits) ? `${digits}@${USER_SERVER}` : null;
}
