/**
 * iCalendar (RFC 5545) text of appointments, for the calendar's .ics download: CRLF line
 * ends (§3.1), TEXT values escaped (§3.3.11: backslash, semicolon, comma, newlines), lines
 * folded at 75 octets without splitting a UTF-8 character (§3.1), times in UTC (a `Z` time needs
 * no VTIMEZONE), and a stable UID per appointment so a re-import updates instead of duplicating.
 */
export interface IcsEvent {
  uid: string;
  start: number;
  end: number;
  summary: string;
  description?: string | null;
  /** Bumped when the appointment changes (epoch ms of its last change is fine). */
  sequence?: number;
}

const CRLF = "\r\n";

export function escapeText(s: string): string {
  return s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r\n|\r|\n/g, "\\n");
}

/** 20261125T130000Z */
export function icsTime(t: number): string {
  return new Date(t).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}

/** Splits a content line into lines of at most 75 octets, each continuation starting with one space. */
export function fold(line: string): string {
  const out: string[] = [];
  let cur = "";
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, "utf8");
    // The first line holds 75 octets; a continuation's leading space counts, so 74 more.
    const limit = out.length === 0 ? 75 : 74;
    if (bytes + n > limit) {
      out.push(cur);
      cur = "";
      bytes = 0;
    }
    cur += ch;
    bytes += n;
  }
  out.push(cur);
  return out.join(`${CRLF} `);
}

export function toIcs(events: IcsEvent[], opts: { now: number; name?: string }): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//OpenAtende//Agendamentos//PT", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"];
  if (opts.name) lines.push(`X-WR-CALNAME:${escapeText(opts.name)}`);
  for (const e of events) {
    lines.push("BEGIN:VEVENT", `UID:${e.uid}`, `DTSTAMP:${icsTime(opts.now)}`, `DTSTART:${icsTime(e.start)}`, `DTEND:${icsTime(e.end)}`, `SUMMARY:${escapeText(e.summary)}`);
    if (e.description) lines.push(`DESCRIPTION:${escapeText(e.description)}`);
    if (e.sequence !== undefined) lines.push(`SEQUENCE:${e.sequence}`);
    lines.push("END:VEVENT");
  }
  lines.push("END:VCALENDAR");
  return lines.map(fold).join(CRLF) + CRLF;
}
