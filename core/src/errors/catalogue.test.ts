import { ERROR_CODES, type ErrorCode } from "./codes";
import {
  CATALOGUE,
  DEFAULT_LOCALE,
  FALLBACK_LOCALE,
  LOCALES,
  UI,
  VALIDATION,
  exportCatalogue,
  interpolate,
  placeholdersOf,
  resolveLocale,
  translateError,
  uiText,
  validationMessage,
  type Locale,
} from "./catalogue";
import { UI_TEXT_KEYS, VALIDATION_RULES } from "./locales/types";

const CODES = Object.keys(ERROR_CODES).sort() as ErrorCode[];
const OTHERS = LOCALES.filter((l) => l !== "pt-BR");
const sorted = (xs: Iterable<string>) => [...xs].sort();

/** Every text of a locale, labelled, for checks that apply to all of them. */
function allTexts(locale: Locale): [string, string][] {
  const out: [string, string][] = [];
  for (const [code, t] of Object.entries(CATALOGUE[locale])) {
    out.push([`errors.${code}.title`, t.title], [`errors.${code}.detail`, t.detail]);
  }
  for (const [rule, text] of Object.entries(VALIDATION[locale])) out.push([`validation.${rule}`, text]);
  for (const [key, text] of Object.entries(UI[locale])) out.push([`ui.${key}`, text]);
  return out;
}

/** Placeholders each error code must carry (detail); every other code carries none. */
const ERROR_PLACEHOLDERS: Partial<Record<ErrorCode, string[]>> = {
  ERR_BUSINESS_HOURS_INVALID_RANGE: ["day"],
  ERR_VALIDATION: ["field"],
  ERR_LICENSE_TIER_REQUIRED: ["requiredTier"],
  ERR_CONTACT_LIMIT: ["current", "max"],
  ERR_FREE_PLAN_USER_LIMIT: ["current", "max"],
  ERR_USER_LIMIT_EXCEEDED: ["current", "max"],
  ERR_CONNECTION_LIMIT: ["current", "max"],
  ERR_RATE_LIMITED: ["retryAfter"],
  ERR_PAYLOAD_TOO_LARGE: ["maxSize"],
};

describe("catalogue completeness", () => {
  it("has the four locales, pt-BR by default and en as fallback", () => {
    expect([...LOCALES]).toEqual(["pt-BR", "en", "es", "ru"]);
    expect(DEFAULT_LOCALE).toBe("pt-BR");
    expect(FALLBACK_LOCALE).toBe("en");
    expect(sorted(Object.keys(CATALOGUE))).toEqual(sorted(LOCALES));
    expect(sorted(Object.keys(VALIDATION))).toEqual(sorted(LOCALES));
    expect(sorted(Object.keys(UI))).toEqual(sorted(LOCALES));
  });

  it("catalogues a sizeable list of codes", () => {
    expect(CODES.length).toBeGreaterThan(100);
  });

  it.each(LOCALES)("%s: error codes are exactly ERROR_CODES, each with only title and detail", (locale) => {
    expect(sorted(Object.keys(CATALOGUE[locale]))).toEqual(CODES);
    for (const code of CODES) expect(sorted(Object.keys(CATALOGUE[locale][code]))).toEqual(["detail", "title"]);
  });

  it.each(LOCALES)("%s: validation rules and ui keys are complete", (locale) => {
    expect(sorted(Object.keys(VALIDATION[locale]))).toEqual(sorted(VALIDATION_RULES));
    expect(sorted(Object.keys(UI[locale]))).toEqual(sorted(UI_TEXT_KEYS));
  });

  it.each(LOCALES)("%s: no empty texts, titles short, details are sentences", (locale) => {
    for (const [where, text] of allTexts(locale)) {
      expect({ where, ok: typeof text === "string" && text.trim().length > 0 && text === text.trim() }).toEqual({ where, ok: true });
    }
    for (const code of CODES) {
      const { title, detail } = CATALOGUE[locale][code];
      expect({ code, title, short: title.length <= 60, noFinalDot: !title.endsWith(".") }).toEqual({
        code,
        title,
        short: true,
        noFinalDot: true,
      });
      expect({ code, detail, ok: detail.length <= 240 && /[.!?]$/.test(detail) }).toEqual({ code, detail, ok: true });
    }
  });

  it.each(LOCALES)("%s: braces only appear as well-formed {{placeholders}}", (locale) => {
    for (const [where, text] of allTexts(locale)) {
      const stripped = text.replace(/\{\{[A-Za-z0-9_]+\}\}/g, "");
      expect({ where, stray: /[{}]/.test(stripped) }).toEqual({ where, stray: false });
    }
  });
});

