/**
 * The shell's texts (spec §9: pt-BR default, en, es, ru): the four languages have the same
 * keys, no text is empty, each text keeps the placeholders of its pt-BR original, every area
 * file of a language is part of that language's bundle, and every key the shell's code asks
 * for with a literal string exists.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ptBR from "../src/i18n/locales/pt-BR";
import en from "../src/i18n/locales/en";
import es from "../src/i18n/locales/es";
import ru from "../src/i18n/locales/ru";
import { LOCALES } from "../src/i18n/resources";

const BUNDLES: Record<string, Record<string, unknown>> = { "pt-BR": ptBR, en, es, ru };
const LOCALES_DIR = path.resolve(__dirname, "../src/i18n/locales");
const SRC = path.resolve(__dirname, "../src");

/** "area.key.sub" → text, for every leaf of a bundle. */
export function flatten(obj: unknown, prefix = "", out: Record<string, unknown> = {}): Record<string, unknown> {
  if (obj && typeof obj === "object" && !Array.isArray(obj)) {
    for (const [k, v] of Object.entries(obj as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out[prefix] = obj;
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();

const flat = Object.fromEntries(Object.entries(BUNDLES).map(([l, b]) => [l, flatten(b)]));
const base = flat["pt-BR"];

describe("shell texts", () => {
  it("cover the four languages of the spec", () => {
    expect([...LOCALES].sort()).toEqual(["en", "es", "pt-BR", "ru"]);
    expect(Object.keys(BUNDLES).sort()).toEqual([...LOCALES].sort());
    expect(Object.keys(base).length).toBeGreaterThan(100);
  });

  it.each(["en", "es", "ru"])("%s has exactly the keys of pt-BR", (lang) => {
    const keys = new Set(Object.keys(flat[lang]));
    const missing = Object.keys(base).filter((k) => !keys.has(k));
    const extra = [...keys].filter((k) => !(k in base));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it.each(LOCALES.map((l) => [l]))("%s: every text is a non-empty string, with the placeholders of pt-BR", (lang) => {
    const bad: string[] = [];
    for (const [k, v] of Object.entries(flat[lang])) {
      if (typeof v !== "string" || !v.trim()) bad.push(`${k}: not a text`);
      else if (typeof base[k] === "string" && placeholders(v).join(",") !== placeholders(base[k] as string).join(",")) {
        bad.push(`${k}: {{${placeholders(v).join("}}, {{")}}} vs pt-BR {{${placeholders(base[k] as string).join("}}, {{")}}}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("each language is really translated (a copied text would pass the key check)", () => {
    const texts = (l: string) => Object.entries(flat[l]).filter((e): e is [string, string] => typeof e[1] === "string");
    // Brand names ("Instagram"), codes ("CPF/CNPJ") and words such as "Total" may match; whole areas may not.
    const sameAs = (l: string, other: string) => texts(l).filter(([k, v]) => v === flat[other][k] && /[A-Za-z]{3}/.test(v)).length / texts(l).length;
    expect(sameAs("es", "en")).toBeLessThan(0.1);
    expect(sameAs("pt-BR", "en")).toBeLessThan(0.1);
    expect(sameAs("es", "pt-BR")).toBeLessThan(0.25);
    const cyrillic = texts("ru").filter(([, v]) => /[А-Яа-яЁё]/.test(v)).length / texts("ru").length;
    expect(cyrillic).toBeGreaterThan(0.9);
  });

  it("every area file of a language is part of its bundle, and every language has the same files", () => {
    const files = (l: string) =>
      fs
        .readdirSync(path.join(LOCALES_DIR, l))
        .filter((f) => f.endsWith(".ts") && f !== "index.ts")
        .map((f) => f.replace(/\.ts$/, ""))
        .sort();
    for (const l of LOCALES) {
      expect({ lang: l, files: files(l) }).toEqual({ lang: l, files: Object.keys(BUNDLES[l]).sort() });
    }
  });

  it("every key the shell's code asks for with a literal string exists", () => {
    const areas = new Set(Object.keys(ptBR));
    const used = new Map<string, string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          if (e.name !== "locales") walk(p);
        } else if (/\.(ts|tsx)$/.test(e.name)) {
          const src = fs.readFileSync(p, "utf8");
          // t("area.key"), root.t("area.key"), i18n.t("area.key"), translate(i18n, "area.key")
          for (const m of src.matchAll(/(?:\bt|translate\(\s*[\w.]+\s*,)\s*\(?\s*["'`]([a-z][\w-]*(?:\.[\w-]+)+)["'`]/g)) {
            if (areas.has(m[1].split(".")[0])) used.set(m[1], path.relative(SRC, p));
          }
        }
      }
    };
    walk(SRC);
    expect(used.size).toBeGreaterThan(50);
    const missing = [...used].filter(([k]) => !(k in base)).map(([k, f]) => `${k} (${f})`);
    expect(missing).toEqual([]);
  });
});
