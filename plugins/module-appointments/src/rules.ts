/**
 * The rules of an appointment and of a service (spec §5), as pure functions: the service's
 * actions read what they need (the user's availability, the service, the user's other
 * appointments) and ask these. Each refusal is a catalogue code (spec §8: ERR_REQUIRED_*,
 * ERR_SCHEDULE_*, ERR_USER_OUTSIDE_AVAILABILITY, ERR_USER_NO_AVAILABILITY_DAY,
 * ERR_SERVICE_NOT_FOUND_FOR_USER) or one of the plugin's ERR_APPOINTMENT_* codes, naming the field.
 */
import { PluginError, type PlatformAvailability } from "@openatende/plugin-sdk";
import { dayKey, minuteOfDay, wallOf } from "./local-time";

export const MESSAGE_MIN = 5;
export const MESSAGE_MAX = 4000;
export const DURATION_MAX = 24 * 60;
export const REMINDER_UNITS = ["minutes", "hours", "days"] as const;
export type ReminderUnit = (typeof REMINDER_UNITS)[number];
export interface Reminder {
  amount: number;
  unit: ReminderUnit;
}
export const UNIT_MS: Record<ReminderUnit, number> = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 };
export const reminderOffset = (r: Reminder) => r.amount * UNIT_MS[r.unit];

export interface TemplateChoice {
  name: string;
  language: string;
  params: string[];
}
export interface Attachment {
  path: string;
  mimeType: string;
  fileName: string;
}

/** What a client sends to create or change an appointment (every field optional until checked). */
export interface AppointmentInput {
  contactId?: number | null;
  connectionId?: number | null;
  userId?: number | null;
  serviceId?: number | null;
  startAt?: string | number | null;
  duration?: number | null;
  message?: string | null;
  closeTicket?: boolean;
  template?: TemplateChoice | null;
  complementaryMessage?: string | null;
  attachment?: Attachment | null;
  reminders?: Reminder[] | null;
}

export interface AppointmentFields {
  contactId: number;
  connectionId: number;
  userId: number;
  serviceId: number;
  startAt: number;
  /** Minutes; the service's when not given. */
  duration: number | null;
  message: string;
  closeTicket: boolean;
  template: TemplateChoice | null;
  complementaryMessage: string | null;
  attachment: Attachment | null;
  reminders: Reminder[];
}

const fail = (code: string, status: number, data: Record<string, unknown>) => new PluginError(code, status, data);

/** Parses a date given as ISO text or epoch ms; NaN when it is none. */
export function instantOf(v: string | number | null | undefined): number {
  if (typeof v === "number") return Number.isFinite(v) ? v : NaN;
  if (typeof v !== "string" || !v.trim()) return NaN;
  // A date with its offset (or Z) only: a bare local time would be read in the server's zone.
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v.trim())) return NaN;
  return Date.parse(v);
}

/**
 * Required fields (contact, connection, user, date, service, message), the message's length,
 * the date (valid, not past: an earlier day is ERR_SCHEDULE_INVALID_DATE, an earlier hour of
 * today ERR_SCHEDULE_INVALID_HOUR, in the tenant's zone) and the reminders (no two alike).
 */
export function checkAppointment(input: AppointmentInput, now: number, tz: string): AppointmentFields {
  if (!input.contactId) throw fail("ERR_REQUIRED_CONTACT", 400, { field: "contactId" });
  if (!input.connectionId) throw fail("ERR_REQUIRED_CONNECTION", 400, { field: "connectionId" });
  if (!input.userId) throw fail("ERR_REQUIRED_USER", 400, { field: "userId" });
  if (input.startAt === undefined || input.startAt === null || input.startAt === "") throw fail("ERR_REQUIRED_SEND_AT", 400, { field: "startAt" });
  if (!input.serviceId) throw fail("ERR_APPOINTMENT_SERVICE_REQUIRED", 400, { field: "serviceId" });
  const message = (input.message ?? "").trim();
  if (!message) throw fail("ERR_REQUIRED_BODY", 400, { field: "message" });
  if (message.length < MESSAGE_MIN) throw fail("ERR_APPOINTMENT_MESSAGE_TOO_SHORT", 400, { field: "message", min: MESSAGE_MIN });
  const startAt = instantOf(input.startAt);
  if (Number.isNaN(startAt)) throw fail("ERR_SCHEDULE_INVALID_DATE", 400, { field: "startAt" });
  checkFuture(startAt, now, tz);
  const reminders = checkReminders(input.reminders ?? []);
  const complementary = (input.complementaryMessage ?? "").trim();
  return {
    contactId: input.contactId,
    connectionId: input.connectionId,
    userId: input.userId,
    serviceId: input.serviceId,
    startAt,
    duration: input.duration ?? null,
    message,
    closeTicket: input.closeTicket === true,
    template: input.template ?? null,
    complementaryMessage: complementary || null,
    attachment: input.attachment ?? null,
    reminders,
  };
}

