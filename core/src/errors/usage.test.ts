/**
 * Every code of the catalogue is answered by some source file or reserved for a coming
 * feature (reserved.ts), and a reserved code leaves the list once it is used. Scans the
 * hand-written sources of every package (not the catalogue's own files, tests or locales).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ERROR_CODES, type ErrorCode } from "./codes";
import { RESERVED_CODES } from "./reserved";

const ROOT = path.resolve(__dirname, "../../..");
const DIRS = ["core/src", "plugin-sdk/src", "marketplace/src", "shell/src", "contracts/src", "config/src", ...fs.readdirSync(path.join(ROOT, "plugins")).map((p) => `plugins/${p}/src`)];
const SKIP = [/\/errors\/(codes|reserved|catalogue)\.ts$/, /\/errors\/locales\//, /\/i18n\/locales\//, /\.test\.tsx?$/];

function sources(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "dist") sources(p, out);
    } else if (/\.(ts|tsx|js|cjs)$/.test(e.name) && !SKIP.some((r) => r.test(p))) out.push(p);
  }
  return out;
}

const text = DIRS.flatMap((d) => sources(path.join(ROOT, d)))
  .map((f) => fs.readFileSync(f, "utf8"))
  .join("\n");
const used = new Set(text.match(/\bERR_[A-Z0-9_]+\b/g) ?? []);
const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe("error catalogue usage", () => {
  it("every code is used by some source file or reserved for a coming feature", () => {
    expect(codes.filter((c) => !used.has(c) && !RESERVED_CODES[c])).toEqual([]);
  });
  it("a reserved code that is now used leaves the reserved list", () => {
    expect(codes.filter((c) => used.has(c) && RESERVED_CODES[c])).toEqual([]);
  });
  it("the reserved list names only codes of the catalogue, each with its feature", () => {
    for (const [c, why] of Object.entries(RESERVED_CODES)) {
      expect({ c, known: c in ERROR_CODES, why: typeof why === "string" && why.length > 3 }).toEqual({ c, known: true, why: true });
    }
  });
});
