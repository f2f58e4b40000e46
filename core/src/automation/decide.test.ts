import type { SmartCloseSettings, TimeState } from "@openatende/contracts/business-time";
import { fillText, firstNameOf, outOfHoursAction } from "./decide";

const closed = (over: Partial<TimeState> = {}): TimeState => ({
  open: false,
  reason: "closed",
  message: "Fora do horário",
  scheduleId: 1,
  holidayId: null,
  period: 1_000,
  nextOpenAt: 1_000,
  openWithin24h: true,
  nextDayHasHours: true,
  ...over,
});
const off: SmartCloseSettings = { enabled: false, window24h: false, outOfOfficeMessage: "OOO", noNextDayMessage: "Sem expediente", lunchMessage: "Almoço" };
const on: SmartCloseSettings = { ...off, enabled: true };

describe("outOfHoursAction", () => {
  it("an open state asks nothing", () => {
    expect(outOfHoursAction({ ...closed(), open: true, reason: "open", message: null, period: null }, on)).toEqual({ kind: "none" });
  });

  it("without smart close: the state's message once per its period, nothing when it has none", () => {
    expect(outOfHoursAction(closed(), off)).toEqual({ kind: "notice", text: "Fora do horário", period: 1_000 });
    expect(outOfHoursAction(closed({ openWithin24h: false }), off)).toEqual({ kind: "notice", text: "Fora do horário", period: 1_000 });
    expect(outOfHoursAction(closed({ message: "  " }), off)).toEqual({ kind: "none" });
    expect(outOfHoursAction(closed({ period: null }), off)).toEqual({ kind: "notice", text: "Fora do horário", period: -1 });
  });

  it("smart close closes when no hours fall in the next 24 h, with its no-next-day text or the state's", () => {
    expect(outOfHoursAction(closed({ openWithin24h: false, nextDayHasHours: false }), on)).toEqual({ kind: "smartClose", text: "Sem expediente", period: 1_000 });
    expect(outOfHoursAction(closed({ openWithin24h: false, nextDayHasHours: false }), { ...on, noNextDayMessage: "" })).toEqual({ kind: "smartClose", text: "Fora do horário", period: 1_000 });
    expect(outOfHoursAction(closed({ openWithin24h: false, message: null }), { ...on, noNextDayMessage: null })).toEqual({ kind: "smartClose", text: null, period: 1_000 });
  });

  it("with the 24-hour window it waits when the next day has hours, and closes when it has none", () => {
    const window = { ...on, window24h: true };
    expect(outOfHoursAction(closed({ openWithin24h: false, nextDayHasHours: true }), window)).toEqual({ kind: "notice", text: "OOO", period: 1_000 });
    expect(outOfHoursAction(closed({ openWithin24h: false, nextDayHasHours: false }), window).kind).toBe("smartClose");
  });

  it("smart close's own texts replace the plain ones: lunch during lunch, out-of-office otherwise, the holiday's own on a holiday", () => {
    expect(outOfHoursAction(closed({ reason: "lunch", message: "Almoço da fila" }), on)).toMatchObject({ text: "Almoço" });
    expect(outOfHoursAction(closed({ reason: "lunch", message: "Almoço da fila" }), { ...on, lunchMessage: null })).toMatchObject({ text: "Almoço da fila" });
    expect(outOfHoursAction(closed(), on)).toMatchObject({ text: "OOO" });
    expect(outOfHoursAction(closed(), { ...on, outOfOfficeMessage: "" })).toMatchObject({ text: "Fora do horário" });
    expect(outOfHoursAction(closed({ reason: "holiday", message: "Feliz Natal" }), on)).toMatchObject({ text: "Feliz Natal" });
    expect(outOfHoursAction(closed({ reason: "holiday", message: null }), on)).toMatchObject({ text: "OOO" });
    expect(outOfHoursAction(closed({ message: null }), { ...on, outOfOfficeMessage: null })).toEqual({ kind: "none" });
  });
});

describe("automatic texts", () => {
  it("fills {{name}} and {{protocol}} in any case and spacing, leaving other braces alone", () => {
    expect(fillText("Olá {{name}}, protocolo {{ PROTOCOL }} {{other}}", { name: "Ana", protocol: "2026-7" })).toBe("Olá Ana, protocolo 2026-7 {{other}}");
  });

  it("calls the contact by its first name, or the first word of its name", () => {
    expect(firstNameOf({ name: "Ana Maria Souza", firstName: "Aninha" })).toBe("Aninha");
    expect(firstNameOf({ name: "Ana Maria Souza", firstName: " " })).toBe("Ana");
    expect(firstNameOf(null)).toBe("");
  });
});
