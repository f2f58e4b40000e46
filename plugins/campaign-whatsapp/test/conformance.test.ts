/**
 * The campaign kind's conformance kit on the plugin (its operations under /campanhas, acks,
 * dispatch on the scheduler, its UI routes), its engine codes under its prefix, and its texts
 * (the shared screens' and its editor's) in four languages.
 */
import { routesOf, runCampaignConformance } from "@openatende/plugin-sdk";
import { engineManifestErrors } from "@openatende/campaign-engine";
import { campaignTexts } from "@openatende/campaign-engine/src/ui/texts";
import plugin, { ERROR_PREFIX } from "../src/service";
import { LOCALES, texts } from "../src/ui/texts";

runCampaignConformance({ plugin, routeBase: "campanhas", texts: Object.fromEntries(LOCALES.map((l) => [l, { ...campaignTexts[l], ...texts[l] }])) });

describe("the normal campaign plugin", () => {
  it("is a BASIC campaign type for supervisors and admins, with its list and detail screens", () => {
    expect(plugin.manifest).toMatchObject({ id: "campaign-whatsapp", kind: "campaign", tier: "BASIC", ui: { exposes: ["register"], routes: ["campanhas", "campanhas/:id"] } });
    for (const r of routesOf(plugin)) {
      expect(r.path).toMatch(/^\/campanhas(\/|$)/);
      expect(r.def.tier).toBe("BASIC");
      expect(r.def.access).toBe("supervisor");
    }
    expect(routesOf(plugin).map((r) => `${r.method} ${r.path}`)).toContain("POST /campanhas/media");
  });

  it("declares exactly the engine's codes under its prefix", () => {
    expect(plugin.manifest.errors).toEqual(engineManifestErrors(ERROR_PREFIX));
  });
});
