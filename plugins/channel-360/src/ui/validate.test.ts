/**
 * The 360dialog connect form's rules and texts: what the form accepts, the manifest's
 * settingsSchema and the plugin's own reading accept too, with one message per wrong field, in
 * four languages; the webhook URL the form shows is the one the plugin registers and answers.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Validator from "fastest-validator";
import { CODE_NAMES, codeOf } from "@openatende/whatsapp-cloud";
import { readSettings } from "../settings";
import { d360Provider, urlToken } from "../provider";
import { MASKED, REQUIRED, validate360, webhookUrlOf } from "./validate";
import { texts } from "./texts";
import pkg from "../../package.json";

const t = (k: string) => k;
const base = { apiKey: "AbCdEf0123456789XYZ", phoneNumber: "+55 11 91234-5678" };

describe("360dialog connect form", () => {
  it("needs the key and the number, and checks each like the manifest and the plugin do", () => {
    const schema = new Validator().compile({ $$strict: "remove", ...pkg.platform.settingsSchema } as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [base, {}],
      [{ ...base, phoneNumber: "5511912345678", baseUrl: "http://10.0.0.5:8080", webhookSecret: "partner-secret-0123456789" }, {}],
      [{ ...base, apiKey: "short" }, { apiKey: "errSecretFormat" }],
      [{ ...base, apiKey: "has a space in the key here" }, { apiKey: "errSecretFormat" }],
      [{ ...base, phoneNumber: "12ab" }, { phoneNumber: "errPhone" }],
      [{ ...base, phoneNumber: "+55 11" }, { phoneNumber: "errPhone" }],
      [{ ...base, webhookSecret: "abc" }, { webhookSecret: "errSecretFormat" }],
      [{ ...base, baseUrl: "ftp://waba" }, { baseUrl: "errUrl" }],
    ];
    for (const k of REQUIRED) cases.push([{ ...base, [k]: undefined }, { [k]: `err_${k}_required` }]);
    for (const [value, errors] of cases) {
      expect(validate360(value, t)).toEqual(errors);
      const ok = Object.keys(errors).length === 0;
      expect(schema({ ...value }) === true).toBe(ok);
      expect(readSettings(value).ok).toBe(ok);
    }
    // Editing: masked secrets mean "keep the stored ones".
    expect(validate360({ ...base, apiKey: MASKED, webhookSecret: MASKED }, t)).toEqual({});
  });

  it("shows the URL the plugin registers: the token in hex, no underscore, decoded back by the plugin", () => {
    const token = "tok_123-abcDEF";
    const url = webhookUrlOf("https://atende.example.com/", token);
    expect(url).toBe(`https://atende.example.com/api/d360/${Buffer.from(token).toString("hex")}/webhook`);
    expect(url).not.toContain("_");
    expect(urlToken.decode(url.split("/")[5])).toBe(token);
    expect(urlToken.decode("zz")).toBeNull();
    expect(urlToken.decode(Buffer.from("a b c d e f").toString("hex"))).toBeNull();
  });

  it("has every text in the four languages, and every key the form uses", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    const used = new Set<string>();
    for (const f of ["ConnectForm.tsx", "validate.ts", path.join("..", "..", "..", "..", "libs", "whatsapp-cloud", "src", "ui", "connect-parts.tsx")]) {
      for (const m of fs.readFileSync(path.join(__dirname, f), "utf8").matchAll(/\bt\("([A-Za-z_]+)"/g)) used.add(m[1]);
    }
    for (const k of REQUIRED) used.add(k).add(`${k}Hint`).add(`err_${k}_required`);
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((k) => !keys.includes(k))).toEqual([]);
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });

  it("declares each error code the library throws for it, with texts in the four languages", () => {
    const errors = pkg.platform.errors as Record<string, Record<string, unknown>>;
    const codes = CODE_NAMES.map((n) => codeOf(d360Provider.codes, n));
    expect(Object.keys(errors).sort()).toEqual([...codes].sort());
    for (const code of codes) for (const loc of ["pt-BR", "en", "es", "ru"]) expect(errors[code][loc]).toMatchObject({ title: expect.any(String), detail: expect.any(String) });
  });
});
