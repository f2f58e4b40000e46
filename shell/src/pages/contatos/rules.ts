/**
 * The contact rules of spec §5 checked in the browser before the API (which normalises and
 * decides): CPF/CNPJ check digits, a phone with country and area code, e-mail, birthday.
 */

const digitsOf = (s: string) => s.replace(/\D/g, "");

function mod11(d: string, weights: number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(d[i]) * weights[i];
  const r = sum % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A valid CPF (11 digits) or CNPJ (14 digits); dots, slashes and dashes are ignored. */
export function isValidDocument(raw: string): boolean {
  const d = digitsOf(raw);
  if (/^(\d)\1*$/.test(d)) return false;
  if (d.length === 11) return mod11(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[9]) && mod11(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[10]);
  if (d.length === 14) {
    return mod11(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[12]) && mod11(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === Number(d[13]);
  }
  return false;
}

/** "12345678909" → "123.456.789-09"; "11222333000181" → "11.222.333/0001-81"; anything else as given. */
export function formatDocument(raw: string | null | undefined): string {
  const d = digitsOf(raw ?? "");
  if (d.length === 11) return d.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4");
  if (d.length === 14) return d.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, "$1.$2.$3/$4-$5");
  return raw ?? "";
}

/**
 * Looks like a phone number the API can take: no letters, 10 to 15 digits (a Brazilian
 * number without the country code has 10 or 11; the API adds 55 and checks the rest).
 */
export function looksLikePhone(raw: string): boolean {
  if (/\p{L}/u.test(raw)) return false;
  const n = digitsOf(raw).length;
  return n >= 10 && n <= 15;
}

/** Stored E.164 digits shown the way people read them: "5511988887777" → "+55 11 98888-7777". */
export function formatPhone(stored: string | null | undefined): string {
  if (!stored) return "";
  const d = digitsOf(stored);
  let m = /^55(\d{2})(9\d{4})(\d{4})$/.exec(d);
  if (m) return `+55 ${m[1]} ${m[2]}-${m[3]}`;
  m = /^55(\d{2})(\d{4})(\d{4})$/.exec(d);
  if (m) return `+55 ${m[1]} ${m[2]}-${m[3]}`;
  return `+${d}`;
}

export const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

/** Today as YYYY-MM-DD in the browser's time zone (the birthday input's maximum). */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** A birthday "YYYY-MM-DD" shown as a local date. */
export function formatBirthday(v: string | null | undefined, locale: string): string {
  if (!v) return "";
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(v);
  if (!m) return v;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).toLocaleDateString(locale);
}
