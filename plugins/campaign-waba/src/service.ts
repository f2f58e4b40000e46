/**
 * WABA template campaigns (spec §2 /campanhaswaba and /campanhaswaba/{campanhaId}, PREMIUM): the
 * campaign engine (libs/campaign-engine) with the template type's content (src/type.ts) under
 * /api/campanhaswaba/…. Statuses, contacts, pacing, business hours, exactly once and counts are
 * the engine's. What this plugin adds around the engine's create, update and schedule: the
 * template is checked on every connection of the campaign (src/templates.ts) — the engine's
 * own content check is synchronous and sees no connection.
 */
import type { Context } from "moleculer";
import { definePlugin, PluginError, type PluginServiceSchema } from "@openatende/plugin-sdk";
import { campaignMediaActions, campaignService, type CampaignStore } from "@openatende/campaign-engine";
import { checkedContent } from "./templates";
import { ERROR_PREFIX, wabaContentParams, wabaType, type WabaContent } from "./type";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json");

export { ERROR_PREFIX };

type Ctx = Context<Record<string, unknown>, { user?: { tenantId: number } }>;
type Action = { handler: (this: unknown, ctx: Ctx) => unknown } & Record<string, unknown>;

const campaigns = campaignService({ type: wabaType, errorPrefix: ERROR_PREFIX, tier: "PREMIUM", contentParams: wabaContentParams });

function tenantOf(ctx: Ctx): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw new PluginError("ERR_SESSION_REQUIRED", 401);
  return t;
}

/** The engine's action, after the template check of what it is about to save or schedule. */
function checked(action: Action, check: (self: { store: CampaignStore }, ctx: Ctx) => Promise<void>): Action {
  return {
    ...action,
    async handler(this: unknown, ctx: Ctx) {
      await check(this as { store: CampaignStore }, ctx);
      return action.handler.call(this, ctx);
    },
  };
}

/** A draft's content, checked on its connections, becomes the one saved (with the template's texts). */
async function checkDraft(_self: unknown, ctx: Ctx): Promise<void> {
  const p = ctx.params as { content: WabaContent; connectionIds: number[] };
  const problems = wabaType.validateContent(p.content);
  if (Object.keys(problems).length) return; // the engine answers its content code
  ctx.params = { ...ctx.params, content: await checkedContent(ctx, tenantOf(ctx), p.content, p.connectionIds) };
}

/** A template may have been paused or deleted since the campaign was saved. */
async function checkScheduled(self: { store: CampaignStore }, ctx: Ctx): Promise<void> {
  const tenantId = tenantOf(ctx);
  const c = await self.store.get(tenantId, Number(ctx.params.id));
  await checkedContent(ctx, tenantId, c.content as WabaContent, c.connectionIds);
}

const actions = campaigns.service.actions as Record<string, Action>;
const service: PluginServiceSchema = {
  ...campaigns.service,
  actions: {
    ...actions,
    create: checked(actions.create!, checkDraft),
    update: checked(actions.update!, checkDraft),
    schedule: checked(actions.schedule!, checkScheduled),
    // An image, video or document header's file (the same for every contact).
    ...campaignMediaActions("campanhaswaba", "PREMIUM"),
  },
};

export const campaignWabaPlugin = definePlugin({
  pkgJson: pkg,
  service,
  platformEvents: campaigns.platformEvents,
});

export default campaignWabaPlugin;
