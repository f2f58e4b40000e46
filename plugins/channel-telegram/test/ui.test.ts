/**
 * The connect form's rules and texts (the form itself runs in the shell's browser test).
 */
import { validateTelegram, MASKED } from "../src/ui/validate";
import { texts } from "../src/ui/texts";
import pkg from "../package.json";
import Validator from "fastest-validator";

const t = (k: string) => k;
const TOKEN = `123456789:${"A".repeat(35)}`;

describe("Telegram connect form", () => {
  it("needs a well-formed token and a mode, like the manifest's settingsSchema", () => {
    const schema = new Validator().compile(pkg.platform.settingsSchema as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{ token: TOKEN, mode: "polling" }, {}],
      [{ token: TOKEN, mode: "webhook", apiRoot: "http://127.0.0.1:8081" }, {}],
      [{ mode: "polling" }, { token: "errTokenRequired" }],
      [{ token: "123:short", mode: "polling" }, { token: "errTokenFormat" }],
      [{ token: `abc:${"A".repeat(35)}`, mode: "polling" }, { token: "errTokenFormat" }],
      [{ token: TOKEN, mode: "smoke-signals" }, { mode: "errMode" }],
      [{ token: TOKEN, mode: "polling", apiRoot: "ftp://x" }, { apiRoot: "errUrl" }],
    ];
    for (const [value, errors] of cases) {
      expect(validateTelegram(value, t)).toEqual(errors);
      // What the form accepts the server accepts, and the other way round.
      expect(schema({ ...value }) === true).toBe(Object.keys(errors).length === 0);
    }
    // Editing: the masked token means "keep the stored one".
    expect(validateTelegram({ token: MASKED, mode: "polling" }, t)).toEqual({});
  });

  it("has every text in the four languages", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });
});
