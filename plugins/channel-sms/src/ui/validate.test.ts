/**
 * The connect form's rules and texts: what the form accepts, the core (the manifest's
 * settingsSchema) and the plugin (settings.ts) accept, and the other way round.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Validator from "fastest-validator";
import pkg from "../../package.json";
import { readSettings } from "../settings";
import { texts } from "./texts";
import { MASKED, mobileOf, newWebhookSecret, validateSms } from "./validate";

const t = (k: string) => k;
const SECRET = "s".repeat(40);
const base = {
  provider: "comtele",
  token: "8F3C2A10-1D2E-4B5C-9A8B-7C6D5E4F3A2B",
  webhookSecret: SECRET,
  firstName: "Ana",
  lastName: "Souza",
  email: "ana@loja.com.br",
  mobile: "+5511988887777",
  password: "segredo",
  taxpayerType: "PF",
};

describe("SMS connect form", () => {
  it("checks what the manifest's settingsSchema and the plugin check, with a message per field", () => {
    const schema = new Validator().compile({ $$strict: "remove", ...pkg.platform.settingsSchema } as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [base, {}],
      [{ ...base, taxpayerType: "PJ", sender: "LOJA", apiUrl: "https://sms.revenda.com.br/api/v2" }, {}],
      [{ ...base, password: "123456" }, {}],
      [{ ...base, token: undefined }, { token: "errTokenRequired" }],
      [{ ...base, token: "abc" }, { token: "errTokenFormat" }],
      [{ ...base, token: "has a space in it" }, { token: "errTokenFormat" }],
      [{ ...base, password: "12345" }, { password: "errPasswordLength" }],
      [{ ...base, password: undefined }, { password: "errPasswordRequired" }],
      [{ ...base, taxpayerType: undefined }, { taxpayerType: "errTaxpayerType" }],
      [{ ...base, taxpayerType: "ME" }, { taxpayerType: "errTaxpayerType" }],
      [{ ...base, firstName: "" }, { firstName: "errFirstName" }],
      [{ ...base, lastName: undefined }, { lastName: "errLastName" }],
      [{ ...base, email: "ana@loja" }, { email: "errEmail" }],
      [{ ...base, mobile: "98888-7777" }, { mobile: "errMobile" }],
      [{ ...base, mobile: "119888" }, { mobile: "errMobile" }],
      [{ ...base, sender: "Loja <Centro>" }, { sender: "errSender" }],
      [{ ...base, apiUrl: "ftp://comtele" }, { apiUrl: "errUrl" }],
      [{ ...base, webhookSecret: "short" }, { webhookSecret: "errSecretFormat" }],
      [{ ...base, webhookSecret: `${"s".repeat(39)}/` }, { webhookSecret: "errSecretFormat" }],
      [{ ...base, webhookSecret: undefined }, { webhookSecret: "errSecretRequired" }],
      [{ ...base, provider: "zenvia" }, { provider: "errProvider" }],
    ];
    for (const [value, errors] of cases) {
      expect({ value, errors: validateSms(value, t) }).toEqual({ value, errors });
      // What the form accepts the server accepts, and the other way round; and so does the plugin.
      const ok = Object.keys(errors).length === 0;
      expect({ value, schema: schema({ ...value }) === true }).toEqual({ value, schema: ok });
      expect({ value, plugin: readSettings(value).ok }).toEqual({ value, plugin: ok });
    }
    // Editing: masked secrets mean "keep the stored ones".
    expect(validateSms({ ...base, token: MASKED, password: MASKED, webhookSecret: MASKED }, t)).toEqual({});
  });

  it("reads a mobile typed with formatting, and makes webhook secrets the server accepts", () => {
    expect(mobileOf("+55 (11) 98888-7777")).toBe("+5511988887777");
    expect(mobileOf("11 98888 7777")).toBe("11988887777");
    const a = newWebhookSecret();
    expect(a).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(newWebhookSecret()).not.toBe(a);
    expect(validateSms({ ...base, webhookSecret: a }, t)).toEqual({});
    expect(newWebhookSecret((bytes) => bytes.fill(0))).toBe("A".repeat(40));
  });

  it("has every text in the four languages, and every text the form uses", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    const dir = __dirname;
    const used = new Set<string>();
    for (const f of fs.readdirSync(dir).filter((n) => /\.tsx?$/.test(n) && !n.endsWith(".test.ts"))) {
      for (const m of fs.readFileSync(path.join(dir, f), "utf8").matchAll(/\bt\("([A-Za-z]+)"/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(40);
    expect([...used].filter((k) => !keys.includes(k))).toEqual([]);
    // And no text the form never uses.
    expect(keys.filter((k) => !used.has(k))).toEqual([]);
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
    for (const [code, def] of Object.entries(pkg.platform.errors)) {
      for (const locale of ["pt-BR", "en", "es", "ru"] as const) expect({ code, locale, ok: !!def[locale].title && !!def[locale].detail }).toEqual({ code, locale, ok: true });
    }
  });
});
