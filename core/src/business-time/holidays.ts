/**
 * Which holiday, if any, closes a local day for a target. A holiday applies when its type is
 * global, or when its targets hold the target's id for its type (queue, user, WhatsApp
 * connection) — whichever schedule decides the hours. When several fall on one day the most
 * specific wins (user, queue, connection, global; a dated one before a yearly one), since its
 * message is the one to send.
 */
import type { BusinessHoursType, Holiday, TimeTarget } from "./types";
import { dayFromIso, monthDayOf } from "./local-time";

/** Precedence of types, most specific first (schedules follow the same order). */
export const TYPE_PRECEDENCE: readonly BusinessHoursType[] = ["user", "queue", "whatsapp", "global"];

/** The target's id for a type of schedule or holiday (global: none needed). */
export function targetIdFor(target: TimeTarget, type: BusinessHoursType): number | null {
  const id = type === "user" ? target.userId : type === "queue" ? target.queueId : type === "whatsapp" ? target.connectionId : null;
  return id === undefined || id === null ? null : Number(id);
}

/** Whether a schedule's or holiday's targets name the target (global ones name everybody). */
export function namesTarget(item: { type: BusinessHoursType; targetIds?: number[] | null }, target: TimeTarget): boolean {
  if (item.type === "global") return true;
  const id = targetIdFor(target, item.type);
  return id !== null && (item.targetIds ?? []).some((t) => Number(t) === id);
}

function rank(h: Holiday): number {
  const type = TYPE_PRECEDENCE.indexOf(h.type);
  return (type < 0 ? TYPE_PRECEDENCE.length : type) * 2 + (h.yearly ? 1 : 0);
}

/** Whether `b` beats `a` as the holiday to report for a day. */
function beats(b: Holiday, a: Holiday | undefined): boolean {
  if (!a) return true;
  const ra = rank(a);
  const rb = rank(b);
  return rb < ra || (rb === ra && b.id < a.id);
}

function monthDayKey(day: number): string {
  const { month, date } = monthDayOf(day);
  return `${month}-${date}`;
}

/** Answers "which holiday closes this local day" for one target, in O(1) per day. */
export class HolidayCalendar {
  private readonly dated = new Map<number, Holiday>();
  private readonly yearly = new Map<string, Holiday>();

  constructor(holidays: readonly Holiday[], target: TimeTarget) {
    for (const h of holidays) {
      if (!namesTarget(h, target)) continue;
      const day = dayFromIso(h.date);
      if (day === null) continue;
      if (h.yearly) {
        const key = monthDayKey(day);
        if (beats(h, this.yearly.get(key))) this.yearly.set(key, h);
      } else if (beats(h, this.dated.get(day))) {
        this.dated.set(day, h);
      }
    }
  }

  /** Whether no holiday applies at all (lets callers skip work). */
  get empty(): boolean {
    return this.dated.size === 0 && this.yearly.size === 0;
  }

  /** The holiday that closes local day `day`, or null. */
  on(day: number): Holiday | null {
    if (this.empty) return null;
    const dated = this.dated.get(day);
    const yearly = this.yearly.size ? this.yearly.get(monthDayKey(day)) : undefined;
    if (dated && yearly) return beats(yearly, dated) ? yearly : dated;
    return dated ?? yearly ?? null;
  }
}
