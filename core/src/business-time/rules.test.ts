import { applicableSchedule, closesAt, isOpenAt, nextOpenAt, openStretches, openWithin, timeState } from "./rules";
import { HOUR, OPEN, holiday, input, instant, schedule, specific, week } from "./test-fixtures";

const TZ = "America/Sao_Paulo"; // -03:00 all year since 2019
const sp = (wall: string) => instant(wall, "-03:00");
const ticket = { userId: 3, queueId: 5, connectionId: 7 };

describe("applicableSchedule: which schedule decides", () => {
  const global = schedule({ id: 10, type: "global" });
  const whatsapp = schedule({ id: 11, type: "whatsapp", targetIds: [7] });
  const queue = schedule({ id: 12, type: "queue", targetIds: [4, 5] });
  const user = schedule({ id: 13, type: "user", targetIds: [3] });

  it("the ticket's user, then its queue, then its connection, then the global one", () => {
    const all = [global, whatsapp, queue, user];
    expect(applicableSchedule(all, ticket)?.id).toBe(13);
    expect(applicableSchedule(all, { queueId: 5, connectionId: 7 })?.id).toBe(12);
    expect(applicableSchedule(all, { connectionId: 7 })?.id).toBe(11);
    expect(applicableSchedule(all, {})?.id).toBe(10);
  });

  it("only schedules whose targets name the ticket's ids", () => {
    const all = [global, whatsapp, queue, user];
    expect(applicableSchedule(all, { userId: 99, queueId: 99, connectionId: 99 })?.id).toBe(10);
    // a queue schedule is not a connection schedule with the same number
    expect(applicableSchedule([global, queue], { connectionId: 5 })?.id).toBe(10);
  });

  it("ignores inactive schedules, falling back to the next kind", () => {
    const off = { ...user, active: false };
    expect(applicableSchedule([global, queue, off], ticket)?.id).toBe(12);
    expect(applicableSchedule([{ ...global, active: false }], ticket)).toBeNull();
  });

  it("none: null", () => {
    expect(applicableSchedule([], ticket)).toBeNull();
  });
});

describe("timeState on an office week (Mon–Fri 09–12 and 13–18, São Paulo)", () => {
  const office = schedule({ id: 1, messages: { outOfHours: "Fechado agora", lunch: "Almoço", holiday: "Feriado" } });
  const rules = input(TZ, [office]);

  it("open in the morning", () => {
    expect(timeState(rules, ticket, sp("2026-11-23T10:00"))).toEqual({
      open: true,
      reason: "open",
      message: null,
      scheduleId: 1,
      holidayId: null,
      period: null,
      nextOpenAt: null,
      openWithin24h: true,
      nextDayHasHours: true,
    });
  });

  it("closed on a weekday evening: opens the next morning, within 24 h", () => {
    const s = timeState(rules, ticket, sp("2026-11-23T18:00"));
    expect(s).toMatchObject({ open: false, reason: "closed", message: "Fechado agora", scheduleId: 1, holidayId: null });
    expect(s.nextOpenAt).toBe(sp("2026-11-24T09:00"));
    expect(s.period).toBe(s.nextOpenAt);
    expect(s.openWithin24h).toBe(true);
    expect(s.nextDayHasHours).toBe(true);
  });

  it("the same closed period has the same key all night, and a new one after the next day's hours", () => {
    const evening = timeState(rules, ticket, sp("2026-11-23T19:00")).period;
    expect(timeState(rules, ticket, sp("2026-11-24T08:59")).period).toBe(evening);
    expect(timeState(rules, ticket, sp("2026-11-24T18:30")).period).not.toBe(evening);
  });

  it("lunch between the morning's end and the afternoon's start (ends exclusive)", () => {
    expect(isOpenAt(rules, ticket, sp("2026-11-23T11:59"))).toBe(true);
    const lunch = timeState(rules, ticket, sp("2026-11-23T12:00"));
    expect(lunch).toMatchObject({ open: false, reason: "lunch", message: "Almoço", nextOpenAt: sp("2026-11-23T13:00") });
    expect(timeState(rules, ticket, sp("2026-11-23T12:59")).reason).toBe("lunch");
    expect(isOpenAt(rules, ticket, sp("2026-11-23T13:00"))).toBe(true);
    // before the morning it is plain closed, not lunch
    expect(timeState(rules, ticket, sp("2026-11-23T08:00")).reason).toBe("closed");
  });

  it("Friday evening: next opening is Monday 09:00, nothing in 24 h, no hours tomorrow", () => {
    const s = timeState(rules, ticket, sp("2026-11-27T18:30"));
    expect(s.nextOpenAt).toBe(sp("2026-11-30T09:00"));
    expect(s.openWithin24h).toBe(false);
    expect(s.nextDayHasHours).toBe(false);
  });

  it("Sunday morning: Monday has hours although its opening is more than 24 h away", () => {
    const s = timeState(rules, ticket, sp("2026-11-29T08:00"));
    expect(s.openWithin24h).toBe(false);
    expect(s.nextDayHasHours).toBe(true);
    expect(timeState(rules, ticket, sp("2026-11-29T09:30")).openWithin24h).toBe(true);
  });

  it("nextOpenAt is the instant itself when open, openWithin counts the window's end as outside", () => {
    expect(nextOpenAt(rules, ticket, sp("2026-11-23T10:00"))).toBe(sp("2026-11-23T10:00"));
    expect(openWithin(rules, ticket, sp("2026-11-23T18:00"), 15 * HOUR)).toBe(false); // opens at exactly +15 h
    expect(openWithin(rules, ticket, sp("2026-11-23T18:00"), 15 * HOUR + 1)).toBe(true);
  });
});

