/**
 * The connect form's rules and texts: what the form accepts, the manifest's settingsSchema and
 * the plugin's own reading accept too, with one message per wrong field, in four languages.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Validator from "fastest-validator";
import { readSettings } from "../settings";
import { MASKED, newVerifyToken, REQUIRED, validateWaba, webhookUrlOf } from "./validate";
import { texts } from "./texts";
import { CODE_NAMES, codeOf } from "@openatende/whatsapp-cloud";
import { wabaProvider } from "../provider";
import pkg from "../../package.json";

const t = (k: string) => k;
const base = {
  phoneNumberId: "106540352242922",
  accessToken: "EAAGm0PX4ZCpsBAKZCj0123456789abcdef",
  businessAccountId: "102290129340398",
  appId: "1234567890123",
  apiVersion: "v23.0",
  verifyToken: "my-verify-token",
  appSecret: "0123456789abcdef0123456789abcdef",
};

describe("WABA connect form", () => {
  it("needs every WABA field (spec §5) and checks each like the manifest and the plugin do", () => {
    const schema = new Validator().compile({ $$strict: "remove", ...pkg.platform.settingsSchema } as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [base, {}],
      [{ ...base, graphUrl: "http://10.0.0.5:8080" }, {}],
      [{ ...base, phoneNumberId: "12ab" }, { phoneNumberId: "errDigits" }],
      [{ ...base, businessAccountId: "1234" }, { businessAccountId: "errDigits" }],
      [{ ...base, appId: "app" }, { appId: "errDigits" }],
      [{ ...base, accessToken: "short" }, { accessToken: "errSecretFormat" }],
      [{ ...base, accessToken: "has a space in the token here" }, { accessToken: "errSecretFormat" }],
      [{ ...base, apiVersion: "23.0" }, { apiVersion: "errVersion" }],
      [{ ...base, verifyToken: "1234567" }, { verifyToken: "errSecretFormat" }],
      [{ ...base, appSecret: "abc" }, { appSecret: "errSecretFormat" }],
      [{ ...base, graphUrl: "ftp://graph" }, { graphUrl: "errUrl" }],
    ];
    for (const k of REQUIRED) cases.push([{ ...base, [k]: undefined }, { [k]: `err_${k}_required` }]);
    for (const [value, errors] of cases) {
      expect(validateWaba(value, t)).toEqual(errors);
      const ok = Object.keys(errors).length === 0;
      // The form, the server's schema and the plugin agree (the version has a default on the server only).
      if (value.apiVersion !== undefined) expect(schema({ ...value }) === true).toBe(ok);
      if (value.apiVersion !== undefined) expect(readSettings(value).ok).toBe(ok);
    }
    // Editing: masked secrets mean "keep the stored ones".
    expect(validateWaba({ ...base, accessToken: MASKED, appSecret: MASKED, verifyToken: MASKED }, t)).toEqual({});
  });

  it("shows the webhook URL Meta is given, and makes verify tokens the plugin accepts", () => {
    expect(webhookUrlOf("https://atende.example.com/", "tok_123-abc")).toBe("https://atende.example.com/api/waba/tok_123-abc/webhook");
    const a = newVerifyToken();
    expect(a).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(a).not.toBe(newVerifyToken());
    expect(validateWaba({ ...base, verifyToken: a }, t)).toEqual({});
    expect(newVerifyToken((b) => b.fill(0))).toBe("A".repeat(32));
  });

  it("has every text in the four languages, and every text the form uses", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    const used = new Set<string>();
    // The template screen and picker have texts of their own (texts-templates.ts, texts-picker.ts), checked by their tests.
    const own = (n: string) => !/^(Template|templates-|template-|texts-|register-picker)/.test(n);
    for (const f of fs.readdirSync(__dirname).filter((n) => /\.tsx?$/.test(n) && !n.endsWith(".test.ts") && own(n))) {
      for (const m of fs.readFileSync(path.join(__dirname, f), "utf8").matchAll(/\bt\("([A-Za-z_]+)"/g)) used.add(m[1]);
    }
    // Keys made from a field's name: its label, its hint and its "required" message.
    for (const k of REQUIRED) used.add(k).add(`${k}Hint`).add(`err_${k}_required`);
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((k) => !keys.includes(k))).toEqual([]);
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });

  it("declares each error code it throws with texts in the four languages", () => {
    const errors = pkg.platform.errors as Record<string, Record<string, unknown>>;
    const src = path.join(__dirname, "..");
    // The library's codes with this plugin's prefix, and the ones its own files name.
    const thrown = new Set<string>(CODE_NAMES.map((n) => codeOf(wabaProvider.codes, n)));
    for (const f of fs.readdirSync(src).filter((n) => n.endsWith(".ts") && !n.endsWith(".test.ts"))) {
      for (const m of fs.readFileSync(path.join(src, f), "utf8").matchAll(/"(ERR_WABA_[A-Z_]+)"/g)) thrown.add(m[1]);
    }
    expect(thrown.size).toBeGreaterThan(12);
    for (const code of thrown) {
      expect(errors[code]).toBeDefined();
      for (const loc of ["pt-BR", "en", "es", "ru"]) expect(errors[code][loc]).toMatchObject({ title: expect.any(String), detail: expect.any(String) });
    }
  });
});
