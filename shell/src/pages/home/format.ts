/** Periods, dates and durations of the dashboard. */
export type PeriodKey = "today" | "d7" | "d30" | "month";
export const PERIODS: PeriodKey[] = ["today", "d7", "d30", "month"];

/** A local calendar date as "YYYY-MM-DD". */
export function localDate(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

export interface PeriodRange {
  /** First and last local dates, for GET /dashboard/evolution. */
  from: string;
  to: string;
  /** The same period as instants (local midnight of the first day → now), for GET /dashboard/tickets. */
  dateFrom: string;
  dateTo: string;
}

export function periodRange(key: PeriodKey, now = new Date()): PeriodRange {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (key === "d7") start.setDate(start.getDate() - 6);
  else if (key === "d30") start.setDate(start.getDate() - 29);
  else if (key === "month") start.setDate(1);
  return { from: localDate(start), to: localDate(now), dateFrom: start.toISOString(), dateTo: now.toISOString() };
}

/** The last 7 days up to today: what the evolution chart shows when the period is one day. */
export function lastWeek(now = new Date()): { from: string; to: string } {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 6);
  return { from: localDate(start), to: localDate(now) };
}

type T = (key: string, vars?: Record<string, unknown>) => string;

/** "42 s", "7 min", "2 h 5 min", "3 d 4 h" (translated units). */
export function duration(seconds: number | null | undefined, t: T): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return t("home.duration.none");
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return t("home.duration.seconds", { n: s });
  const m = Math.round(s / 60);
  if (m < 60) return t("home.duration.minutes", { n: m });
  const h = Math.floor(m / 60);
  if (h < 24) return t("home.duration.hours", { h, m: m % 60 });
  return t("home.duration.days", { d: Math.floor(h / 24), h: h % 24 });
}

/** "21/11" style short day label in the user's language. */
export function shortDay(date: string, locale: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(y, m - 1, d).toLocaleDateString(locale, { day: "2-digit", month: "2-digit" });
}

/** A round axis for values up to `v`: four equal steps of 1, 2 or 5 × 10ⁿ (0–4, 0–8, 0–20…). */
export function niceAxis(v: number): { max: number; step: number } {
  const raw = Math.max(1, v) / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * p).find((s) => s >= raw && Number.isInteger(s)) ?? Math.ceil(raw);
  return { max: step * 4, step };
}

export function greetingKey(now = new Date()): "morning" | "afternoon" | "evening" {
  const h = now.getHours();
  return h < 12 ? "morning" : h < 18 ? "afternoon" : "evening";
}