describe("messages: the most specific one", () => {
  const global = schedule({ id: 1, messages: { outOfHours: "global fora", lunch: "global almoço", holiday: "global feriado" } });

  it("a queue schedule's own message overrides the global one", () => {
    const queue = schedule({ id: 2, type: "queue", targetIds: [5], messages: { outOfHours: "fila fora" } });
    const s = timeState(input(TZ, [global, queue]), ticket, sp("2026-11-23T20:00"));
    expect(s).toMatchObject({ scheduleId: 2, message: "fila fora" });
  });

  it("without its own message (or a blank one) the global schedule's message for that reason", () => {
    const queue = schedule({ id: 2, type: "queue", targetIds: [5], messages: { outOfHours: "  ", lunch: null } });
    const rules = input(TZ, [global, queue]);
    expect(timeState(rules, ticket, sp("2026-11-23T20:00")).message).toBe("global fora");
    expect(timeState(rules, ticket, sp("2026-11-23T12:30")).message).toBe("global almoço");
  });

  it("a holiday's own message beats both schedules; without one, the schedules' holiday messages", () => {
    const queue = schedule({ id: 2, type: "queue", targetIds: [5], messages: { holiday: "fila feriado" } });
    const noon = sp("2026-12-25T12:00");
    const own = holiday({ id: 30, date: "2026-12-25", message: "Feliz Natal" });
    expect(timeState(input(TZ, [global, queue], [own]), ticket, noon)).toMatchObject({ reason: "holiday", holidayId: 30, message: "Feliz Natal" });
    const bare = holiday({ id: 31, date: "2026-12-25" });
    expect(timeState(input(TZ, [global, queue], [bare]), ticket, noon).message).toBe("fila feriado");
    expect(timeState(input(TZ, [global], [bare]), ticket, noon).message).toBe("global feriado");
  });

  it("null when nobody wrote one", () => {
    expect(timeState(input(TZ, [schedule({ id: 3 })]), ticket, sp("2026-11-23T20:00")).message).toBeNull();
  });
});

