/**
 * The CSV export of the notes list: RFC 4180 (comma, CRLF, quotes doubled), a header row, and
 * a cell a spreadsheet would run as a formula written with a leading quote (CSV injection).
 */
import type { PlatformNote } from "@openatende/plugin-sdk";

export const CSV_COLUMNS = ["kind", "createdAt", "contactId", "contactName", "userName", "title", "body", "ticketId"] as const;

function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function notesCsv(rows: PlatformNote[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const n of rows) {
    const r: Record<(typeof CSV_COLUMNS)[number], unknown> = {
      kind: n.kind,
      createdAt: n.createdAt,
      contactId: n.contactId,
      contactName: n.contactName,
      userName: n.userName,
      title: n.title,
      body: n.body,
      ticketId: n.kind === "ticket" ? n.targetId : null,
    };
    lines.push(CSV_COLUMNS.map((c) => cell(r[c])).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
