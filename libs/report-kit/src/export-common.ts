/**
 * What both streamed exports share: the columns a report exports, the rows it hands over one at
 * a time (an async iterable paging through the projection, never a list of every row), and how a
 * route answers a stream (moleculer-web pipes a Readable result and applies these meta fields).
 */
import { attachmentDisposition, REPORT_EXPORT_MIME, type ReportExportFormat } from "@openatende/plugin-sdk";

export type ExportCell = string | number | Date | null;

export interface ExportColumn {
  key: string;
  header: string;
  /** Excel column width in characters (default 16). */
  width?: number;
  /** Share of the PDF page's width (default 1: the columns split it by these weights). */
  weight?: number;
  /** Excel number format for a number cell ("0.00"); PDF prints numbers with formatDecimal unless `text` formats them. */
  numFmt?: string;
  /** PDF: the text of a cell (default: String(value), dates as ISO). */
  text?: (v: ExportCell) => string;
}

export interface ExportSpec {
  /** The sheet's name / the PDF's title line. */
  title: string;
  /** A second line of the PDF (the period and filters); the Excel file's first rows when given. */
  subtitle?: string;
  columns: ExportColumn[];
  rows: AsyncIterable<Record<string, ExportCell>>;
  /** Called once when the stream ended early (the reader went away) or failed. */
  onAbort?: (err?: Error) => void;
}

/** The fields of `ctx.meta` that make moleculer-web answer a download. */
export function downloadMeta(format: ReportExportFormat, filename: string): { $responseType: string; $responseHeaders: Record<string, string> } {
  return {
    $responseType: REPORT_EXPORT_MIME[format],
    $responseHeaders: { "Content-Disposition": attachmentDisposition(filename), "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  };
}

/** Sets the download fields on a moleculer context's meta. */
export function answerDownload(ctx: { meta: object }, format: ReportExportFormat, filename: string): void {
  Object.assign(ctx.meta, downloadMeta(format, filename));
}

/** Lets the event loop run (other requests, lock renewals) while a long export writes. */
export const yieldToLoop = () => new Promise<void>((r) => setImmediate(r));
