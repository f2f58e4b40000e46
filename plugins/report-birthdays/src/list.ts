/**
 * The birthdays of a period, read through the core API (contacts.list by birthday month, the
 * tenant's contacts only), each with its occurrence in the period, the age turned, whether it
 * has passed this year, and its pending scheduled message, if any.
 */
import type { CoreApi } from "@openatende/plugin-sdk";
import { ageIn, hasPassed, isoOf, monthsOf, occurrenceInPeriod, parseBirthday, periodDates, type Period, type Ymd } from "./birthdays";
import type { BirthdayStore } from "./store";

export interface BirthdayRow {
  id: number;
  name: string;
  number: string | null;
  birthday: string;
  /** The occurrence in the period ("YYYY-MM-DD"). */
  date: string;
  age: number;
  passed: boolean;
  /** The id of its pending birthday message, or null. */
  scheduledId: number | null;
}

export interface PeriodQuery {
  period: Period;
  month?: number;
}

/** Pages of 100 read from the core for one month, at most this many. */
const MAX_PAGES = 50;
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

export async function timeZoneOf(api: CoreApi, tenantId: number): Promise<string> {
  const s = await api.settings.get({ tenantId });
  return typeof s.timeZone === "string" && s.timeZone ? s.timeZone : DEFAULT_TIME_ZONE;
}

export async function birthdaysOf(api: CoreApi, store: BirthdayStore, tenantId: number, q: PeriodQuery, now: number, timeZone: string): Promise<{ dates: Ymd[]; rows: BirthdayRow[] }> {
  const dates = periodDates(q.period, now, timeZone, q.month);
  const rows: Array<BirthdayRow & { sort: string }> = [];
  for (const birthdayMonth of monthsOf(dates)) {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const r = await api.contacts.list({ tenantId, birthdayMonth, page, limit: 100 });
      for (const c of r.rows) {
        const b = parseBirthday(c.birthday);
        const occ = b && occurrenceInPeriod(b, dates);
        if (!b || !occ) continue;
        const date = isoOf(occ);
        rows.push({ id: c.id, name: c.name, number: c.number, birthday: isoOf(b), date, age: ageIn(b, occ.y), passed: hasPassed(occ, now, timeZone), scheduledId: null, sort: `${date} ${c.name.toLocaleLowerCase()}` });
      }
      if (!r.hasMore) break;
    }
  }
  const pending = await store.pendingFor(tenantId, rows.map((r) => r.id));
  rows.sort((a, b) => (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : a.id - b.id));
  return { dates, rows: rows.map(({ sort: _sort, ...r }) => ({ ...r, scheduledId: pending.get(`${r.id}:${r.date}`)?.id ?? null })) };
}
