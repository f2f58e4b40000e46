/**
 * The Excel export, streamed (exceljs's streaming WorkbookWriter, TESTING-NOTES §6): each row is
 * committed as it is read, no shared strings (they keep every distinct text in memory), and the
 * loop yields to the event loop every 500 rows and stops when the reader goes away.
 */
import { PassThrough, type Readable } from "node:stream";
import ExcelJS from "exceljs";
import { yieldToLoop, type ExportSpec } from "./export-common";

/** A sheet's name as Excel allows it: at most 31 characters, none of []:*?/\ . */
export function sheetName(title: string): string {
  return title.replace(/[[\]:*?/\\]/g, " ").trim().slice(0, 31) || "Sheet1";
}

export function streamXlsx(spec: ExportSpec): Readable {
  const out = new PassThrough();
  let closed = false;
  out.on("close", () => (closed = true));
  void (async () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet(sheetName(spec.title));
    ws.columns = spec.columns.map((c) => ({ key: c.key, width: c.width ?? 16, style: c.numFmt ? { numFmt: c.numFmt } : {} }));
    if (spec.subtitle) {
      ws.addRow([spec.title]).commit();
      ws.addRow([spec.subtitle]).commit();
    }
    const header = ws.addRow(spec.columns.map((c) => c.header));
    header.font = { bold: true };
    header.commit();
    let n = 0;
    for await (const row of spec.rows) {
      if (closed) break;
      ws.addRow(spec.columns.map((c) => row[c.key] ?? null)).commit();
      if (++n % 500 === 0) await yieldToLoop();
    }
    if (closed) {
      spec.onAbort?.();
      return;
    }
    ws.commit();
    await wb.commit();
  })().catch((err: Error) => {
    spec.onAbort?.(err);
    out.destroy(err);
  });
  return out;
}
