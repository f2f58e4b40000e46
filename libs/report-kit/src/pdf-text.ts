/**
 * Tests' reader of a PDF's text: pdf-parse (a root devDependency) in a child node process,
 * because its pdf.js worker needs dynamic import, which jest's VM refuses without
 * --experimental-vm-modules (TESTING-NOTES §6). Not part of the kit's index: tests import it.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const SCRIPT = `
const { PDFParse } = require(process.argv[1]);
const data = new Uint8Array(require("fs").readFileSync(process.argv[2]));
(async () => {
  const p = new PDFParse({ data });
  const r = await p.getText();
  await p.destroy();
  process.stdout.write(JSON.stringify({ total: r.total, pages: r.pages.map((x) => x.text) }));
})().catch((e) => { console.error(e); process.exit(1); });
`;

export interface PdfText {
  total: number;
  pages: string[];
}

export async function pdfText(pdf: Buffer): Promise<PdfText> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-pdf-"));
  const file = path.join(dir, "x.pdf");
  fs.writeFileSync(file, pdf);
  try {
    const lib = require.resolve("pdf-parse");
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["-e", SCRIPT, lib, file], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout))),
    );
    return JSON.parse(out) as PdfText;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Reads a whole stream into one buffer (tests only: an export is small there). */
export async function readAll(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}
