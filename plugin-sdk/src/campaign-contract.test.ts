/**
 * The campaign kind's contract: its statuses, keys and routes, and the kind's conformance
 * check (a campaign plugin serves every operation under its base, hears acks, runs jobs).
 */
import { CAMPAIGN_CONTACT_STATUSES, CAMPAIGN_ROUTE_OPS, CAMPAIGN_STATUSES, campaignRoute, campaignSendKey } from "./campaign-contract";
import { checkCampaignPlugin } from "./conformance/campaign";
import { definePlugin } from "./define-plugin";
import { jobActions } from "./jobs";
import type { ServiceSchema } from "moleculer";

const pkgJson = (kind: string) => ({
  name: "@x/campaign-test",
  version: "1.2.0",
  main: "src/service.ts",
  platform: { id: "campaign-test", kind, tier: "BASIC", coreApi: "^1.0.0", displayName: { "pt-BR": "Teste", en: "Test", es: "Prueba", ru: "Тест" }, ui: { remoteEntry: "remoteEntry.js", exposes: ["register"], routes: ["campanhas"] } },
});

const params = { id: { type: "number", optional: true } };
function routes(skip: string[] = []): NonNullable<ServiceSchema["actions"]> {
  const out: NonNullable<ServiceSchema["actions"]> = {};
  for (const op of Object.keys(CAMPAIGN_ROUTE_OPS) as Array<keyof typeof CAMPAIGN_ROUTE_OPS>) {
    if (skip.includes(op)) continue;
    out[op] = { rest: campaignRoute("campanhas", op), access: "user", params, handler: () => null } as NonNullable<ServiceSchema["actions"]>[string];
  }
  return out;
}

describe("the campaign contract", () => {
  it("names the spec's six statuses and the contact's statuses", () => {
    expect(CAMPAIGN_STATUSES).toEqual(["pending", "scheduled", "processing", "paused", "canceled", "finished"]);
    expect(CAMPAIGN_CONTACT_STATUSES).toContain("sending");
  });

  it("keys a contact's send by campaign and contact, and a rate-limited retry by its attempt", () => {
    expect(campaignSendKey(7, 913)).toBe("campaign:7:contact:913");
    expect(campaignSendKey(7, 913, 0)).toBe("campaign:7:contact:913");
    expect(campaignSendKey(7, 913, 2)).toBe("campaign:7:contact:913:retry:2");
    // The core's key alphabet (letters, digits and :._-, at most 150).
    expect(campaignSendKey(2 ** 31, 2 ** 31, 999)).toMatch(/^[A-Za-z0-9:._-]{1,150}$/);
  });

  it("puts every operation under the type's base", () => {
    expect(campaignRoute("campanhaswaba", "pause")).toBe("POST /campanhaswaba/item/pause");
    expect(campaignRoute("campanhas", "list")).toBe("GET /campanhas");
  });
});

describe("checkCampaignPlugin", () => {
  const good = () =>
    definePlugin({
      pkgJson: pkgJson("campaign"),
      service: { settings: { rest: "/" }, actions: { ...routes(), ...jobActions({ tick: () => null }) } },
      platformEvents: { "message.acked": () => undefined },
    });

  it("passes a campaign plugin that serves every operation, hears acks and has jobs", () => {
    expect(() => checkCampaignPlugin(good(), "campanhas")).not.toThrow();
  });

  it("names each missing piece", () => {
    const bad = definePlugin({ pkgJson: pkgJson("module"), service: { settings: { rest: "/" }, actions: routes(["pause", "cancel"]) } });
    let message = "";
    try {
      checkCampaignPlugin(bad, "campanhas");
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message.split("\n")).toEqual([
      'manifest kind must be "campaign" (is "module")',
      "serves no pause (POST /campanhas/item/pause)",
      "serves no cancel (POST /campanhas/item/cancel)",
      "does not hear message.acked (a campaign's counts come from acks)",
      "has no runJob action (dispatch runs on the core's scheduler: jobActions)",
    ]);
    expect(() => checkCampaignPlugin(good(), "campanhasms")).toThrow(/platform.ui.routes must declare "campanhasms"/);
  });
});
