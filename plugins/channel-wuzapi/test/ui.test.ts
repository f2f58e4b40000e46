/**
 * The connect form's rules and texts (the form itself runs in the shell's browser tests).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Validator from "fastest-validator";
import { MASKED, newHmacKey, pairingPhone, validateWuzapi } from "../src/ui/validate";
import { texts } from "../src/ui/texts";
import { readSettings } from "../src/settings";
import pkg from "../package.json";

const t = (k: string) => k;
const KEY = "k".repeat(32);
const base = { apiUrl: "https://wuzapi.example.com", sessionToken: "Abc123Token", hmacKey: KEY, webhookFormat: "json" };

describe("wuzapi connect form", () => {
  it("checks what the manifest's settingsSchema and the plugin check, with a message per field", () => {
    const schema = new Validator().compile({ $$strict: "remove", ...pkg.platform.settingsSchema } as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [base, {}],
      [{ ...base, webhookFormat: "form", apiToken: "admin-token", session: "loja.centro_1" }, {}],
      [{ ...base, apiUrl: "http://10.0.0.5:8080/" }, {}],
      [{ ...base, apiUrl: undefined }, { apiUrl: "errApiUrlRequired" }],
      [{ ...base, apiUrl: "ftp://wuzapi" }, { apiUrl: "errUrl" }],
      [{ ...base, apiUrl: "https:// wuzapi" }, { apiUrl: "errUrl" }],
      [{ ...base, sessionToken: undefined }, { sessionToken: "errSessionTokenRequired" }],
      [{ ...base, sessionToken: "has space" }, { sessionToken: "errTokenFormat" }],
      [{ ...base, sessionToken: "abc" }, { sessionToken: "errTokenFormat" }],
      [{ ...base, apiToken: "a b" }, { apiToken: "errTokenFormat" }],
      [{ ...base, hmacKey: undefined }, { hmacKey: "errHmacRequired" }],
      [{ ...base, hmacKey: "k".repeat(31) }, { hmacKey: "errHmacLength" }],
      [{ ...base, hmacKey: "k".repeat(257) }, { hmacKey: "errHmacLength" }],
      [{ ...base, webhookFormat: "xml" }, { webhookFormat: "errFormat" }],
      [{ ...base, session: "loja centro" }, { session: "errSession" }],
    ];
    for (const [value, errors] of cases) {
      expect(validateWuzapi(value, t)).toEqual(errors);
      // What the form accepts the server accepts, and the other way round; and so does the plugin.
      expect(schema({ ...value }) === true).toBe(Object.keys(errors).length === 0);
      expect(readSettings(value).ok).toBe(Object.keys(errors).length === 0);
    }
    // Editing: masked secrets mean "keep the stored ones".
    expect(validateWuzapi({ ...base, sessionToken: MASKED, hmacKey: MASKED, apiToken: MASKED }, t)).toEqual({});
  });

  it("reads a phone number for a pairing code, and makes HMAC keys wuzapi accepts", () => {
    expect(pairingPhone("+55 (11) 98888-7777")).toBe("5511988887777");
    expect(pairingPhone("5511988887777")).toBe("5511988887777");
    expect(pairingPhone("98888")).toBeNull();
    expect(pairingPhone("+55 11 9888a-7777")).toBeNull();
    expect(pairingPhone("1".repeat(16))).toBeNull();
    const a = newHmacKey();
    const b = newHmacKey();
    expect(a).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(a).not.toBe(b);
    expect(validateWuzapi({ ...base, hmacKey: a }, t)).toEqual({});
    expect(newHmacKey((bytes) => bytes.fill(0))).toBe("A".repeat(48));
  });

  it("has every text in the four languages, and every text the form uses", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    const dir = path.join(__dirname, "../src/ui");
    const used = new Set<string>();
    for (const f of fs.readdirSync(dir).filter((n) => /\.tsx?$/.test(n))) for (const m of fs.readFileSync(path.join(dir, f), "utf8").matchAll(/\bt\("([A-Za-z]+)"/g)) used.add(m[1]);
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !keys.includes(k))).toEqual([]);
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
  });
});
