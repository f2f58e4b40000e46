/**
 * `npm run bench:business-time`: what "is it open for this ticket" costs, the question every
 * inbound message asks while the automation runs (core/src/business-time/rules.ts timeState).
 * Pure: no database (the service answers it from a per-tenant cache). Prints JSON.
 *
 * A realistic tenant: its global schedule (Mon–Fri with lunch, Saturday mornings), 20 queue
 * schedules, 10 user schedules, 12 national holidays (yearly) and 5 dated ones. Cases:
 *  - open: a Wednesday 10:00 (the queue's day) (open now, next 24 h answered at once);
 *  - friday-night: Friday 22:00 (closed; next opening is Monday; the 24 h look-ahead and the next day);
 *  - holiday-eve: the evening before a holiday on a Monday;
 *  - cold: a new instant each call across a year (no memoised wall-clock conversions reused).
 * For each: calls/s and the p50/p99 of one call over `--calls` calls (default 20000).
 */
import { performance } from "node:perf_hooks";
import { timeState } from "../src/business-time/rules";
import { holiday, input, instant, schedule, specific, week } from "../src/business-time/test-fixtures";
import { benchArg } from "./common";

const CALLS = benchArg("calls", 20000);
const TZ = "America/Sao_Paulo";

const weekdays = specific("08:00-12:00", "13:00-18:00");
const hours = [
  schedule({ id: 1, type: "global", targetIds: [], days: week({ 1: weekdays, 2: weekdays, 3: weekdays, 4: weekdays, 5: weekdays, 6: specific("09:00-13:00") }), messages: { outOfHours: "Fora do horário" } }),
  ...Array.from({ length: 20 }, (_, i) => schedule({ id: 10 + i, type: "queue", targetIds: [100 + i], days: week({ 1: weekdays, 3: weekdays, 5: weekdays }) })),
  ...Array.from({ length: 10 }, (_, i) => schedule({ id: 40 + i, type: "user", targetIds: [200 + i], days: week({ 2: specific("10:00-16:00"), 4: specific("10:00-16:00") }) })),
];
const holidays = [
  ...["01-01", "04-21", "05-01", "09-07", "10-12", "11-02", "11-15", "11-20", "12-25", "12-24", "12-31", "06-04"].map((md, i) => holiday({ id: i + 1, date: `2026-${md}`, yearly: true })),
  ...["2026-02-16", "2026-02-17", "2026-04-03", "2026-06-04", "2026-12-07"].map((date, i) => holiday({ id: 50 + i, date })),
];
const rules = input(TZ, hours, holidays);
const target = { queueId: 105, userId: null, connectionId: 1 };

function measure(name: string, at: (i: number) => number) {
  const times: number[] = [];
  let last: ReturnType<typeof timeState> | undefined;
  const start = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    last = timeState(rules, target, at(i));
    times.push(performance.now() - t0);
  }
  const total = performance.now() - start;
  times.sort((a, b) => a - b);
  const q = (p: number) => Number(times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(4));
  return { case: name, calls: CALLS, callsPerSecond: Math.round(CALLS / (total / 1000)), p50Ms: q(0.5), p99Ms: q(0.99), reason: last?.reason };
}

const YEAR_MS = 365 * 24 * 3_600_000;
const results = [
  measure("open", () => instant("2026-03-11T10:00", "-03:00")),
  measure("friday-night", () => instant("2026-03-13T22:00", "-03:00")),
  measure("holiday-eve", () => instant("2026-09-06T20:00", "-03:00")),
  measure("cold", (i) => instant("2026-01-01T00:00", "-03:00") + ((i * 7_919_993) % YEAR_MS)),
];
console.log(JSON.stringify({ bench: "business-time", node: process.version, timeZone: TZ, schedules: hours.length, holidays: holidays.length, results }, null, 2));
