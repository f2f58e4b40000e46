/**
 * The form's dates as people type them (day/month/year hour:minute), read and written in the
 * browser's time zone, whatever the interface language.
 */

/** "25/12/2026 09:30" → epoch ms; null when it is not a real date and time. */
export function parseDateTime(text: string): number | null {
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s+(\d{1,2}):(\d{2})\s*$/.exec(text);
  if (!m) return null;
  const [d, mo, y, h, min] = m.slice(1).map(Number);
  const t = new Date(y, mo - 1, d, h, min);
  if (t.getFullYear() !== y || t.getMonth() !== mo - 1 || t.getDate() !== d || h > 23 || min > 59 || t.getHours() !== h) return null;
  return t.getTime();
}

const pad = (n: number) => String(n).padStart(2, "0");

export function formatDateTime(t: number | string | Date): string {
  const d = new Date(t);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What the user typed so far, kept to the dd/mm/yyyy hh:mm shape (digits only, separators added). */
export function maskDateTime(text: string): string {
  const digits = text.replace(/\D/g, "").slice(0, 12);
  let out = digits.slice(0, 2);
  if (digits.length > 2) out += `/${digits.slice(2, 4)}`;
  if (digits.length > 4) out += `/${digits.slice(4, 8)}`;
  if (digits.length > 8) out += ` ${digits.slice(8, 10)}`;
  if (digits.length > 10) out += `:${digits.slice(10, 12)}`;
  return out;
}
