/**
 * The connect form's rules and texts (a unit test: no services). What the form accepts, the
 * core's check of the manifest's settingsSchema and the plugin's own reading accept too.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import Validator from "fastest-validator";
import { FLAVOURS, MASKED, newVerifyToken, validateInstagram, webhookUrlOf } from "./validate";
import { texts } from "./texts";
import { FLAVOURS as PLUGIN_FLAVOURS, readSettings } from "../settings";
import pkg from "../../package.json";

const t = (k: string) => k;
const base = { flavour: "instagram", igAccountId: "17841400000000001", accessToken: "IGAA".padEnd(40, "x"), appSecret: "s".repeat(32), verifyToken: "verify-123", apiVersion: "v23.0" };

describe("instagram connect form", () => {
  it("checks every field as the server does, in both flavours", () => {
    const schema = new Validator().compile({ $$strict: "remove", ...pkg.platform.settingsSchema } as never);
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [base, {}],
      [{ ...base, flavour: "page", pageId: "1234567890", humanAgentTag: true, graphUrl: "https://graph.facebook.com" }, {}],
      [{ ...base, flavour: "page" }, { pageId: "err_pageId_required" }],
      [{ ...base, flavour: "page", pageId: "abc" }, { pageId: "errDigits" }],
      [{ ...base, igAccountId: undefined }, { igAccountId: "err_igAccountId_required" }],
      [{ ...base, igAccountId: "12" }, { igAccountId: "errDigits" }],
      [{ ...base, accessToken: "short" }, { accessToken: "errSecretFormat" }],
      [{ ...base, accessToken: undefined }, { accessToken: "err_accessToken_required" }],
      [{ ...base, appSecret: "s".repeat(15) }, { appSecret: "errSecretFormat" }],
      [{ ...base, verifyToken: "has spaces in it" }, { verifyToken: "errSecretFormat" }],
      [{ ...base, apiVersion: "23" }, { apiVersion: "errVersion" }],
      [{ ...base, graphUrl: "ftp://x" }, { graphUrl: "errUrl" }],
      [{ ...base, flavour: "whatsapp" }, { flavour: "errFlavour" }],
    ];
    for (const [value, errors] of cases) {
      expect(validateInstagram(value, t)).toEqual(errors);
      // The manifest cannot say "pageId is required for a page": the plugin's reading does.
      const schemaOk = schema({ ...value }) === true;
      if (!(value.flavour === "page" && !value.pageId)) expect(schemaOk).toBe(Object.keys(errors).length === 0);
      expect(readSettings(value).ok).toBe(Object.keys(errors).length === 0);
    }
    // Editing: masked secrets mean "keep the stored ones".
    expect(validateInstagram({ ...base, accessToken: MASKED, appSecret: MASKED, verifyToken: MASKED }, t)).toEqual({});
  });

  it("offers the flavours the manifest and the plugin know; makes verify tokens and the webhook URL", () => {
    expect([...FLAVOURS]).toEqual([...PLUGIN_FLAVOURS]);
    expect(pkg.platform.settingsSchema.flavour.values).toEqual([...PLUGIN_FLAVOURS]);
    const a = newVerifyToken();
    expect(a).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(a).not.toBe(newVerifyToken());
    expect(webhookUrlOf("https://atende.example.com/", "tok 1")).toBe("https://atende.example.com/api/instagram/tok%201/webhook");
  });

  it("has every text in the four languages, every text the form uses, and every error in four languages", () => {
    const keys = Object.keys(texts["pt-BR"]).sort();
    for (const locale of ["en", "es", "ru"] as const) expect(Object.keys(texts[locale]).sort()).toEqual(keys);
    for (const locale of Object.keys(texts) as Array<keyof typeof texts>) for (const v of Object.values(texts[locale])) expect(v.trim()).not.toBe("");
    const used = new Set<string>();
    for (const f of fs.readdirSync(__dirname).filter((n) => /\.tsx?$/.test(n) && !n.endsWith(".test.ts"))) {
      const src = fs.readFileSync(path.join(__dirname, f), "utf8");
      for (const m of src.matchAll(/\bt\("([A-Za-z_]+)"/g)) used.add(m[1]);
      for (const m of src.matchAll(/input\("([A-Za-z]+)"/g)) for (const k of [m[1], `${m[1]}Hint`]) used.add(k);
    }
    for (const k of ["flavourHint_instagram", "flavourHint_page", "err_igAccountId_required", "err_pageId_required", "err_accessToken_required", "err_appSecret_required", "err_verifyToken_required"]) used.add(k);
    expect(used.size).toBeGreaterThan(30);
    expect([...used].filter((k) => !keys.includes(k))).toEqual([]);
    expect(Object.keys(pkg.platform.displayName).sort()).toEqual(["en", "es", "pt-BR", "ru"]);
    for (const def of Object.values(pkg.platform.errors)) expect(Object.keys(def).sort()).toEqual(["en", "es", "pt-BR", "ru", "status"]);
  });
});