describe("placeholders", () => {
  it("error codes use exactly the placeholders the spec assigns (pt-BR)", () => {
    for (const code of CODES) {
      const { title, detail } = CATALOGUE["pt-BR"][code];
      expect({ code, used: sorted(placeholdersOf(title + " " + detail)) }).toEqual({
        code,
        used: sorted(ERROR_PLACEHOLDERS[code] ?? []),
      });
    }
  });

  it.each(OTHERS)("%s uses the same placeholders as pt-BR for every key", (locale) => {
    const reference = new Map(allTexts("pt-BR"));
    for (const [where, text] of allTexts(locale)) {
      const ref = reference.get(where);
      expect(ref).toBeDefined();
      expect({ where, used: sorted(placeholdersOf(text)) }).toEqual({ where, used: sorted(placeholdersOf(ref ?? "")) });
    }
  });

  it.each(LOCALES)("%s: validation messages name the field, with expected/actual where relevant", (locale) => {
    for (const rule of VALIDATION_RULES) {
      expect({ rule, hasField: placeholdersOf(VALIDATION[locale][rule]).includes("field") }).toEqual({ rule, hasField: true });
    }
    for (const rule of ["stringMin", "stringMax", "stringLength", "numberMin", "numberMax", "dateMin", "dateMax", "arrayMin", "arrayMax", "arrayLength", "equalValue", "equalField"] as const) {
      expect({ rule, hasExpected: placeholdersOf(VALIDATION[locale][rule]).includes("expected") }).toEqual({ rule, hasExpected: true });
    }
    expect(placeholdersOf(VALIDATION[locale].arrayUnique)).toContain("actual");
    expect(placeholdersOf(VALIDATION[locale].objectStrict)).toContain("actual");
  });

  it.each(LOCALES)("%s: ui texts carry their placeholders", (locale) => {
    const ui = UI[locale];
    expect(sorted(placeholdersOf(ui.resetMailText))).toEqual(["link", "name"]);
    expect(sorted(placeholdersOf(ui.resetMailHtml))).toEqual(["link", "name"]);
    expect(sorted(placeholdersOf(ui.contactLimitBanner))).toEqual(["current", "max"]);
    expect(placeholdersOf(ui.licenceNotice)).toEqual(["requiredTier"]);
    expect(ui.resetMailText).toMatch(/\b5\b/);
    expect(ui.resetMailHtml).toMatch(/\b5\b/);
    expect(ui.resetMailHtml).toMatch(/<a href="\{\{link\}\}">/);
    expect(ui.resetMailText).not.toMatch(/<[a-z]/i);
  });
});

describe("translations are real", () => {
  const share = (locale: Locale, pick: (t: { title: string; detail: string }) => string) =>
    CODES.filter((c) => pick(CATALOGUE[locale][c]) !== pick(CATALOGUE["pt-BR"][c])).length / CODES.length;

  it.each(OTHERS)("%s: at least 90%% of titles and 95%% of details differ from pt-BR", (locale) => {
    expect(share(locale, (t) => t.title)).toBeGreaterThanOrEqual(0.9);
    expect(share(locale, (t) => t.detail)).toBeGreaterThanOrEqual(0.95);
  });

  it.each(OTHERS)("%s: validation and ui texts differ from pt-BR", (locale) => {
    const vDiff = VALIDATION_RULES.filter((r) => VALIDATION[locale][r] !== VALIDATION["pt-BR"][r]).length;
    expect(vDiff).toBe(VALIDATION_RULES.length);
    const uDiff = UI_TEXT_KEYS.filter((k) => UI[locale][k] !== UI["pt-BR"][k]).length;
    expect(uDiff).toBe(UI_TEXT_KEYS.length);
  });

  it("es and en are distinct languages too", () => {
    const same = CODES.filter((c) => CATALOGUE.es[c].detail === CATALOGUE.en[c].detail).length;
    expect(same).toBe(0);
  });

  it("ru texts are written in Cyrillic", () => {
    for (const [where, text] of allTexts("ru")) {
      expect({ where, cyrillic: /[\u0400-\u04FF]/.test(text) }).toEqual({ where, cyrillic: true });
    }
  });

  it("en and es carry no Portuguese-only letters or words", () => {
    for (const locale of ["en", "es"] as const) {
      for (const [where, text] of allTexts(locale)) {
        expect({ where, locale, pt: /[ãõç]|(?<!\p{L})(você|não|usuário|senha|contato)(?!\p{L})/iu.test(text) }).toEqual({ where, locale, pt: false });
      }
    }
  });

  it("pt-BR is Brazilian, not European, Portuguese", () => {
    const european = /(?<!\p{L})(utilizador(es)?|ecrã|palavra-passe|registo|telemóvel|ficheiros?|contactos?|equipa|efectuar|actualiz\p{L}*)(?!\p{L})/iu;
    for (const [where, text] of allTexts("pt-BR")) {
      expect({ where, european: european.test(text) }).toEqual({ where, european: false });
    }
    expect(CATALOGUE["pt-BR"].ERR_USER_NOT_FOUND.title).toBe("Usuário não encontrado");
    expect(CATALOGUE["pt-BR"].ERR_CONTACT_NOT_FOUND.title).toBe("Contato não encontrado");
  });

  it("spec wording of the generic notices", () => {
    expect(UI["pt-BR"].genericErrorTitle).toBe("Não identificado");
    expect(UI["pt-BR"].successTitle).toBe("Tudo certo...");
    expect(CATALOGUE["pt-BR"].ERR_FORWARD_LIMIT.detail).toContain("10");
    expect(CATALOGUE.en.ERR_FORWARD_LIMIT.detail).toContain("10");
  });
});

