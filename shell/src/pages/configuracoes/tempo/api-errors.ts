import { ApiError } from "../../../api/client";
import type { Weekday } from "./types";

/**
 * The weekday an API error about hours names (ERR_BUSINESS_HOURS_INVALID_RANGE, or a
 * validation error of `days.N…`), with its message, so the week editor marks that day's row.
 */
export function dayErrorsOf(e: unknown): Partial<Record<Weekday, string>> {
  if (!(e instanceof ApiError)) return {};
  const field = typeof e.data.field === "string" ? e.data.field : "";
  const m = /^days[.[](\d)/.exec(field);
  const wd = m ? Number(m[1]) : typeof e.data.weekday === "number" ? e.data.weekday : null;
  if (wd === null || wd < 0 || wd > 6) return {};
  return { [wd as Weekday]: e.detail || e.title };
}

/** Whether an API error is the "choose at least one target" one (shown on the targets field). */
export const isTargetError = (e: unknown) => e instanceof ApiError && (e.code === "ERR_BUSINESS_HOURS_TARGET_REQUIRED" || (e.code === "ERR_VALIDATION" && e.data.field === "targetIds"));