describe("holidays", () => {
  const office = schedule({ id: 1 });

  it("a dated global holiday closes its whole local day, for any target, and the next opening skips it", () => {
    const natal = holiday({ id: 40, date: "2026-12-25" }); // a Friday
    const rules = input(TZ, [office, schedule({ id: 2, type: "queue", targetIds: [5] })], [natal]);
    const s = timeState(rules, ticket, sp("2026-12-25T10:00"));
    expect(s).toMatchObject({ open: false, reason: "holiday", holidayId: 40, scheduleId: 2 });
    expect(s.nextOpenAt).toBe(sp("2026-12-28T09:00"));
    // the evening before: next opening jumps the holiday and the weekend
    const eve = timeState(rules, ticket, sp("2026-12-24T18:00"));
    expect(eve).toMatchObject({ reason: "closed", holidayId: null, nextOpenAt: sp("2026-12-28T09:00"), nextDayHasHours: false, openWithin24h: false });
    // only that day: the days around it stay as they were
    expect(isOpenAt(rules, ticket, sp("2026-12-24T17:59"))).toBe(true);
  });

  it("a yearly holiday matches its month and day in every year; a dated one only its year", () => {
    const tiradentes = holiday({ date: "2020-04-21", yearly: true });
    const once = holiday({ date: "2026-05-01" });
    const rules = input(TZ, [schedule({ days: week({ 1: OPEN, 2: OPEN, 3: OPEN, 4: OPEN, 5: OPEN }) })], [tiradentes, once]);
    expect(timeState(rules, ticket, sp("2026-04-21T10:00")).reason).toBe("holiday"); // Tuesday
    expect(timeState(rules, ticket, sp("2027-04-21T10:00")).reason).toBe("holiday"); // Wednesday
    expect(isOpenAt(rules, ticket, sp("2026-04-22T10:00"))).toBe(true);
    expect(timeState(rules, ticket, sp("2026-05-01T10:00")).reason).toBe("holiday");
    expect(isOpenAt(rules, ticket, sp("2031-05-01T10:00"))).toBe(true); // a Thursday
  });

  it("a targeted holiday closes only the queue, user or connection it names", () => {
    const monday = sp("2026-11-23T10:00");
    const forQueue = holiday({ date: "2026-11-23", type: "queue", targetIds: [5] });
    const forUser = holiday({ date: "2026-11-23", type: "user", targetIds: [3] });
    const forConnection = holiday({ date: "2026-11-23", type: "whatsapp", targetIds: [7] });
    for (const h of [forQueue, forUser, forConnection]) {
      const rules = input(TZ, [office], [h]);
      expect(timeState(rules, ticket, monday)).toMatchObject({ reason: "holiday", holidayId: h.id });
      expect(isOpenAt(rules, { userId: 8, queueId: 6, connectionId: 9 }, monday)).toBe(true);
    }
  });

  it("the most specific holiday of a day is the one reported", () => {
    const general = holiday({ id: 50, date: "2026-11-23", message: "geral" });
    const queue = holiday({ id: 51, date: "2026-11-23", type: "queue", targetIds: [5], message: "fila" });
    const s = timeState(input(TZ, [office], [general, queue]), ticket, sp("2026-11-23T10:00"));
    expect(s).toMatchObject({ holidayId: 51, message: "fila" });
    expect(timeState(input(TZ, [office], [general, queue]), { queueId: 6 }, sp("2026-11-23T10:00")).holidayId).toBe(50);
  });

  it("the holiday's day is local: the evening before in São Paulo is already the 25th in UTC", () => {
    const always = schedule({ days: week({ 0: OPEN, 1: OPEN, 2: OPEN, 3: OPEN, 4: OPEN, 5: OPEN, 6: OPEN }) });
    const rules = input(TZ, [always], [holiday({ date: "2026-12-25" })]);
    expect(isOpenAt(rules, ticket, Date.parse("2026-12-25T02:00:00Z"))).toBe(true); // 24th, 23:00 local
    expect(isOpenAt(rules, ticket, Date.parse("2026-12-25T03:00:00Z"))).toBe(false); // 25th, 00:00 local
    expect(nextOpenAt(rules, ticket, Date.parse("2026-12-25T03:00:00Z"))).toBe(sp("2026-12-26T00:00"));
  });

  it("a holiday closes even a target no schedule covers", () => {
    const s = timeState(input(TZ, [], [holiday({ id: 60, date: "2026-11-23", message: "fechado" })]), ticket, sp("2026-11-23T10:00"));
    expect(s).toMatchObject({ open: false, reason: "holiday", holidayId: 60, scheduleId: null, message: "fechado", nextOpenAt: sp("2026-11-24T00:00") });
  });
});

