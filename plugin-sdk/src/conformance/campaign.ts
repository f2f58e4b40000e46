/**
 * The campaign kind's conformance (campaign-contract.ts), on top of the generic kit: a plugin of
 * kind "campaign" serves every CAMPAIGN_ROUTE_OPS operation under its route base, each with
 * `access` and validated params; hears `message.acked` (the counts come from acks); and runs
 * its dispatch on the core's scheduler (the `runJob` action of jobActions). A unit test: no
 * services.
 *
 *   runCampaignConformance({ plugin, routeBase: "campanhas", texts });
 */
import { CAMPAIGN_ROUTE_OPS, campaignRoute, type CampaignRouteOp } from "../campaign-contract";
import type { DefinedPlugin } from "../define-plugin";
import { PLUGIN_JOB_ACTION } from "../jobs";
import { checkEvents, checkPluginDefinition, checkRoutes, checkTexts, checkUi, PluginConformanceError, routesOf } from "./generic";

export interface CampaignConformanceOptions {
  plugin: DefinedPlugin;
  /** The type's route base ("campanhas"). */
  routeBase: string;
  texts?: Partial<Record<string, Record<string, unknown>>>;
  name?: string;
}

/** The campaign kind's own rules: problems thrown as one PluginConformanceError. */
export function checkCampaignPlugin(plugin: DefinedPlugin, routeBase: string): void {
  const problems: string[] = [];
  if (plugin.manifest.kind !== "campaign") problems.push(`manifest kind must be "campaign" (is "${plugin.manifest.kind}")`);
  if (!(plugin.manifest.ui?.routes ?? []).includes(routeBase)) problems.push(`platform.ui.routes must declare "${routeBase}" (the tier notice names it)`);
  const served = new Set(routesOf(plugin).map((r) => `${r.method} ${r.path}`));
  for (const op of Object.keys(CAMPAIGN_ROUTE_OPS) as CampaignRouteOp[]) {
    const route = campaignRoute(routeBase, op);
    if (!served.has(route)) problems.push(`serves no ${op} (${route})`);
  }
  const events = ((plugin.schema.metadata as { plugin?: { events?: string[] } } | undefined)?.plugin?.events ?? []) as string[];
  if (!events.includes("message.acked")) problems.push("does not hear message.acked (a campaign's counts come from acks)");
  if (!(plugin.schema.actions ?? {})[PLUGIN_JOB_ACTION]) problems.push(`has no ${PLUGIN_JOB_ACTION} action (dispatch runs on the core's scheduler: jobActions)`);
  if (problems.length) throw new PluginConformanceError(problems.join("\n"));
}

/** The generic kit plus the campaign kind's rules, as a jest suite (call it at the top level of a test file). */
export function runCampaignConformance(opts: CampaignConformanceOptions): void {
  const { plugin } = opts;
  describe(opts.name ?? `campaign conformance: ${plugin?.id ?? "(not a definePlugin() object)"}`, () => {
    it("is a definePlugin() object with a valid manifest and routes that follow every plugin's rules", () => {
      checkPluginDefinition(plugin);
      checkRoutes(plugin);
      checkEvents(plugin);
      checkUi(plugin);
    });
    it(`serves the campaign operations under /${opts.routeBase}, hears acks and dispatches through the scheduler`, () => checkCampaignPlugin(plugin, opts.routeBase));
    const texts = opts.texts;
    if (texts) it("has every text in pt-BR, en, es and ru, none empty", () => checkTexts(texts));
  });
}
