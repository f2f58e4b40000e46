/**
 * A campaign's contacts from a CSV (spec §2 Campaigns: contacts from a CSV): one contact per
 * line, `name,number` or `number` alone, comma or semicolon separated, an optional header line
 * (a first line without a number), quotes around a field allowed. Numbers keep their digits
 * only (8 to 15 of them, E.164's longest); a repeated number counts once (with `keepRepeats`,
 * each line stays: a type that refuses repeated numbers names their lines).
 */
export interface CsvContact {
  /** 1-based line of the file. */
  line: number;
  name: string;
  number: string;
}

export type CsvResult = { ok: true; rows: CsvContact[] } | { ok: false; line: number };

const MAX_LINES = 100_000;

function fields(line: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      out.push(cur.trim());
      cur = "";
    } else cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/** The digits of a phone number, or null when it is not one (8 to 15 digits). */
export function phoneDigits(text: string): string | null {
  if (!/^[+\d\s().-]+$/.test(text)) return null;
  const digits = text.replace(/\D/g, "");
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

export function parseCampaignCsv(text: string, opts: { keepRepeats?: boolean } = {}): CsvResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  const rows: CsvContact[] = [];
  const seen = new Set<string>();
  const first = lines.find((l) => l.trim() !== "") ?? "";
  const sep = (first.match(/;/g)?.length ?? 0) > (first.match(/,/g)?.length ?? 0) ? ";" : ",";
  let sawData = false;
  for (let i = 0; i < Math.min(lines.length, MAX_LINES + 1); i++) {
    const raw = lines[i];
    if (raw.trim() === "") continue;
    const f = fields(raw, sep);
    const numberField = f.length >= 2 ? f[1] : f[0];
    const number = phoneDigits(numberField);
    if (!number) {
      if (!sawData) {
        sawData = true; // a header line
        continue;
      }
      return { ok: false, line: i + 1 };
    }
    sawData = true;
    if (seen.has(number) && !opts.keepRepeats) continue;
    seen.add(number);
    rows.push({ line: i + 1, name: f.length >= 2 ? f[0] : "", number });
  }
  return { ok: true, rows };
}
