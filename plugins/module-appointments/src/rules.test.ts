/**
 * The appointment and service rules (spec §5) without a database: what is required, the
 * message's length, never in the past (an earlier day vs an earlier hour of today, in the
 * tenant's zone), reminders not repeated, inside the user's availability, the service's users,
 * no overlap with the user's other appointments, and the service's fields.
 */
import type { PlatformAvailability } from "@openatende/plugin-sdk";
import { checkAppointment, checkAvailability, checkNoConflict, checkReminders, checkService, checkServiceUser, instantOf, templateVariables } from "./rules";

const TZ = "America/Sao_Paulo";
// Wednesday 2026-11-25 10:00 in São Paulo (UTC-3).
const NOW = Date.parse("2026-11-25T10:00:00-03:00");
const base = { contactId: 1, connectionId: 2, userId: 3, serviceId: 4, startAt: "2026-11-26T14:00:00-03:00", message: "Consulta de retorno" };
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    const err = e as { type?: string; code?: number; data?: Record<string, unknown> };
    return { code: err.type, status: err.code, field: err.data?.field };
  }
  return null;
};

describe("appointment rules", () => {
  it("requires contact, connection, user, date, service and message, in that order, naming the field", () => {
    expect(codeOf(() => checkAppointment({ ...base, contactId: null }, NOW, TZ))).toEqual({ code: "ERR_REQUIRED_CONTACT", status: 400, field: "contactId" });
    expect(codeOf(() => checkAppointment({ ...base, connectionId: undefined }, NOW, TZ))).toEqual({ code: "ERR_REQUIRED_CONNECTION", status: 400, field: "connectionId" });
    expect(codeOf(() => checkAppointment({ ...base, userId: 0 }, NOW, TZ))).toEqual({ code: "ERR_REQUIRED_USER", status: 400, field: "userId" });
    expect(codeOf(() => checkAppointment({ ...base, startAt: "" }, NOW, TZ))).toEqual({ code: "ERR_REQUIRED_SEND_AT", status: 400, field: "startAt" });
    expect(codeOf(() => checkAppointment({ ...base, serviceId: null }, NOW, TZ))).toEqual({ code: "ERR_APPOINTMENT_SERVICE_REQUIRED", status: 400, field: "serviceId" });
    expect(codeOf(() => checkAppointment({ ...base, message: "  " }, NOW, TZ))).toEqual({ code: "ERR_REQUIRED_BODY", status: 400, field: "message" });
  });

  it("wants a message of at least 5 characters (trimmed)", () => {
    expect(codeOf(() => checkAppointment({ ...base, message: "  Oi! " }, NOW, TZ))).toEqual({ code: "ERR_APPOINTMENT_MESSAGE_TOO_SHORT", status: 400, field: "message" });
    expect(checkAppointment({ ...base, message: " Olá!! " }, NOW, TZ).message).toBe("Olá!!");
  });

  it("refuses a date that is not one, and the past: an earlier day as an invalid date, an hour gone today as an invalid hour", () => {
    expect(codeOf(() => checkAppointment({ ...base, startAt: "amanhã" }, NOW, TZ))?.code).toBe("ERR_SCHEDULE_INVALID_DATE");
    expect(codeOf(() => checkAppointment({ ...base, startAt: "2026-11-26T14:00:00" }, NOW, TZ))?.code).toBe("ERR_SCHEDULE_INVALID_DATE");
    expect(codeOf(() => checkAppointment({ ...base, startAt: "2026-11-24T14:00:00-03:00" }, NOW, TZ))?.code).toBe("ERR_SCHEDULE_INVALID_DATE");
    expect(codeOf(() => checkAppointment({ ...base, startAt: "2026-11-25T09:59:00-03:00" }, NOW, TZ))?.code).toBe("ERR_SCHEDULE_INVALID_HOUR");
    expect(codeOf(() => checkAppointment({ ...base, startAt: NOW }, NOW, TZ))?.code).toBe("ERR_SCHEDULE_INVALID_HOUR");
    // 01:00 UTC on the 25th is still the 24th in São Paulo: an earlier day there.
    expect(codeOf(() => checkAppointment({ ...base, startAt: "2026-11-25T01:00:00Z" }, NOW, TZ))?.code).toBe("ERR_SCHEDULE_INVALID_DATE");
    expect(checkAppointment({ ...base, startAt: "2026-11-25T10:01:00-03:00" }, NOW, TZ).startAt).toBe(NOW + 60_000);
    expect(instantOf("2026-11-25T10:00:00.000Z")).toBe(Date.UTC(2026, 10, 25, 10));
  });

  it("refuses a reminder already in the list, also when written in another unit; keeps them farthest first", () => {
    expect(codeOf(() => checkReminders([{ amount: 1, unit: "hours" }, { amount: 1, unit: "hours" }]))?.code).toBe("ERR_APPOINTMENT_REMINDER_DUPLICATE");
    expect(codeOf(() => checkReminders([{ amount: 60, unit: "minutes" }, { amount: 1, unit: "hours" }]))?.code).toBe("ERR_APPOINTMENT_REMINDER_DUPLICATE");
    expect(codeOf(() => checkReminders([{ amount: 1, unit: "days" }, { amount: 24, unit: "hours" }]))?.code).toBe("ERR_APPOINTMENT_REMINDER_DUPLICATE");
    expect(checkReminders([{ amount: 30, unit: "minutes" }, { amount: 1, unit: "days" }, { amount: 2, unit: "hours" }])).toEqual([
      { amount: 1, unit: "days" },
      { amount: 2, unit: "hours" },
      { amount: 30, unit: "minutes" },
    ]);
  });

  it("lies inside one slot of the user's availability on its local weekday", () => {
    const av: PlatformAvailability = [[], [], [], [{ kind: "morning", start: "08:00", end: "12:00" }, { kind: "afternoon", start: "13:00", end: "18:00" }], [{ kind: "evening", start: "18:00", end: "24:00" }], [], []];
    const at = (iso: string) => Date.parse(iso);
    // Wednesday (3): 08:00–08:30 and 11:30–12:00 fit; 11:45–12:15 crosses lunch; 12:30 is lunch.
    expect(() => checkAvailability(av, at("2026-11-25T08:00:00-03:00"), 30, TZ)).not.toThrow();
    expect(() => checkAvailability(av, at("2026-11-25T11:30:00-03:00"), 30, TZ)).not.toThrow();
    expect(codeOf(() => checkAvailability(av, at("2026-11-25T11:45:00-03:00"), 30, TZ))).toEqual({ code: "ERR_USER_OUTSIDE_AVAILABILITY", status: 409, field: "startAt" });
    expect(codeOf(() => checkAvailability(av, at("2026-11-25T12:30:00-03:00"), 15, TZ))?.code).toBe("ERR_USER_OUTSIDE_AVAILABILITY");
    expect(codeOf(() => checkAvailability(av, at("2026-11-25T07:59:00-03:00"), 15, TZ))?.code).toBe("ERR_USER_OUTSIDE_AVAILABILITY");
    // Thursday evening up to midnight fits; past midnight does not.
    expect(() => checkAvailability(av, at("2026-11-26T23:30:00-03:00"), 30, TZ)).not.toThrow();
    expect(codeOf(() => checkAvailability(av, at("2026-11-26T23:45:00-03:00"), 30, TZ))?.code).toBe("ERR_USER_OUTSIDE_AVAILABILITY");
    // Friday: no slot that day; never set: no availability at all.
    expect(codeOf(() => checkAvailability(av, at("2026-11-27T09:00:00-03:00"), 30, TZ))).toEqual({ code: "ERR_USER_NO_AVAILABILITY_DAY", status: 409, field: "startAt" });
    expect(codeOf(() => checkAvailability(null, at("2026-11-25T09:00:00-03:00"), 30, TZ))?.code).toBe("ERR_USER_NO_AVAILABILITY_DAY");
    // The weekday is the tenant's: 02:00 UTC Thursday is still Wednesday 23:00 in São Paulo.
    expect(codeOf(() => checkAvailability(av, at("2026-11-26T02:00:00Z"), 30, TZ))?.code).toBe("ERR_USER_OUTSIDE_AVAILABILITY");
  });

  it("wants a service the user provides, and no overlap with the user's other appointments", () => {
    expect(codeOf(() => checkServiceUser({ users: [5, 6] }, 3))).toEqual({ code: "ERR_SERVICE_NOT_FOUND_FOR_USER", status: 404, field: "serviceId" });
    expect(() => checkServiceUser({ users: [3] }, 3)).not.toThrow();
    const others = [{ id: 9, startAt: 1000, endAt: 2000 }];
    expect(codeOf(() => checkNoConflict(others, 1500, 2500))).toEqual({ code: "ERR_SCHEDULE_CONFLICT", status: 409, field: "startAt" });
    expect(codeOf(() => checkNoConflict(others, 500, 1001))?.code).toBe("ERR_SCHEDULE_CONFLICT");
    expect(() => checkNoConflict(others, 2000, 3000)).not.toThrow();
    expect(() => checkNoConflict(others, 0, 1000)).not.toThrow();
    expect(() => checkNoConflict(others, 1500, 2500, 9)).not.toThrow();
  });

  it("counts a template's variables", () => {
    expect(templateVariables("Olá {{1}}, sua consulta é {{2}} às {{ 3 }}; até {{1}}")).toBe(3);
    expect(templateVariables("Sem variáveis")).toBe(0);
  });
});

