/**
 * Both exports read back: the Excel file parsed with exceljs, the PDF's text extracted with
 * pdf-parse; Cyrillic and accents survive, the PDF repeats its header row on every page, rows
 * come from an async source one at a time, and a reader that goes away stops the writer.
 */
import ExcelJS from "exceljs";
import { answerDownload, type ExportSpec } from "./export-common";
import { streamPdf } from "./export-pdf";
import { sheetName, streamXlsx } from "./export-xlsx";
import { formatDecimal } from "./format";
import { pdfText, readAll } from "./pdf-text";

const columns = [
  { key: "id", header: "Ticket", width: 8, weight: 0.6 },
  { key: "name", header: "Имя / Nome", width: 30, weight: 2 },
  { key: "minutes", header: "Minutos", width: 10, numFmt: "0.00", text: (v: unknown) => formatDecimal(v as number) },
];

function spec(n: number, pulled: { count: number }, onAbort?: () => void): ExportSpec {
  async function* rows() {
    for (let i = 1; i <= n; i++) {
      pulled.count++;
      yield { id: i, name: i % 2 ? `Сергей Иванов ${i}` : `João Conceição ${i}`, minutes: i + 0.5 };
    }
  }
  return { title: "Relatório de tickets — Отчёт", subtitle: "01/11/2026 – 30/11/2026", columns, rows: rows(), onAbort };
}

describe("streamed exports", () => {
  it("writes an Excel sheet that reads back with its header, rows, numbers and Cyrillic", async () => {
    const pulled = { count: 0 };
    const buf = await readAll(streamXlsx(spec(1200, pulled)));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe("Relatório de tickets — Отчёт");
    expect(ws.getRow(1).getCell(1).value).toBe("Relatório de tickets — Отчёт");
    expect(ws.getRow(3).values).toEqual([undefined, "Ticket", "Имя / Nome", "Minutos"]);
    expect(ws.getRow(4).values).toEqual([undefined, 1, "Сергей Иванов 1", 1.5]);
    expect(ws.getRow(5).values).toEqual([undefined, 2, "João Conceição 2", 2.5]);
    expect(ws.rowCount).toBe(1203);
    expect(pulled.count).toBe(1200);
  });

  it("writes a PDF whose every page starts with the header row, in a font that prints Cyrillic", async () => {
    const pulled = { count: 0 };
    const buf = await readAll(streamPdf(spec(120, pulled), { pageLabel: "Página" }));
    expect(buf.subarray(0, 5).toString()).toBe("%PDF-");
    const text = await pdfText(buf);
    expect(text.total).toBeGreaterThanOrEqual(3);
    text.pages.forEach((p, i) => {
      expect(p).toContain("Имя / Nome");
      expect(p).toContain(`Página ${i + 1}`);
    });
    const all = text.pages.join("\n");
    expect(all).toContain("Relatório de tickets — Отчёт");
    expect(all).toContain("Сергей Иванов 119");
    expect(all).toContain("João Conceição 120");
    expect(all).toContain("120,50");
  });

  it("stops pulling rows when the reader goes away", async () => {
    const pulled = { count: 0 };
    let aborted = 0;
    const out = streamXlsx(spec(1_000_000, pulled, () => aborted++));
    await new Promise((r) => out.once("data", r));
    out.destroy();
    for (let i = 0; i < 50 && !aborted; i++) await new Promise((r) => setTimeout(r, 20));
    expect(aborted).toBe(1);
    expect(pulled.count).toBeLessThan(1_000_000);
  });

  it("names a sheet as Excel allows and answers a download's headers", () => {
    expect(sheetName("a/b:c*d?e[f]g\\h — a very long report title indeed")).toBe("a b c d e f g h — a very long r");
    const ctx = { meta: {} as Record<string, unknown> };
    answerDownload(ctx, "pdf", "Отчёт.pdf");
    expect(ctx.meta.$responseType).toBe("application/pdf");
    expect((ctx.meta.$responseHeaders as Record<string, string>)["Content-Disposition"]).toContain("filename*=UTF-8''%D0%9E%D1%82%D1%87%D1%91%D1%82.pdf");
  });
});
