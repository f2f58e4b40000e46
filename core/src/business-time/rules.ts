/**
 * The time rules (spec §3 Business hours, Holiday; §4 the out-of-hours rule and smart close):
 * the one place that decides whether it is open for a ticket's user, queue or connection, when
 * it next opens and what to tell a customer meanwhile. Pure: the caller gathers the tenant's
 * schedules and holidays (TimeRulesInput) and passes the instant (epoch ms) from its clock.
 *
 * How it works: a local day's hours become UTC intervals (./local-time.ts converts wall-clock
 * times, DST included), a holiday empties its day, and questions walk those intervals day by
 * day — never minute by minute — up to a year ahead. Open time that runs on across midnight
 * (Friday open all day, Saturday from 00:00) is one stretch.
 */
import type { BusinessHours, DayHours, Holiday, TimeRulesInput, TimeState, TimeTarget } from "./types";
import { HolidayCalendar, TYPE_PRECEDENCE, namesTarget } from "./holidays";
import { MINUTES_PER_DAY, dayStart, localMoment, localToUtc, parseTimeOfDay, weekdayOf } from "./local-time";

export { validateDays } from "./validate";
export type { DayProblem } from "./validate";
export { defaultAvailability, validateAvailability, withinAvailability } from "./availability";

/** How far ahead the rules look for open time (a year and a day, so a yearly holiday cannot hide the next opening). */
export const HORIZON_DAYS = 367;

/** An interval of instants, end exclusive. */
export interface OpenInterval {
  start: number;
  end: number;
}

/**
 * The schedule that decides for a target: among active schedules, the ticket's user's, then its
 * queue's, then its WhatsApp connection's, then the tenant's global one (the lowest id when two
 * of one kind match). Null: none applies, always open ("unscheduled").
 */
export function applicableSchedule(hours: readonly BusinessHours[], target: TimeTarget): BusinessHours | null {
  for (const type of TYPE_PRECEDENCE) {
    let found: BusinessHours | null = null;
    for (const h of hours) {
      if (h.active && h.type === type && namesTarget(h, target) && (!found || h.id < found.id)) found = h;
    }
    if (found) return found;
  }
  return null;
}

