/**
 * The form's dates as people type them (spec §2: day/month/year hour:minute), read and written
 * in the browser's time zone, whatever the interface language.
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

/** "25/12/2026" → the last minute of that day (an end date includes its day); null when not a real date. */
export function parseDateEnd(text: string): number | null {
  return parseDateTime(`${text.trim()} 23:59`);
}

const pad = (n: number) => String(n).padStart(2, "0");

export function formatDateTime(t: number | string): string {
  const d = new Date(t);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function formatDate(t: number | string): string {
  return formatDateTime(t).slice(0, 10);
}

/** What the user typed so far, kept to the dd/mm/yyyy hh:mm shape (digits only, separators added). */
export function maskDateTime(text: string, withTime = true): string {
  const digits = text.replace(/\D/g, "").slice(0, withTime ? 12 : 8);
  const parts = [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4, 8), digits.slice(8, 10), digits.slice(10, 12)];
  let out = parts[0];
  if (digits.length > 2) out += `/${parts[1]}`;
  if (digits.length > 4) out += `/${parts[2]}`;
  if (digits.length > 8) out += ` ${parts[3]}`;
  if (digits.length > 10) out += `:${parts[4]}`;
  return out;
}

/** The browser's IANA time zone (what a recurrence keeps its wall-clock time in). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "America/Sao_Paulo";
  } catch {
    return "America/Sao_Paulo";
  }
}
