import { parsePhoneNumberFromString, CountryCode } from "libphonenumber-js/max";

/** The country assumed for numbers typed without a country code (spec §5: "55 + area code + number"). */
export const DEFAULT_PHONE_COUNTRY: CountryCode = "BR";

export type PhoneResult = { ok: true; number: string | null } | { ok: false };

/**
 * A contact's number as E.164 digits without "+" ("(11) 98888-7777" → "5511988887777"),
 * validated with the full libphonenumber metadata. Tried first as typed (national numbers of
 * the default country, or international with "+"), then as international digits without the
 * "+" ("447911123456"). Empty input means "no number" (`number: null`).
 */
export function normaliseContactNumber(raw: unknown, country: CountryCode = DEFAULT_PHONE_COUNTRY): PhoneResult {
  if (raw === null || raw === undefined) return { ok: true, number: null };
  if (typeof raw !== "string" && typeof raw !== "number") return { ok: false };
  const text = String(raw).trim();
  if (!text) return { ok: true, number: null };
  // Letters (extensions, typos) are refused rather than silently dropped.
  if (text.length > 40 || !/\d/.test(text) || /\p{L}/u.test(text)) return { ok: false };
  const digits = text.replace(/\D/g, "");
  const tries = text.startsWith("+") ? [text] : [text, `+${digits}`];
  for (const candidate of tries) {
    const p = parsePhoneNumberFromString(candidate, country);
    if (p && p.isValid() && !p.ext) return { ok: true, number: p.number.slice(1) };
  }
  return { ok: false };
}

/**
 * A number a channel reported (inbound): the strict form when it is valid, else its digits
 * when they look like a phone number at all (8 to 15 digits) — a customer's message is never
 * refused because the network sent an unusual number. `null` when nothing usable.
 */
export function lenientContactNumber(raw: unknown): string | null {
  const strict = normaliseContactNumber(raw);
  if (strict.ok) return strict.number;
  // "5511988887777@s.whatsapp.net" and the like: the digits, validated when they can be.
  const digits = typeof raw === "string" || typeof raw === "number" ? String(raw).split("@")[0].replace(/\D/g, "") : "";
  const fromDigits = digits ? normaliseContactNumber(digits) : ({ ok: false } as const);
  if (fromDigits.ok && fromDigits.number) return fromDigits.number;
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/**
 * The key under which two numbers count as the same person when merging duplicates:
 * the normalised number, and for Brazilian mobiles the 9-digit form ("55 11 8888-7777" and
 * "55 11 98888-7777" are the same WhatsApp account, a leftover of the 2012–2016 migration).
 */
export function numberMatchKey(stored: string | null | undefined): string | null {
  if (!stored) return null;
  const r = normaliseContactNumber(/^\d+$/.test(stored) ? `+${stored}` : stored);
  const n = r.ok && r.number ? r.number : stored.replace(/\D/g, "");
  if (!n) return null;
  if (/^55\d{2}[6-9]\d{7}$/.test(n)) return `${n.slice(0, 4)}9${n.slice(4)}`;
  return n;
}
