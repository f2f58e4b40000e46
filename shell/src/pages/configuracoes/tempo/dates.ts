/** Holiday dates as the Brazilian types and reads them ("25/12/2026"); the API's are "YYYY-MM-DD". */

/** What was typed as "dd/mm/aaaa": digits only, the slashes put in ("25122026" → "25/12/2026"). */
export function asDate(typed: string): string {
  const d = typed.replace(/\D/g, "").slice(0, 8);
  return [d.slice(0, 2), d.slice(2, 4), d.slice(4)].filter(Boolean).join("/");
}

/** "dd/mm/aaaa" naming a real day → "YYYY-MM-DD", else null. */
export function isoOf(ddmmyyyy: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(ddmmyyyy ?? "");
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/** "YYYY-MM-DD" → "dd/mm/aaaa". */
export const brDate = (iso: string) => (iso ? iso.split("-").reverse().join("/") : "");
