/**
 * "WhatsApp-validated" (spec §3 Contact): a number is asked on WhatsApp. An account there is
 * answered with the identity WhatsApp knows it by (which may differ from what was typed:
 * Brazilian mobiles with or without the ninth digit land on one account); a malformed number,
 * or one with no account, is the spec §8 "number invalid or not on WhatsApp" error.
 */
import type { ConnectionRef, ContactUpdateEvent } from "@openatende/plugin-sdk";
import type { SessionPort } from "../ports";
import { waError } from "../messages/errors";
import { phoneDigitsOf } from "../messages/jids";

export interface CheckedNumber {
  exists: true;
  /** The phone identity (digits) WhatsApp answered. */
  externalId: string;
  jid: string;
}

/** E.164 allows 15 digits; the shortest real numbers with a country code have 8. */
const PHONE = /^\d{8,15}$/;

export async function checkNumber(session: SessionPort, number: string): Promise<CheckedNumber> {
  const digits = String(number ?? "").replace(/[\s()+.-]/g, "");
  if (!PHONE.test(digits)) throw waError("ERR_CONTACT_NUMBER_INVALID", `"${number}" is not a phone number with country and area code`, { field: "number", value: number, reason: "invalid" });
  const answers = (await session.onWhatsApp(digits)) ?? [];
  const found = answers.find((a) => a?.exists && phoneDigitsOf(a.jid));
  if (!found) throw waError("ERR_CONTACT_NUMBER_INVALID", `${digits} has no WhatsApp account`, { field: "number", value: number, reason: "not-on-whatsapp" });
  const externalId = phoneDigitsOf(found.jid)!;
  return { exists: true, externalId, jid: `${externalId}@s.whatsapp.net` };
}

/** The check as the contact change the core records (validated, with the number WhatsApp knows). */
export async function validatedContact(session: SessionPort, ref: ConnectionRef, number: string): Promise<ContactUpdateEvent> {
  const c = await checkNumber(session, number);
  return { ...ref, externalId: c.externalId, phone: c.externalId, validated: true };
}
