import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { CONTACT_IMPORT_HEADERS, foldHeader } from "@openatende/contracts/contact-fields";

/** Columns the import understands, by header (folded): the field table's import headers. */
const HEADER_INDEX = new Map<string, string>(Object.entries(CONTACT_IMPORT_HEADERS).flatMap(([field, headers]) => headers.map((h) => [h, field])));

/** The field a header names, or undefined for a column the import ignores. */
export function fieldOfHeader(h: string): string | undefined {
  return HEADER_INDEX.get(foldHeader(h));
}

export class CsvFormatError extends Error {
  constructor(
    public readonly reason: "empty" | "header" | "parse" | "too_many_rows",
    message: string,
  ) {
    super(message);
    this.name = "CsvFormatError";
  }
}

export interface CsvRow {
  /** Line of the file the row ends on (the header is line 1), as a spreadsheet shows it. */
  row: number;
  values: Record<string, string>;
}

/** The delimiter of the header line: the most frequent of , ; and tab outside quotes. */
function detectDelimiter(text: string): string {
  const first = text.split(/\r?\n/, 1)[0] ?? "";
  const unquoted = first.replace(/"[^"]*"/g, "");
  const counts = [",", ";", "\t"].map((d) => [d, unquoted.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ",";
}

/** A value a spreadsheet export protected against formula injection ("'=…") gets its quote back off. */
const unprotect = (v: string) => (/^'[=+\-@\t\r]/.test(v) ? v.slice(1) : v);

/**
 * Parses an import file: a header row, then one contact per row. Columns are matched by
 * name (see CONTACT_FIELDS' `imported`); unknown columns are ignored. The header must name at least a
 * name or a number column. Throws CsvFormatError when the file cannot be read.
 */
export function parseContactsCsv(text: string, maxRows = 100_000): { fields: string[]; rows: CsvRow[] } {
  const body = text.replace(/^\uFEFF/, "");
  if (!body.trim()) throw new CsvFormatError("empty", "the file is empty");
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(body, {
      delimiter: detectDelimiter(body),
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      trim: true,
      info: true,
    }) as unknown as Array<{ record: string[]; info: { lines: number } }>;
  } catch (err) {
    throw new CsvFormatError("parse", (err as Error).message);
  }
  const [header, ...data] = records;
  if (!header) throw new CsvFormatError("empty", "the file is empty");
  const columns = header.record.map((h) => fieldOfHeader(h));
  const fields = [...new Set(columns.filter((c): c is string => !!c))];
  if (!fields.includes("name") && !fields.includes("number")) {
    throw new CsvFormatError("header", "the header row names neither a name nor a number column");
  }
  if (data.length > maxRows) throw new CsvFormatError("too_many_rows", `at most ${maxRows} rows per file`);
  const rows: CsvRow[] = [];
  for (const r of data) {
    const values: Record<string, string> = {};
    columns.forEach((field, i) => {
      // The first column of a repeated header wins, unless it is empty.
      if (field && r.record[i] !== undefined && !values[field]) values[field] = unprotect(r.record[i]);
    });
    if (Object.values(values).every((v) => v === "")) continue;
    rows.push({ row: r.info.lines, values });
  }
  return { fields, rows };
}

/** Tag names of an import cell: separated by ";" (or "|" when the file itself uses ";"). */
export function splitTagNames(cell: string | undefined): string[] {
  if (!cell) return [];
  return [...new Set(cell.split(/[;|]/).map((s) => s.trim()).filter(Boolean))];
}

/** A cell a spreadsheet would run as a formula is written with a leading quote (CSV injection). */
function protect(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = v instanceof Date ? v.toISOString() : String(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** CSV text (RFC 4180, comma, CRLF) with a header row. */
export function toCsv(columns: string[], rows: Array<Record<string, unknown>>): string {
  return stringify(
    rows.map((r) => columns.map((c) => protect(r[c]))),
    { header: true, columns, record_delimiter: "\r\n", bom: false },
  );
}
