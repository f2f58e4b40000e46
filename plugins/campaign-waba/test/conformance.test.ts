/**
 * The campaign kind's conformance kit on the plugin (its operations under /campanhaswaba, acks,
 * dispatch on the scheduler, its UI routes), its codes — the engine's under its prefix and its
 * own template codes, each in four languages — and its texts in four languages.
 */
import { routesOf, runCampaignConformance } from "@openatende/plugin-sdk";
import { engineManifestErrors } from "@openatende/campaign-engine";
import { campaignTexts } from "@openatende/campaign-engine/src/ui/texts";
import plugin, { ERROR_PREFIX } from "../src/service";
import { WABA_CODES } from "../src/templates";
import { LOCALES, texts } from "../src/ui/texts";

runCampaignConformance({ plugin, routeBase: "campanhaswaba", texts: Object.fromEntries(LOCALES.map((l) => [l, { ...campaignTexts[l], ...texts[l] }])) });

describe("the WABA campaign plugin", () => {
  it("is a PREMIUM campaign type for supervisors and admins, with its list and detail screens", () => {
    expect(plugin.manifest).toMatchObject({ id: "campaign-waba", kind: "campaign", tier: "PREMIUM", ui: { exposes: ["register"], routes: ["campanhaswaba", "campanhaswaba/:id"] } });
    for (const r of routesOf(plugin)) {
      expect(r.path).toMatch(/^\/campanhaswaba(\/|$)/);
      expect(r.def.tier).toBe("PREMIUM");
      expect(r.def.access).toBe("supervisor");
    }
  });

  it("declares the engine's codes under its prefix and its own template codes", () => {
    const own = Object.values(WABA_CODES);
    const errors = plugin.manifest.errors ?? {};
    expect(Object.keys(errors).sort()).toEqual([...Object.keys(engineManifestErrors(ERROR_PREFIX)), ...own].sort());
    expect(Object.fromEntries(Object.entries(errors).filter(([k]) => !own.includes(k as (typeof own)[number])))).toEqual(engineManifestErrors(ERROR_PREFIX));
    for (const code of own) expect(errors[code]).toMatchObject({ status: 400, "pt-BR": { title: expect.any(String) }, en: { title: expect.any(String) }, es: { title: expect.any(String) }, ru: { title: expect.any(String) } });
  });
});
