/**
 * The PDF export, streamed (pdfkit, TESTING-NOTES §6): an A4 landscape table whose header row is
 * drawn again at the top of every page, in a TrueType font that prints Cyrillic as well as
 * Portuguese and Spanish accents (pdfkit's standard fonts are WinAnsi only). Pages are flushed
 * as they fill; rows are read one at a time and the loop waits while the reader is behind.
 *
 * The font is DejaVu Sans from Debian's `fonts-dejavu-core` unless the caller names another.
 */
import * as fs from "node:fs";
import { PassThrough, type Readable } from "node:stream";
import { formatDecimal } from "./format";
import { yieldToLoop, type ExportCell, type ExportColumn, type ExportSpec } from "./export-common";

export const DEFAULT_PDF_FONTS = {
  regular: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  bold: "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
};

/** The part of pdfkit's document this export uses (pdfkit ships no types for node). */
interface PdfDoc extends Readable {
  page: { width: number; height: number; margins: { bottom: number } };
  y: number;
  registerFont(name: string, src: string): PdfDoc;
  font(name: string): PdfDoc;
  fontSize(n: number): PdfDoc;
  fillColor(c: string): PdfDoc;
  rect(x: number, y: number, w: number, h: number): PdfDoc;
  fill(c?: string): PdfDoc;
  moveTo(x: number, y: number): PdfDoc;
  lineTo(x: number, y: number): PdfDoc;
  strokeColor(c: string): PdfDoc;
  lineWidth(n: number): PdfDoc;
  stroke(): PdfDoc;
  text(s: string, x: number, y: number, opts?: Record<string, unknown>): PdfDoc;
  addPage(opts?: Record<string, unknown>): PdfDoc;
  end(): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const PDFDocument = require("pdfkit") as new (opts: Record<string, unknown>) => PdfDoc;

const MARGIN = 28;
const ROW_H = 14;
const HEADER_H = 16;
const FONT_SIZE = 7.5;
/** Past this much unread output the writer waits for the reader. */
const HIGH_WATER = 512 * 1024;

export interface PdfOptions {
  fonts?: { regular: string; bold: string };
  /** The footer's "page N" word per locale ("Página"). */
  pageLabel?: string;
}

export function cellText(c: ExportColumn, v: ExportCell): string {
  if (c.text) return c.text(v);
  if (v === null || v === undefined) return "";
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : formatDecimal(v);
  return String(v);
}

export function streamPdf(spec: ExportSpec, opts: PdfOptions = {}): Readable {
  const fonts = opts.fonts ?? DEFAULT_PDF_FONTS;
  for (const f of [fonts.regular, fonts.bold]) {
    if (!fs.existsSync(f)) throw new Error(`PDF font ${f} is missing (Debian package fonts-dejavu-core)`);
  }
  const out = new PassThrough();
  let closed = false;
  out.on("close", () => (closed = true));
  const doc = new PDFDocument({ size: "A4", layout: "landscape", margin: MARGIN, bufferPages: false, info: { Title: spec.title } });
  doc.registerFont("body", fonts.regular);
  doc.registerFont("bold", fonts.bold);
  doc.pipe(out);

  const width = doc.page.width - 2 * MARGIN;
  const weights = spec.columns.map((c) => c.weight ?? 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const widths = weights.map((w) => (w / total) * width);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const bottom = () => doc.page.height - MARGIN - 12;
  let page = 1;

  const footer = () => {
    // Below the bottom margin pdfkit would start a page for the text: the footer lives in the margin.
    doc.page.margins.bottom = 0;
    doc.font("body").fontSize(7).fillColor("#666666");
    doc.text(`${opts.pageLabel ?? "Page"} ${page}`, MARGIN, doc.page.height - MARGIN - 8, { width, align: "right", lineBreak: false });
  };
  const header = (y: number) => {
    doc.rect(MARGIN, y, width, HEADER_H).fill("#e8ecf1");
    doc.font("bold").fontSize(FONT_SIZE).fillColor("#1f2933");
    spec.columns.forEach((c, i) => doc.text(c.header, xs[i] + 3, y + 4, { width: widths[i] - 6, height: HEADER_H - 4, lineBreak: false, ellipsis: true }));
    return y + HEADER_H;
  };
  const newPage = () => {
    footer();
    doc.addPage();
    page++;
    return header(MARGIN);
  };

  void (async () => {
    doc.font("bold").fontSize(12).fillColor("#111111").text(spec.title, MARGIN, MARGIN, { width, lineBreak: false });
    let y = MARGIN + 18;
    if (spec.subtitle) {
      doc.font("body").fontSize(8).fillColor("#444444").text(spec.subtitle, MARGIN, y, { width, lineBreak: false, ellipsis: true });
      y += 14;
    }
    y = header(y);
    let n = 0;
    for await (const row of spec.rows) {
      if (closed) break;
      if (y + ROW_H > bottom()) y = newPage();
      doc.font("body").fontSize(FONT_SIZE).fillColor("#111111");
      spec.columns.forEach((c, i) => doc.text(cellText(c, row[c.key] ?? null), xs[i] + 3, y + 3.5, { width: widths[i] - 6, height: ROW_H - 3, lineBreak: false, ellipsis: true }));
      doc.moveTo(MARGIN, y + ROW_H).lineTo(MARGIN + width, y + ROW_H).lineWidth(0.3).strokeColor("#d0d5db").stroke();
      y += ROW_H;
      if (++n % 200 === 0) {
        await yieldToLoop();
        while (!closed && doc.readableLength > HIGH_WATER) await new Promise((r) => setTimeout(r, 5));
      }
    }
    if (closed) {
      spec.onAbort?.();
      doc.unpipe(out);
      return;
    }
    footer();
    doc.end();
  })().catch((err: Error) => {
    spec.onAbort?.(err);
    out.destroy(err);
  });
  return out;
}