describe("resolveLocale", () => {
  it.each([
    ["pt", "pt-BR"],
    ["pt-BR", "pt-BR"],
    ["pt_BR", "pt-BR"],
    ["pt-br", "pt-BR"],
    ["pt-PT", "pt-BR"],
    ["en", "en"],
    ["en-US", "en"],
    ["EN_gb", "en"],
    ["es", "es"],
    ["es-AR", "es"],
    ["ru", "ru"],
    ["ru-RU", "ru"],
    ["fr-FR", "pt-BR"],
    ["*", "pt-BR"],
    ["", "pt-BR"],
    ["   ", "pt-BR"],
    ["fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", "en"],
    ["en;q=0.5, ru;q=0.9", "ru"],
    ["en-US,en;q=0.9,pt-BR;q=0.8", "en"],
    ["de;q=1, es-MX;q=0.3, ru;q=0.3", "es"],
    ["es;q=0, en;q=0.1", "en"],
    ["ru;q=0", "pt-BR"],
    ["en;q=0.2, es;q=0.8, *;q=0.9", "es"],
    ["ru ; q=0.4 , es ; q=0.6", "es"],
  ])("%j → %s", (input, expected) => {
    expect(resolveLocale(input)).toBe(expected);
  });

  it("handles missing input", () => {
    expect(resolveLocale()).toBe("pt-BR");
    expect(resolveLocale(null)).toBe("pt-BR");
    expect(resolveLocale(undefined)).toBe("pt-BR");
  });
});

describe("interpolate", () => {
  it("replaces {{name}} with String(data[name])", () => {
    expect(interpolate("{{current}} de {{max}}", { current: 7, max: 10 })).toBe("7 de 10");
    expect(interpolate("{{a}}/{{a}}/{{b}}", { a: true, b: "x" })).toBe("true/true/x");
  });

  it("leaves an empty string for missing values", () => {
    expect(interpolate("[{{a}}]", {})).toBe("[]");
    expect(interpolate("[{{a}}]", { a: null })).toBe("[]");
    expect(interpolate("[{{a}}]", { a: undefined })).toBe("[]");
    expect(interpolate("[{{a}}]")).toBe("[]");
    expect(interpolate("[{{constructor}}]", {})).toBe("[]");
    expect(interpolate("[{{a}}]", { a: 0 })).toBe("[0]");
  });

  it("does no other templating", () => {
    expect(interpolate("{{a}}", { a: "{{b}}", b: "x" })).toBe("{{b}}");
    expect(interpolate("{a} ${a} {{ a.b }}", { a: "x" })).toBe("{a} ${a} {{ a.b }}");
    expect(interpolate("sem placeholders", { a: 1 })).toBe("sem placeholders");
  });
});

