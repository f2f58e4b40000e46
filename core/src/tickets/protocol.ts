export interface ProtocolFormat {
  dateFormat: "" | "YYYYMMDD" | "YYMMDD" | "YYYYMM" | "YYYY";
  idPosition: "start" | "end";
  prefix?: string;
  suffix?: string;
  separator?: string;
}

function datePart(d: Date, fmt: ProtocolFormat["dateFormat"], timeZone: string): string {
  if (!fmt) return "";
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(d);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  const y = get("year");
  const m = get("month");
  const day = get("day");
  switch (fmt) {
    case "YYYYMMDD":
      return `${y}${m}${day}`;
    case "YYMMDD":
      return `${y.slice(2)}${m}${day}`;
    case "YYYYMM":
      return `${y}${m}`;
    case "YYYY":
      return y;
  }
}

/** The ticket's protocol number in the tenant's configured format (spec §3 General settings). */
export function formatProtocol(id: number, createdAt: Date, format: ProtocolFormat, timeZone = "America/Sao_Paulo"): string {
  const date = datePart(createdAt, format.dateFormat, timeZone);
  const sep = format.separator ?? "";
  const core = !date ? String(id) : format.idPosition === "start" ? `${id}${sep}${date}` : `${date}${sep}${id}`;
  return `${format.prefix ?? ""}${core}${format.suffix ?? ""}`;
}
