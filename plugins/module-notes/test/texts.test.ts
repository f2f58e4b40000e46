/** The module's texts and its manifest's names exist, non-empty, in the four languages. */
import { texts } from "../src/ui/texts";
import pkg from "../package.json";
import { validateManifest } from "@openatende/plugin-sdk";

describe("notes module texts", () => {
  it("has every text in the four languages, placeholders kept", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    expect(Object.keys(texts).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) {
      for (const [k, v] of Object.entries(texts[locale])) {
        expect(v.trim()).not.toBe("");
        expect(v.match(/\{\{\w+\}\}/g) ?? []).toEqual((texts["pt-BR"] as Record<string, string>)[k].match(/\{\{\w+\}\}/g) ?? []);
      }
    }
  });

  it("has a valid manifest: a PLUS module declaring /notas, named in the four languages", () => {
    const r = validateManifest(pkg);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.manifest).toMatchObject({ id: "module-notes", kind: "module", tier: "PLUS", ui: { routes: ["notas"] } });
    expect(Object.keys(r.manifest.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });
});
