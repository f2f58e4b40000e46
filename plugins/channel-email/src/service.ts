/**
 * E-mail channel. Each connected connection keeps one IMAP session on its INBOX (IDLE, with a
 * polling fallback and reconnection; see mailbox.ts): customers' mail becomes inbound
 * messages (inbound.ts), bounces and read receipts become acks. Agents' messages leave by
 * SMTP as replies in the customer's thread (outbound.ts). The settings screen's "test IMAP"
 * and "test SMTP" buttons call the REST actions testImap / testSmtp (probe.ts).
 *
 * State that must survive a restart (UID cursor, Message-IDs handed over, threads) is in
 * Redis (store.ts); where that Redis is, the key namespace and the core's files come from the
 * platform context the host gives the service (the SDK's pluginContext). The behaviour lives in channel.ts; the
 * actions below only hand their params over.
 */
import type { Context } from "moleculer";
import { channelActionParams, definePlugin, pluginContext, pluginServiceName, type ChannelCapability, type ConnectParams, type ConnectionRef, type SendParams, type TestParams } from "@openatende/plugin-sdk";
import { EmailChannel, EmailServiceSettings, UserCtx } from "./channel";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { version: string; platform: { id: string; channel: { capabilities: ChannelCapability[] } } };

/** The service instance carries its EmailChannel (made in `created`). */
const channelOf = (svc: object) => (svc as { channel: EmailChannel }).channel;
const testParams = { settings: { type: "object" }, token: { type: "string", min: 10, max: 64, optional: true } } as const;

export const emailChannelPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/", pollIntervalMs: 30_000, idle: true, initialDays: 3, backoffMs: { min: 1000, max: 60_000 } },

    created() {
      const settings = this.settings as EmailServiceSettings;
      this.channel = new EmailChannel(this.broker, this.logger, {
        ...settings,
        pluginId: pkg.platform.id,
        serviceName: pluginServiceName(pkg.platform.id, Number(pkg.version.split(".")[0])),
        capabilities: pkg.platform.channel.capabilities,
        context: pluginContext(this),
      });
    },

    async stopped() {
      await channelOf(this).stop();
    },

    actions: {
      // --- the channel contract ---------------------------------------------------------------
      connect: {
        params: channelActionParams.connect,
        handler(ctx: Context<ConnectParams>) {
          return channelOf(this).connect(ctx.params);
        },
      },
      disconnect: {
        params: channelActionParams.disconnect,
        handler(ctx: Context<ConnectionRef>) {
          return channelOf(this).disconnect(ctx);
        },
      },
      status: {
        params: channelActionParams.status,
        handler(ctx: Context<ConnectionRef>) {
          return channelOf(this).status(ctx.params);
        },
      },
      send: {
        params: channelActionParams.send,
        handler(ctx: Context<SendParams>) {
          return channelOf(this).send(ctx.params);
        },
      },
      test: {
        params: channelActionParams.test,
        handler(ctx: Context<TestParams>) {
          return channelOf(this).test(ctx.params);
        },
      },

      // --- the settings screen's buttons (admins of a tenant with the plugin enabled) ----------
      testImap: {
        rest: "POST /channel-email/test-imap",
        access: "admin",
        params: testParams,
        handler(ctx: UserCtx<{ settings: Record<string, unknown>; token?: string }>) {
          return channelOf(this).testImap(ctx);
        },
      },
      testSmtp: {
        rest: "POST /channel-email/test-smtp",
        access: "admin",
        params: testParams,
        handler(ctx: UserCtx<{ settings: Record<string, unknown>; token?: string }>) {
          return channelOf(this).testSmtp(ctx);
        },
      },
    },
  },
});

export default emailChannelPlugin;
