/**
 * Figures as a Brazilian reader writes them (spec: reports show numbers in the pt-BR format with
 * 2 to 3 decimals): "1.234,50", "87,5 %" → "87,50%", durations in minutes. The same functions
 * serve the API's answers, the Excel and PDF exports and the UI's cards, so a figure reads the
 * same everywhere.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function formatter(min: number, max: number): Intl.NumberFormat {
  const key = `${min}:${max}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: min, maximumFractionDigits: max, useGrouping: true });
    formatters.set(key, f);
  }
  return f;
}

/** A decimal number with 2 decimals, or up to 3 when the third one matters ("1.234,50", "0,125"); "" for no value. */
export function formatDecimal(n: number | null | undefined, maxDecimals: 2 | 3 = 3): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "";
  return formatter(2, maxDecimals).format(n === 0 ? 0 : n);
}

/** A whole count with thousands separators ("12.345"). */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "";
  return formatter(0, 0).format(n);
}

/** A share (0..1) as a percentage with 2 decimals ("87,50%"); "" when there is nothing to divide by. */
export function formatPercent(share: number | null | undefined): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return "";
  return `${formatter(2, 2).format(share * 100)}%`;
}

/** Milliseconds as minutes with 2 to 3 decimals ("90,50"). */
export function formatMinutes(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "";
  return formatDecimal(ms / 60_000);
}

/** A share rounded to 4 decimals (what the API answers; the reader formats it). */
export function ratio(part: number, whole: number): number | null {
  if (!whole) return null;
  return Math.round((part / whole) * 10_000) / 10_000;
}

/** An instant as the tenant's reader sees it: "24/11/2026 18:05" in `timeZone`. */
export function formatDateTime(ms: number | null | undefined, timeZone: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "";
  const parts = dateTimeFormat(timeZone).formatToParts(new Date(ms));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  return `${get("day")}/${get("month")}/${get("year")} ${get("hour")}:${get("minute")}`;
}

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
function dateTimeFormat(timeZone: string): Intl.DateTimeFormat {
  let f = dateTimeFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    dateTimeFormats.set(timeZone, f);
  }
  return f;
}
