/**
 * Business time on the wire (spec §3 Business hours, Holiday, Smart-close settings,
 * Availability): what the core's business-time API answers and takes, the SDK's core API
 * hands plugins, and the time screens edit. Times of day are "HH:MM" in the tenant's time
 * zone; an end may be "24:00" and is exclusive. Weekdays are 0 = Sunday … 6 = Saturday.
 */

export type Weekday = 0 | 1 | 2 | 3 | 4 | 5 | 6;
export const WEEKDAYS: readonly Weekday[] = [0, 1, 2, 3, 4, 5, 6];

/** "HH:MM" to "HH:MM" (end exclusive, may be "24:00"); start < end. */
export interface TimeRange {
  start: string;
  end: string;
}

/**
 * One weekday of a schedule: `open` the whole day (00:00–24:00), `closed`, or `specific`:
 * a morning range and/or an afternoon range; the gap between the morning's end and the
 * afternoon's start is lunch (the lunch message is for it). A specific day needs at least
 * one range; the morning ends no later than the afternoon starts.
 */
export interface DayHours {
  mode: "open" | "closed" | "specific";
  morning?: TimeRange | null;
  afternoon?: TimeRange | null;
}

/** Whose hours these are: the tenant's own (global, /configuracoes/horario), or by queue, user or WhatsApp connection (/configuracoes/business-hours). */
export type BusinessHoursType = "global" | "queue" | "user" | "whatsapp";
export const BUSINESS_HOURS_TYPES: readonly BusinessHoursType[] = ["global", "queue", "user", "whatsapp"];

export interface BusinessTimeMessages {
  outOfHours?: string | null;
  holiday?: string | null;
  lunch?: string | null;
}

/**
 * Smart close (tenant setting `smartClose`): a ticket a customer writes to outside hours is
 * closed, with its message, when no business hours fall in the next 24 hours; with
 * `window24h`, it waits a day instead when the next day has hours.
 */
export interface SmartCloseSettings {
  enabled: boolean;
  window24h: boolean;
  outOfOfficeMessage?: string | null;
  noNextDayMessage?: string | null;
  lunchMessage?: string | null;
}

/**
 * The answer to "is it open now for this target". `reason`: open; closed (outside the day's
 * hours); lunch (between morning and afternoon); holiday (one that names the target closes its
 * local day, even when no schedule applies); unscheduled (no active schedule applies: open).
 * `message`: the text to send for a closed reason, the most specific
 * one (holiday's own, the schedule's, the global schedule's), or null. `period`: a key of
 * the closed period now running, so "once per ticket per closed period" is a key: the time it
 * ends (= nextOpenAt), or -1 when it does not open again within a year; null when open.
 */
export interface TimeState {
  open: boolean;
  reason: "open" | "closed" | "lunch" | "holiday" | "unscheduled";
  message: string | null;
  /** The schedule that decided (null: none applies). */
  scheduleId: number | null;
  holidayId: number | null;
  period: number | null;
  /** When it next opens (epoch ms), null when open now or never within a year. */
  nextOpenAt: number | null;
  /** Whether any open time falls in the next 24 hours (smart close). */
  openWithin24h: boolean;
  /** Whether the next local calendar day has any open time (smart close with window24h). */
  nextDayHasHours: boolean;
}

/** A user's availability (spec §3 Availability), per weekday: the slots they can be booked in. */
export type AvailabilitySlotKind = "morning" | "afternoon" | "evening" | "fullDay";
export const AVAILABILITY_SLOTS: readonly AvailabilitySlotKind[] = ["morning", "afternoon", "evening", "fullDay"];
/** The hours each kind of slot covers unless the slot says otherwise. */
export const AVAILABILITY_DEFAULT_RANGES: Record<AvailabilitySlotKind, TimeRange> = {
  morning: { start: "08:00", end: "12:00" },
  afternoon: { start: "13:00", end: "18:00" },
  evening: { start: "18:00", end: "22:00" },
  fullDay: { start: "08:00", end: "18:00" },
};
export interface AvailabilitySlot extends TimeRange {
  kind: AvailabilitySlotKind;
}
/** Index = weekday (0 = Sunday); always 7 entries, each a list of slots (empty: unavailable that day). */
export type Availability = AvailabilitySlot[][];
