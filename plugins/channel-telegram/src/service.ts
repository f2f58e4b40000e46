/**
 * Telegram channel (Bot API through telegraf). Each connection is one bot, in one of two
 * modes: webhook (Telegram posts updates to POST /api/telegram/<connection token>/webhook,
 * signed with a secret derived from the bot token) or long polling (getUpdates). Either way
 * an update is dropped when its update_id was handed over lately, normalised to the channel
 * contract (files downloaded and handed over inline) and given to the core. Sends go through
 * a queue per bot that keeps Telegram's limits and honours 429 retry_after.
 * The work itself is in channel.ts; this file is the service and its routes.
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import type { Update } from "telegraf/types";
import {
  definePlugin,
  pluginContext,
  resolveToken,
  channelContractActions,
  type ChannelCapability,
} from "@openatende/plugin-sdk";
import { SECRET_HEADER, readSettings, redact, sameSecret, webhookSecret } from "./bot-api";
import { TelegramChannel } from "./channel";
import { telegramSentLog } from "./sent-log";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { platform: { channel: { capabilities: ChannelCapability[] } } };
const CAPABILITIES = pkg.platform.channel.capabilities;

type Ctx<P = any> = Context<P, { headers?: Record<string, string> }>;

const channelOf = (svc: any): TelegramChannel => svc.channel as TelegramChannel;

export const telegramChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/", pollTimeoutSec: 25 },
    created(this: any) {
      const context = pluginContext(this);
      this.channel = new TelegramChannel({
        core: { call: (action, params, opts) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) },
        logger: this.logger,
        pollTimeoutSec: this.settings.pollTimeoutSec,
        context,
        // Under the installation's prefix. What was logged under the namespace alone (before
        // redisPrefix) is not carried over: an entry only answers a message the core hands over
        // again because the answer of its send was lost, which happens in the moments around a
        // crash; after an upgrade the one send exposed is one cut by the upgrade's own restart,
        // as exposed as to a kill at that moment. The old entries expire on their own (7 days).
        sentLog: telegramSentLog({ redisUrl: context.redisUrl, prefix: `${context.redisPrefix}:channel-telegram`, log: this.logger }),
      });
    },
    async stopped(this: any) {
      await channelOf(this).stop();
    },
    actions: {
      // --- the channel contract -------------------------------------------------------------
      ...channelContractActions((svc) => channelOf(svc), CAPABILITIES),

      // --- Telegram's webhook (public, keyed by the connection token, signed) ------------------
      webhook: {
        rest: "POST /telegram/:token/webhook",
        access: "public",
        resource: "public",
        headers: [SECRET_HEADER],
        params: { token: { type: "string", min: 10, max: 64 } },
        async handler(this: any, ctx: Ctx<{ token: string } & Record<string, unknown>>) {
          const r = await resolveToken(ctx, ctx.params.token);
          // A disconnected connection takes nothing (its webhook was deleted; a late delivery is dropped).
          if (!r || r.status === "inactive" || r.status === "disconnected") throw new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");
          const read = readSettings(r.settings);
          if (!read.ok || read.settings.mode !== "webhook") throw new Errors.MoleculerClientError("This connection takes no webhook", 404, "ERR_CONNECTION_NOT_FOUND");
          // Only Telegram knows the secret given to setWebhook: anything else is refused unread.
          if (!sameSecret(ctx.meta.headers?.[SECRET_HEADER], webhookSecret(read.settings.token, ctx.params.token))) {
            throw new Errors.MoleculerClientError("Wrong or missing webhook secret", 401, "ERR_TOKEN_INVALID", { reason: "webhook-secret" });
          }
          const { token: _token, ...update } = ctx.params;
          if (!Number.isInteger(update.update_id) || (update.update_id as number) < 0) {
            throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [{ type: "number", field: "update_id", message: "The 'update_id' field must be a number." }]);
          }
          const channel = channelOf(this);
          const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
          try {
            const result = await channel.handleUpdate(ref, channel.clientForWebhook(r.connectionId, read.settings), update as unknown as Update, ctx);
            return { ok: true, result };
          } catch (err) {
            // Not taken: an answer other than 2xx makes Telegram deliver it again later.
            this.logger.warn(`connection ${r.connectionId}: webhook update ${update.update_id} not handed over: ${redact((err as Error).message)}`);
            throw new Errors.MoleculerRetryableError("Try again later", 503, "ERR_SERVICE_UNAVAILABLE");
          }
        },
      },
    },
  },
});

export default telegramChannelPlugin;