describe("service rules", () => {
  const ok = { name: " Corte ", description: " Cabelo ", duration: 30, price: 45.5, users: [3, 3, 4] };
  it("requires name, duration and price, a price not negative, and users", () => {
    expect(checkService(ok)).toEqual({ name: "Corte", description: "Cabelo", duration: 30, price: 45.5, users: [3, 4] });
    expect(checkService({ ...ok, price: 0 }).price).toBe(0);
    expect(codeOf(() => checkService({ ...ok, name: " " }))).toEqual({ code: "ERR_APPOINTMENT_SERVICE_FIELDS_REQUIRED", status: 400, field: "name" });
    expect(codeOf(() => checkService({ ...ok, duration: 0 }))?.field).toBe("duration");
    expect(codeOf(() => checkService({ ...ok, duration: 12.5 }))?.field).toBe("duration");
    expect(codeOf(() => checkService({ ...ok, price: null }))?.field).toBe("price");
    expect(codeOf(() => checkService({ ...ok, price: -0.01 }))).toEqual({ code: "ERR_APPOINTMENT_SERVICE_PRICE_NEGATIVE", status: 400, field: "price" });
    expect(codeOf(() => checkService({ ...ok, users: [] }))).toEqual({ code: "ERR_APPOINTMENT_SERVICE_USERS_REQUIRED", status: 400, field: "users" });
  });
});
