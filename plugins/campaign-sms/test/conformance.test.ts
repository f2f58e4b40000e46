/**
 * The campaign kind's conformance kit on the SMS plugin (its operations under /campanhasms,
 * acks, dispatch on the scheduler, its UI routes), its codes (the engine's under its prefix and
 * its own three), and its texts (the shared screens' and its editor's) in four languages.
 */
import { routesOf, runCampaignConformance } from "@openatende/plugin-sdk";
import { engineManifestErrors } from "@openatende/campaign-engine";
import { campaignTexts } from "@openatende/campaign-engine/src/ui/texts";
import plugin, { ERROR_PREFIX } from "../src/service";
import { LOCALES, texts } from "../src/ui/texts";

runCampaignConformance({ plugin, routeBase: "campanhasms", texts: Object.fromEntries(LOCALES.map((l) => [l, { ...campaignTexts[l], ...texts[l] }])) });

describe("the SMS campaign plugin", () => {
  it("is a PREMIUM campaign type for supervisors and admins, with its list and detail screens", () => {
    expect(plugin.manifest).toMatchObject({ id: "campaign-sms", kind: "campaign", tier: "PREMIUM", ui: { exposes: ["register"], routes: ["campanhasms", "campanhasms/:id"] } });
    for (const r of routesOf(plugin)) {
      expect(r.path).toMatch(/^\/campanhasms(\/|$)/);
      expect(r.def.tier).toBe("PREMIUM");
      expect(r.def.access).toBe("supervisor");
    }
  });

  it("declares the engine's codes under its prefix and its own number and connection codes, and no core code", () => {
    const errors = plugin.manifest.errors ?? {};
    expect(errors).toMatchObject(engineManifestErrors(ERROR_PREFIX));
    expect(Object.keys(errors).filter((k) => !(k in engineManifestErrors(ERROR_PREFIX))).sort()).toEqual(["ERR_CAMPAIGN_SMS_CONNECTION_NOT_SMS", "ERR_CAMPAIGN_SMS_DUPLICATE_NUMBERS", "ERR_CAMPAIGN_SMS_INVALID_NUMBERS"]);
  });
});
