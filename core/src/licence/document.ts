/**
 * Brazilian taxpayer documents: CPF (people, 11 digits) and CNPJ (companies, 14 digits).
 * Formatting (dots, slashes, dashes, spaces) is ignored; only the digits count.
 * Used for licences and for contacts.
 */

/**
 * Digits only, e.g. "11.222.333/0001-81" → "11222333000181". Non-strings give "" (numbers are
 * refused on purpose: they lose leading zeros).
 */
export function normaliseDocument(raw: unknown): string {
  return typeof raw === "string" ? raw.replace(/\D/g, "") : "";
}

function allSameDigit(digits: string): boolean {
  return /^(\d)\1*$/.test(digits);
}

/** Check digit of the mod-11 scheme shared by CPF and CNPJ: remainder < 2 → 0, else 11 − remainder. */
function mod11Digit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += Number(digits[i]) * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_W1 = [10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CPF_W2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Valid CPF: 11 digits after stripping formatting, not all the same digit, both check digits right. */
export function isValidCpf(raw: unknown): boolean {
  const d = normaliseDocument(raw);
  if (d.length !== 11 || allSameDigit(d)) return false;
  return mod11Digit(d, CPF_W1) === Number(d[9]) && mod11Digit(d, CPF_W2) === Number(d[10]);
}

/** Valid CNPJ: 14 digits after stripping formatting, not all the same digit, both check digits right. */
export function isValidCnpj(raw: unknown): boolean {
  const d = normaliseDocument(raw);
  if (d.length !== 14 || allSameDigit(d)) return false;
  return mod11Digit(d, CNPJ_W1) === Number(d[12]) && mod11Digit(d, CNPJ_W2) === Number(d[13]);
}

/** True for a valid CPF or a valid CNPJ (formatting ignored). */
export function isValidDocument(raw: unknown): boolean {
  const d = normaliseDocument(raw);
  if (d.length === 11) return isValidCpf(d);
  if (d.length === 14) return isValidCnpj(d);
  return false;
}
