/**
 * The shapes the business-time routes accept (fastest-validator). They check form only: the
 * meaning of the hours (a start before its end, morning before afternoon) is the rules'
 * (rules.ts validateDays), and a list's length is checked after the object it belongs to is
 * found, so another tenant's id answers its not-found code whatever the body holds.
 */
import { AVAILABILITY_SLOTS } from "../types";

/** "HH:MM" from 00:00 to 23:59, or 24:00 (an exclusive end). */
export const HHMM = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;
/** "YYYY-MM-DD" (a real calendar day is checked by the handler). */
export const YMD = /^\d{4}-\d{2}-\d{2}$/;

export const idParam = { type: "number", integer: true, positive: true, convert: true };
const time = { type: "string", pattern: HHMM };
const range = { type: "object", optional: true, nullable: true, strict: "remove", props: { start: time, end: time } };
const text = { type: "string", max: 4000, optional: true, nullable: true };

export const daysParam = {
  type: "array",
  max: 7,
  items: {
    type: "object",
    strict: "remove",
    props: { mode: { type: "enum", values: ["open", "closed", "specific"] }, morning: range, afternoon: range },
  },
};

export const messagesParam = { type: "object", strict: "remove", props: { outOfHours: text, holiday: text, lunch: text } };

export const targetIdsParam = { type: "array", items: { type: "number", integer: true, positive: true }, max: 500 };

/** Slots a user may have in one day (morning, afternoon, evening and one more). */
export const MAX_SLOTS_PER_DAY = 4;

/** A user's availability: 7 lists of slots (the length is checked by the handler, after the user is found). */
export const availabilityParam = {
  type: "array",
  max: 7,
  items: {
    type: "array",
    max: MAX_SLOTS_PER_DAY,
    items: {
      type: "object",
      strict: "remove",
      props: { kind: { type: "enum", values: AVAILABILITY_SLOTS as unknown as string[] }, start: { ...time, optional: true }, end: { ...time, optional: true } },
    },
  },
};

/** Optional text stored as null when empty (null: the more general schedule's message applies). */
export function textOrNull(v: string | null | undefined): string | null {
  const s = typeof v === "string" ? v.trim() : "";
  return s ? s : null;
}
