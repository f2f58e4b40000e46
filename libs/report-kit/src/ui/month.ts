/** The current month's first and last day in the browser's zone ("YYYY-MM-DD"): a report page's default period. */
export function monthOf(now = new Date()): { from: string; to: string } {
  const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  return { from: iso(new Date(now.getFullYear(), now.getMonth(), 1)), to: iso(new Date(now.getFullYear(), now.getMonth() + 1, 0)) };
}

/** The browser's IANA zone, sent as `tz` so the period is the reader's. */
export const readerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