describe("no schedule: always open", () => {
  it("reason unscheduled, and inactive schedules do not count", () => {
    const s = timeState(input(TZ, [schedule({ active: false })]), ticket, sp("2026-11-28T03:00"));
    expect(s).toEqual({ open: true, reason: "unscheduled", message: null, scheduleId: null, holidayId: null, period: null, nextOpenAt: null, openWithin24h: true, nextDayHasHours: true });
    expect(closesAt(input(TZ, []), ticket, sp("2026-11-28T03:00"))).toBeNull();
  });
});

describe("day modes and stretches across midnight", () => {
  it("a closed week never opens: no next opening, period -1", () => {
    const s = timeState(input(TZ, [schedule({ days: week({}) })]), ticket, sp("2026-11-23T10:00"));
    expect(s).toMatchObject({ open: false, reason: "closed", nextOpenAt: null, period: -1, openWithin24h: false, nextDayHasHours: false });
  });

  it("Friday open all day and Saturday 00:00–02:00 are one stretch", () => {
    const rules = input(TZ, [schedule({ days: week({ 5: OPEN, 6: specific("00:00-02:00") }) })]);
    expect(isOpenAt(rules, ticket, sp("2026-11-27T23:59"))).toBe(true);
    expect(isOpenAt(rules, ticket, sp("2026-11-28T00:00"))).toBe(true);
    expect(isOpenAt(rules, ticket, sp("2026-11-28T02:00"))).toBe(false);
    expect(closesAt(rules, ticket, sp("2026-11-27T10:00"))).toBe(sp("2026-11-28T02:00"));
    expect(openStretches(rules, ticket, sp("2026-11-26T00:00"), sp("2026-12-01T00:00"))).toEqual([{ start: sp("2026-11-27T00:00"), end: sp("2026-11-28T02:00") }]);
  });

  it("an evening range to 24:00 runs into the next morning's range from 00:00", () => {
    const rules = input(TZ, [schedule({ days: week({ 5: specific(null, "18:00-24:00"), 6: specific("00:00-02:00", "10:00-12:00") }) })]);
    expect(closesAt(rules, ticket, sp("2026-11-27T19:00"))).toBe(sp("2026-11-28T02:00"));
    const s = timeState(rules, ticket, sp("2026-11-28T03:00"));
    expect(s).toMatchObject({ reason: "lunch", nextOpenAt: sp("2026-11-28T10:00") }); // the gap between Saturday's two ranges
    expect(openStretches(rules, ticket, sp("2026-11-27T20:00"), sp("2026-11-28T11:00"))).toEqual([
      { start: sp("2026-11-27T20:00"), end: sp("2026-11-28T02:00") },
      { start: sp("2026-11-28T10:00"), end: sp("2026-11-28T11:00") },
    ]);
  });

  it("ranges close at their end minute, open mode covers the whole day", () => {
    const rules = input(TZ, [schedule({ days: week({ 1: specific("08:00-08:30"), 2: OPEN }) })]);
    expect(isOpenAt(rules, ticket, sp("2026-11-23T08:29"))).toBe(true);
    expect(isOpenAt(rules, ticket, sp("2026-11-23T08:30"))).toBe(false);
    expect(nextOpenAt(rules, ticket, sp("2026-11-23T08:30"))).toBe(sp("2026-11-24T00:00"));
    expect(closesAt(rules, ticket, sp("2026-11-24T12:00"))).toBe(sp("2026-11-25T00:00"));
    expect(closesAt(rules, ticket, sp("2026-11-23T09:00"))).toBeNull(); // closed then
  });
});

describe("cost", () => {
  it("a closed weekend is answered by stepping days, not minutes", () => {
    const spy = jest.spyOn(Intl.DateTimeFormat.prototype, "formatToParts");
    try {
      const rules = input(TZ, [schedule({ messages: { outOfHours: "x" } })], [holiday({ date: "2026-11-30" })]);
      const s = timeState(rules, ticket, sp("2026-11-27T18:30"));
      expect(s.nextOpenAt).toBe(sp("2026-12-01T09:00"));
      expect(spy.mock.calls.length).toBeLessThan(60);
      spy.mockClear();
      // a year of closed days costs no more
      timeState(input(TZ, [schedule({ days: week({}) })]), ticket, sp("2026-11-27T18:30"));
      expect(spy.mock.calls.length).toBeLessThan(10);
    } finally {
      spy.mockRestore();
    }
  });
});