describe("translateError", () => {
  it("fills the contact limit in every language", () => {
    for (const locale of LOCALES) {
      const t = translateError("ERR_CONTACT_LIMIT", locale, { current: 1234, max: 1000 });
      expect(t.title).toBe(CATALOGUE[locale].ERR_CONTACT_LIMIT.title);
      expect(t.detail).toContain("1234");
      expect(t.detail).toContain("1000");
      expect(t.detail).not.toContain("{{");
    }
  });

  it("fills every placeholder of every code when data is complete", () => {
    const data = { field: "email", requiredTier: "PREMIUM", current: 3, max: 3, retryAfter: 30, maxSize: "50 MB" };
    for (const locale of LOCALES) {
      for (const code of CODES) {
        const t = translateError(code, locale, data);
        expect({ code, locale, left: /\{\{/.test(t.title + t.detail) }).toEqual({ code, locale, left: false });
      }
    }
    expect(translateError("ERR_LICENSE_TIER_REQUIRED", "pt-BR", data).detail).toContain("PREMIUM");
    expect(translateError("ERR_RATE_LIMITED", "en", data).detail).toContain("30 seconds");
    expect(translateError("ERR_VALIDATION", "es", data).detail).toContain("email");
    expect(translateError("ERR_PAYLOAD_TOO_LARGE", "ru", data).detail).toContain("50 MB");
  });

  it("texts without data lose their placeholders", () => {
    expect(translateError("ERR_RATE_LIMITED", "pt-BR").detail).toBe(
      CATALOGUE["pt-BR"].ERR_RATE_LIMITED.detail.replace("{{retryAfter}}", ""),
    );
    expect(translateError("ERR_NOT_FOUND", "en")).toEqual(CATALOGUE.en.ERR_NOT_FOUND);
  });

  it("returns a copy, never the catalogue entry", () => {
    const t = translateError("ERR_INTERNAL", "ru");
    expect(t).not.toBe(CATALOGUE.ru.ERR_INTERNAL);
    t.title = "changed";
    expect(CATALOGUE.ru.ERR_INTERNAL.title).not.toBe("changed");
  });

  it("copes with an unsupported locale or code at run time", () => {
    expect(translateError("ERR_NOT_FOUND", "fr" as Locale)).toEqual(CATALOGUE["pt-BR"].ERR_NOT_FOUND);
    expect(translateError("ERR_NOT_FOUND", "en-US" as Locale)).toEqual(CATALOGUE.en.ERR_NOT_FOUND);
    expect(translateError("ERR_DOES_NOT_EXIST" as ErrorCode, "pt-BR")).toEqual({
      title: "Não identificado",
      detail: UI["pt-BR"].genericErrorDetail,
    });
  });
});

describe("validationMessage", () => {
  it("translates a rule with its data", () => {
    expect(validationMessage("stringMin", "pt-BR", { field: "senha", expected: 8 })).toBe(
      "O campo senha deve ter pelo menos 8 caracteres.",
    );
    expect(validationMessage("required", "en", { field: "name" })).toBe("The name field is required.");
    expect(validationMessage("required", "ru", { field: "name" })).toContain("«name»");
  });

  it("falls back to `any` for unknown rules", () => {
    for (const locale of LOCALES) {
      expect(validationMessage("stringBase64", locale, { field: "x" })).toBe(interpolate(VALIDATION[locale].any, { field: "x" }));
      expect(validationMessage("toString", locale, { field: "x" })).toBe(interpolate(VALIDATION[locale].any, { field: "x" }));
    }
  });
});

describe("uiText", () => {
  it("fills the reset e-mail", () => {
    const text = uiText("resetMailText", "pt-BR", { name: "Ana", link: "https://app.example/reset?t=abc&x=1" });
    expect(text).toContain("Ana");
    expect(text).toContain("https://app.example/reset?t=abc&x=1");
    expect(text).toContain("5 minutos");
  });

  it("inserts values into HTML texts as given (the caller escapes them)", () => {
    const html = uiText("resetMailHtml", "en", { name: "Ana &amp; Bia", link: "https://a.example/r?t=1&amp;u=2" });
    expect(html).toContain("Ana &amp; Bia");
    expect(html).toContain('href="https://a.example/r?t=1&amp;u=2"');
    expect(html).not.toContain("&amp;amp;");
    expect(html).toContain("5 minutes");
  });

  it("fills the banner and the licence notice", () => {
    expect(uiText("contactLimitBanner", "es", { current: 500, max: 500 })).toContain("500 de 500");
    expect(uiText("licenceNotice", "ru", { requiredTier: "PLUS" })).toContain("PLUS");
    expect(uiText("genericErrorTitle", "pt-BR")).toBe("Não identificado");
  });
});

describe("exportCatalogue", () => {
  it("is JSON round-trippable and complete", () => {
    const exported = exportCatalogue();
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
    expect(exported.locales).toEqual([...LOCALES]);
    expect(exported.statuses).toEqual({ ...ERROR_CODES });
    expect(exported.errors).toEqual(CATALOGUE);
    expect(exported.validation).toEqual(VALIDATION);
    expect(exported.ui).toEqual(UI);
    expect(sorted(Object.keys(exported))).toEqual(
      sorted(["locales", "defaultLocale", "fallbackLocale", "errors", "validation", "ui", "statuses"]),
    );
  });

  it("returns a fresh copy each time", () => {
    const a = exportCatalogue();
    a.errors["pt-BR"].ERR_INTERNAL.title = "mexido";
    a.statuses.ERR_INTERNAL = 200;
    expect(CATALOGUE["pt-BR"].ERR_INTERNAL.title).not.toBe("mexido");
    expect(exportCatalogue().statuses.ERR_INTERNAL).toBe(500);
  });
});
