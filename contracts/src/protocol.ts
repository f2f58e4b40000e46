/**
 * The ticket protocol of spec §3 General settings (tenant setting `protocol`): the core numbers
 * each new ticket with it (core/src/tickets/log-notes.ts) and the general settings screen
 * previews it live, by this one rule.
 */
export const DATE_FORMATS = ["YYYYMMDD", "YYMMDD", "YYYYMM", "YYYY", ""] as const;
export const ID_POSITIONS = ["end", "start"] as const;

export interface ProtocolFormat {
  dateFormat: (typeof DATE_FORMATS)[number];
  idPosition: (typeof ID_POSITIONS)[number];
  prefix?: string;
  suffix?: string;
  separator?: string;
}

/** The date part of a protocol: the calendar day in the tenant's time zone. */
function datePart(at: Date, fmt: ProtocolFormat["dateFormat"], timeZone: string): string {
  if (!fmt) return "";
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const year = part("year");
  const month = part("month");
  const day = part("day");
  if (fmt === "YYYYMMDD") return year + month + day;
  if (fmt === "YYMMDD") return year.slice(2) + month + day;
  if (fmt === "YYYYMM") return year + month;
  return year;
}

/** Prefix, then the date and the ticket id in the chosen order joined by the separator, then the suffix; no date: the id alone. */
export function formatProtocol(id: number, at: Date, format: ProtocolFormat, timeZone = "America/Sao_Paulo"): string {
  const date = datePart(at, format.dateFormat, timeZone);
  const separator = format.separator ?? "";
  const middle = !date ? String(id) : format.idPosition === "start" ? [id, date].join(separator) : [date, id].join(separator);
  return (format.prefix ?? "") + middle + (format.suffix ?? "");
}
