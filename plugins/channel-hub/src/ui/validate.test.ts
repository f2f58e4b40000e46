/**
 * The connect form's rules and texts (a unit test: no services). What the form accepts, the
 * core's check of the manifest's settingsSchema and the plugin's own reading accept too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Validator from "fastest-validator";
import { MASKED, newSecret, validateHub, VARIANTS } from "./validate";
import { texts } from "./texts";
import { HUB_VARIANTS, readSettings } from "../settings";
import pkg from "../../package.json";

const t = (k: string) => k;
const base = { variant: "instagram", channelToken: "3f2a9c1e-6b7d-4e8f-9a0b-1c2d3e4f5a6b", apiToken: "acct-token-123", webhookSecret: "s".repeat(40) };

describe("hub connect form", () => {
  it("requires the connection token (spec §5) and checks every field as the server does", () => {
    const schema = new Validator().compile({ $$strict: "remove", ...pkg.platform.settingsSchema } as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [base, {}],
      [{ ...base, variant: "email", emailSubject: "Atendimento Loja", apiUrl: "https://hub.notificame.com.br/v1" }, {}],
      [{ ...base, channelToken: undefined }, { channelToken: "errChannelTokenRequired" }],
      [{ ...base, channelToken: "  " }, { channelToken: "errChannelTokenRequired" }],
      [{ ...base, channelToken: "short" }, { channelToken: "errChannelTokenFormat" }],
      [{ ...base, channelToken: "has spaces in it" }, { channelToken: "errChannelTokenFormat" }],
      [{ ...base, apiToken: undefined }, { apiToken: "errApiTokenRequired" }],
      [{ ...base, apiToken: "a b c d e f" }, { apiToken: "errApiTokenFormat" }],
      [{ ...base, variant: "youtube" }, { variant: "errVariant" }],
      [{ ...base, variant: undefined }, { variant: "errVariant" }],
      [{ ...base, webhookSecret: undefined }, { webhookSecret: "errSecretRequired" }],
      [{ ...base, webhookSecret: "s".repeat(31) }, { webhookSecret: "errSecretFormat" }],
      [{ ...base, webhookSecret: `${"s".repeat(40)}/x` }, { webhookSecret: "errSecretFormat" }],
      [{ ...base, apiUrl: "ftp://hub" }, { apiUrl: "errUrl" }],
      [{ ...base, emailSubject: "x".repeat(201) }, { emailSubject: "errSubject" }],
    ];
    for (const [value, errors] of cases) {
      expect(validateHub(value, t)).toEqual(errors);
      expect(schema({ ...value }) === true).toBe(Object.keys(errors).length === 0);
      expect(readSettings(value).ok).toBe(Object.keys(errors).length === 0);
    }
    // Editing: masked secrets mean "keep the stored ones".
    expect(validateHub({ ...base, channelToken: MASKED, apiToken: MASKED, webhookSecret: MASKED }, t)).toEqual({});
  });

  it("offers the variants the manifest and the plugin know, and makes secrets fit for a URL path", () => {
    expect([...VARIANTS]).toEqual([...HUB_VARIANTS]);
    expect(pkg.platform.settingsSchema.variant.values).toEqual([...HUB_VARIANTS]);
    const a = newSecret();
    expect(a).toMatch(/^[A-Za-z0-9]{48}$/);
    expect(a).not.toBe(newSecret());
    expect(validateHub({ ...base, webhookSecret: a }, t)).toEqual({});
    expect(newSecret((b) => b.fill(0))).toBe("A".repeat(48));
  });

  it("has every text in the four languages, one label per variant, and every text the form uses", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    for (const v of VARIANTS) expect(keys).toContain(`variant_${v}`);
    const used = new Set<string>();
    for (const f of fs.readdirSync(__dirname).filter((n) => /\.tsx?$/.test(n) && !n.endsWith(".test.ts"))) {
      for (const m of fs.readFileSync(path.join(__dirname, f), "utf8").matchAll(/\bt\("([A-Za-z_]+)"/g)) used.add(m[1]);
      for (const m of fs.readFileSync(path.join(__dirname, f), "utf8").matchAll(/"(webhook(?:Loading|Unavailable|AfterSave))"/g)) used.add(m[1]);
    }
    expect(used.size).toBeGreaterThan(20);
    expect([...used].filter((k) => !keys.includes(k))).toEqual([]);
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
    for (const def of Object.values(pkg.platform.errors)) expect(Object.keys(def).sort()).toEqual(["en", "es", "pt-BR", "ru", "status"]);
  });
});