/** Never in the past: another day is an invalid date, an hour gone today an invalid hour. */
export function checkFuture(startAt: number, now: number, tz: string): void {
  if (startAt > now) return;
  const sameDay = dayKey(wallOf(startAt, tz)) === dayKey(wallOf(now, tz));
  throw fail(sameDay ? "ERR_SCHEDULE_INVALID_HOUR" : "ERR_SCHEDULE_INVALID_DATE", 400, { field: "startAt" });
}

/** No reminder twice: the same amount and unit, or the same time before (60 minutes = 1 hour). Sorted, farthest first. */
export function checkReminders(list: Reminder[]): Reminder[] {
  const seen = new Set<number>();
  for (const r of list) {
    const off = reminderOffset(r);
    if (seen.has(off)) throw fail("ERR_APPOINTMENT_REMINDER_DUPLICATE", 400, { field: "reminders", amount: r.amount, unit: r.unit });
    seen.add(off);
  }
  return [...list].sort((a, b) => reminderOffset(b) - reminderOffset(a));
}

const hhmm = (s: string) => {
  const [h, m] = s.split(":").map(Number);
  return h * 60 + m;
};

/**
 * The appointment [start, start + duration) lies inside one slot of the user's availability on
 * its local weekday. No availability (never set) or none that day: ERR_USER_NO_AVAILABILITY_DAY;
 * otherwise outside every slot (or past midnight): ERR_USER_OUTSIDE_AVAILABILITY.
 */
export function checkAvailability(av: PlatformAvailability | null, startAt: number, durationMin: number, tz: string): void {
  const w = wallOf(startAt, tz);
  const slots = av?.[w.weekday] ?? [];
  if (!slots.length) throw fail("ERR_USER_NO_AVAILABILITY_DAY", 409, { field: "startAt", weekday: w.weekday });
  const from = minuteOfDay(w);
  const to = from + durationMin;
  const endWall = wallOf(startAt + durationMin * 60_000, tz);
  const sameDay = dayKey(endWall) === dayKey(w) || (to === 24 * 60 && minuteOfDay(endWall) === 0);
  const fits = sameDay && slots.some((s) => from >= hhmm(s.start) && to <= hhmm(s.end));
  if (!fits) throw fail("ERR_USER_OUTSIDE_AVAILABILITY", 409, { field: "startAt", slots: slots.map((s) => `${s.start}-${s.end}`) });
}

/** The service is offered by the appointment's user. */
export function checkServiceUser(service: { users: number[] }, userId: number): void {
  if (!service.users.includes(userId)) throw fail("ERR_SERVICE_NOT_FOUND_FOR_USER", 404, { field: "serviceId", userId });
}

/** No other appointment of the user overlaps [start, end). */
export function checkNoConflict(others: Array<{ id: number; startAt: number; endAt: number }>, startAt: number, endAt: number, selfId?: number): void {
  const clash = others.find((o) => o.id !== selfId && o.startAt < endAt && startAt < o.endAt);
  if (clash) throw fail("ERR_SCHEDULE_CONFLICT", 409, { field: "startAt", id: clash.id });
}

/** A template's variables ({{1}}, {{2}}…) in its body, counted once each. */
export function templateVariables(body: string): number {
  return new Set(body.match(/\{\{\s*\d+\s*\}\}/g)?.map((v) => v.replace(/\s/g, "")) ?? []).size;
}

export interface ServiceInput {
  name?: string | null;
  description?: string | null;
  duration?: number | null;
  price?: number | null;
  users?: number[] | null;
}
export interface ServiceFields {
  name: string;
  description: string;
  duration: number;
  price: number;
  users: number[];
}

/** Name, duration (whole minutes) and price required; price not negative; at least one user. */
export function checkService(input: ServiceInput): ServiceFields {
  const name = (input.name ?? "").trim();
  if (!name) throw fail("ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", 400, { field: "name" });
  if (!input.duration || !Number.isInteger(input.duration) || input.duration < 1 || input.duration > DURATION_MAX) throw fail("ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", 400, { field: "duration" });
  if (input.price === null || input.price === undefined || !Number.isFinite(input.price)) throw fail("ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", 400, { field: "price" });
  if (input.price < 0) throw fail("ERR_APPOINTMENT_SERVICE_PRICE_NEGATIVE", 400, { field: "price" });
  const users = [...new Set(input.users ?? [])];
  if (!users.length) throw fail("ERR_APPOINTMENT_SERVICE_USERS_REQUIRED", 400, { field: "users" });
  return { name, description: (input.description ?? "").trim(), duration: input.duration, price: Math.round(input.price * 100) / 100, users };
}
