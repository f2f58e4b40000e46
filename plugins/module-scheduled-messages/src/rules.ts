/**
 * The rules of a scheduled message (spec §4, §5), pure: what a create or an edit must carry,
 * and which statuses allow a change. Each broken rule is a code of the manifest's catalogue
 * (ERR_SCHEDULE_*), so the caller sees a translated reason naming the field, never a 500.
 */
import { PluginError } from "@openatende/plugin-sdk";
import { isTimeZone, nextOccurrence, RECURRENCES, type Recurrence } from "./recurrence";

export const STATUSES = ["pending", "sent", "failed", "cancelled"] as const;
export type Status = (typeof STATUSES)[number];
export const TYPES = ["single", "recurrent"] as const;
export type ScheduleType = (typeof TYPES)[number];

export const BODY_MAX = 4096;
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

/** What a caller sends to create (every field) or edit (the fields it changes) a scheduled message. */
export interface ScheduleInput {
  body?: string;
  scheduleDate?: string | number;
  contactId?: number;
  connectionId?: number;
  userId?: number;
  type?: ScheduleType;
  recurrence?: Recurrence | null;
  customDays?: number[] | null;
  recurrentUntil?: string | number | null;
  timeZone?: string;
  ticketId?: number | null;
}

/** A valid message's fields, as stored. */
export interface ScheduleFields {
  body: string;
  scheduleDate: number;
  contactId: number;
  connectionId: number;
  userId: number;
  type: ScheduleType;
  recurrence: Recurrence | null;
  customDays: number[] | null;
  recurrentUntil: number | null;
  timeZone: string;
}

const bad = (code: string, field: string) => new PluginError(code, 400, { field });

function instant(v: string | number | null | undefined): number | null {
  if (v === null || v === undefined || v === "") return null;
  const t = typeof v === "number" ? v : Date.parse(v);
  return Number.isFinite(t) ? t : NaN;
}

/**
 * Checks a whole message (an edit is checked merged with what is stored) and answers its
 * stored fields. `now` is the time the date must be after. `needSecondSend: false` (an edit of a
 * running series that keeps its dates): its next send may be its last.
 */
export function checkSchedule(input: ScheduleInput, now: number, opts: { needSecondSend?: boolean } = {}): ScheduleFields {
  const body = (input.body ?? "").trim();
  if (!body) throw bad("ERR_SCHEDULE_BODY_REQUIRED", "body");
  if (!input.contactId) throw bad("ERR_SCHEDULE_CONTACT_REQUIRED", "contactId");
  if (!input.connectionId) throw bad("ERR_SCHEDULE_CONNECTION_REQUIRED", "connectionId");
  if (!input.userId) throw bad("ERR_SCHEDULE_USER_REQUIRED", "userId");
  const scheduleDate = instant(input.scheduleDate);
  if (scheduleDate === null || Number.isNaN(scheduleDate)) throw bad("ERR_SCHEDULE_DATE_REQUIRED", "scheduleDate");
  if (scheduleDate <= now) throw bad("ERR_SCHEDULE_DATE_PAST", "scheduleDate");
  const timeZone = input.timeZone || DEFAULT_TIME_ZONE;
  if (!isTimeZone(timeZone)) throw bad("ERR_SCHEDULE_RECURRENCE_INVALID", "timeZone");
  const type = input.type ?? "single";
  if (type === "single") {
    return { body, scheduleDate, contactId: input.contactId, connectionId: input.connectionId, userId: input.userId, type, recurrence: null, customDays: null, recurrentUntil: null, timeZone };
  }
  const recurrence = input.recurrence;
  if (!recurrence || !RECURRENCES.includes(recurrence)) throw bad("ERR_SCHEDULE_RECURRENCE_INVALID", "recurrence");
  let customDays: number[] | null = null;
  if (recurrence === "custom") {
    customDays = [...new Set(input.customDays ?? [])].sort((a, b) => a - b);
    if (!customDays.length) throw bad("ERR_SCHEDULE_CUSTOM_DAYS_REQUIRED", "customDays");
  }
  const recurrentUntil = instant(input.recurrentUntil);
  if (recurrentUntil === null || Number.isNaN(recurrentUntil)) throw bad("ERR_SCHEDULE_RECURRENCE_INVALID", "recurrentUntil");
  const fields: ScheduleFields = { body, scheduleDate, contactId: input.contactId, connectionId: input.connectionId, userId: input.userId, type, recurrence, customDays, recurrentUntil, timeZone };
  // "Settings must be valid": the end leaves room for a second send, else it is not a recurrence.
  if (recurrentUntil < scheduleDate || (opts.needSecondSend !== false && (recurrentUntil === scheduleDate || nextOccurrence({ ...fields, recurrence }, scheduleDate) === null))) throw bad("ERR_SCHEDULE_RECURRENCE_INVALID", "recurrentUntil");
  return fields;
}

/** Only a pending message is edited or cancelled (spec §4); the others answer their status. */
export function assertPending(status: Status): void {
  if (status !== "pending") throw new PluginError("ERR_SCHEDULE_NOT_PENDING", 409, { status });
}