/** A day's opening ranges in local minutes, in order (invalid ranges are ignored: the service validates). */
function dayRanges(day: DayHours | undefined): Array<[number, number]> {
  if (!day || day.mode === "closed") return [];
  if (day.mode === "open") return [[0, MINUTES_PER_DAY]];
  const out: Array<[number, number]> = [];
  for (const r of [day.morning, day.afternoon]) {
    if (!r) continue;
    const start = parseTimeOfDay(r.start);
    const end = parseTimeOfDay(r.end, true);
    if (start !== null && end !== null && start < end) out.push([start, end]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Everything one question needs, with the day intervals computed once. */
class Timeline {
  readonly schedule: BusinessHours | null;
  readonly calendar: HolidayCalendar;
  private readonly days = new Map<number, OpenInterval[]>();

  constructor(
    readonly input: TimeRulesInput,
    readonly target: TimeTarget,
  ) {
    this.schedule = applicableSchedule(input.hours, target);
    this.calendar = new HolidayCalendar(input.holidays, target);
  }

  get timeZone(): string {
    return this.input.timeZone;
  }

  /** Whether it is open at every instant (no schedule, no holiday). */
  get alwaysOpen(): boolean {
    return this.schedule === null && this.calendar.empty;
  }

  /** The open intervals of local day `day`, in order (a holiday's day has none). */
  intervals(day: number): OpenInterval[] {
    let list = this.days.get(day);
    if (list) return list;
    list = [];
    if (!this.calendar.on(day)) {
      const ranges = this.schedule ? dayRanges(this.schedule.days[weekdayOf(day)]) : [[0, MINUTES_PER_DAY] as [number, number]];
      for (const [from, to] of ranges) {
        const start = localToUtc(this.timeZone, day, from);
        const end = to === MINUTES_PER_DAY ? dayStart(this.timeZone, day + 1) : localToUtc(this.timeZone, day, to);
        // A range entirely inside a skipped hour has no instant at all.
        if (end > start) list.push({ start, end });
      }
    }
    this.days.set(day, list);
    return list;
  }

  /** The open intervals from local day `first` on, in order, up to the horizon. */
  *walk(first: number): Generator<OpenInterval> {
    for (let day = first; day < first + HORIZON_DAYS; day++) yield* this.intervals(day);
  }

  /** The first open interval that ends after `at` (it contains `at` when it starts by then), or null. */
  firstEndingAfter(at: number): OpenInterval | null {
    if (this.alwaysOpen) return { start: -Infinity, end: Infinity };
    for (const iv of this.walk(localMoment(this.timeZone, at).day)) if (iv.end > at) return iv;
    return null;
  }

  /** When the open stretch that starts with `first` ends, joining intervals that touch (across midnight). */
  stretchEnd(first: OpenInterval): number | null {
    if (first.end === Infinity) return null;
    let end = first.end;
    for (const iv of this.walk(localMoment(this.timeZone, first.start).day)) {
      if (iv.end <= end) continue;
      if (iv.start > end) return end;
      end = iv.end;
    }
    return null;
  }
}

/** Whether it is open for the target at instant `at`. */
export function isOpenAt(input: TimeRulesInput, target: TimeTarget, at: number): boolean {
  const iv = new Timeline(input, target).firstEndingAfter(at);
  return iv !== null && iv.start <= at;
}

/** The first instant at or after `from` when it is open (`from` itself when open then), or null when not within a year. */
export function nextOpenAt(input: TimeRulesInput, target: TimeTarget, from: number): number | null {
  const iv = new Timeline(input, target).firstEndingAfter(from);
  return iv === null ? null : Math.max(iv.start, from);
}

/** Whether any open time falls in [from, from + ms). */
export function openWithin(input: TimeRulesInput, target: TimeTarget, from: number, ms: number): boolean {
  const next = nextOpenAt(input, target, from);
  return next !== null && next < from + ms;
}

/** When the open stretch running at `at` ends (open time across midnight counts as one), or null when closed at `at` or open for the whole year ahead. */
export function closesAt(input: TimeRulesInput, target: TimeTarget, at: number): number | null {
  const timeline = new Timeline(input, target);
  const iv = timeline.firstEndingAfter(at);
  if (iv === null || iv.start > at) return null;
  return timeline.stretchEnd(iv);
}

/** The open stretches overlapping [from, until), clipped to it; touching intervals are joined. */
export function openStretches(input: TimeRulesInput, target: TimeTarget, from: number, until: number): OpenInterval[] {
  if (until <= from) return [];
  const timeline = new Timeline(input, target);
  if (timeline.alwaysOpen) return [{ start: from, end: until }];
  const out: OpenInterval[] = [];
  for (const iv of timeline.walk(localMoment(input.timeZone, from).day)) {
    if (iv.start >= until) break;
    if (iv.end <= from) continue;
    const piece = { start: Math.max(iv.start, from), end: Math.min(iv.end, until) };
    const last = out[out.length - 1];
    if (last && piece.start <= last.end) last.end = Math.max(last.end, piece.end);
    else out.push(piece);
  }
  return out;
}

function text(s: string | null | undefined): string | null {
  return typeof s === "string" && s.trim() ? s : null;
}

/** The lunch break of local day `day` as an interval (between the morning's end and the afternoon's start), or null. */
function lunchOf(timeline: Timeline, day: number): OpenInterval | null {
  const hours = timeline.schedule?.days[weekdayOf(day)];
  if (!hours || hours.mode !== "specific" || !hours.morning || !hours.afternoon) return null;
  const from = parseTimeOfDay(hours.morning.end, true);
  const to = parseTimeOfDay(hours.afternoon.start);
  if (from === null || to === null || from >= to) return null;
  return { start: localToUtc(timeline.timeZone, day, from), end: localToUtc(timeline.timeZone, day, to) };
}

/**
 * Everything about "is it open now for this target" (see TimeState): the reason when closed,
 * the message to send for it (the holiday's own, else the deciding schedule's for that reason,
 * else the global schedule's), when it next opens, and the two smart-close answers.
 */
export function timeState(input: TimeRulesInput, target: TimeTarget, at: number): TimeState {
  const timeline = new Timeline(input, target);
  const schedule = timeline.schedule;
  const scheduleId = schedule ? schedule.id : null;
  const today = localMoment(input.timeZone, at).day;
  const nextDayHasHours = timeline.alwaysOpen || timeline.intervals(today + 1).length > 0;
  const iv = timeline.firstEndingAfter(at);
  if (iv !== null && iv.start <= at) {
    return {
      open: true,
      reason: schedule ? "open" : "unscheduled",
      message: null,
      scheduleId,
      holidayId: null,
      period: null,
      nextOpenAt: null,
      openWithin24h: true,
      nextDayHasHours,
    };
  }

  const next = iv ? iv.start : null;
  const holiday: Holiday | null = timeline.calendar.on(today);
  const lunch = holiday ? null : lunchOf(timeline, today);
  const reason = holiday ? "holiday" : lunch && lunch.start <= at && at < lunch.end ? "lunch" : "closed";
  const key = reason === "holiday" ? "holiday" : reason === "lunch" ? "lunch" : "outOfHours";
  const global = schedule?.type === "global" ? schedule : applicableSchedule(input.hours, {});
  const message = text(holiday?.message) ?? text(schedule?.messages?.[key]) ?? text(global?.messages?.[key]);
  return {
    open: false,
    reason,
    message,
    scheduleId,
    holidayId: holiday ? holiday.id : null,
    period: next ?? -1,
    nextOpenAt: next,
    openWithin24h: next !== null && next < at + 24 * 3_600_000,
    nextDayHasHours,
  };
}
