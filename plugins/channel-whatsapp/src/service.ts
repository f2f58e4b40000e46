/**
 * WhatsApp linked-device channel (Baileys 7). Each connection is one session: linked by QR
 * code or pairing code, its creds and Signal keys in the plugin's own tables, run by exactly
 * one node of the cluster (a Redis lock), reconnected by close reason and watched for being
 * stuck or deaf (session/). What its messages mean for the core is the message side's
 * (messages/, groups/, contacts/); channel.ts joins the two behind the contract's actions.
 *
 * Routes for the connection form (admins of the tenant; the connection is named by its token):
 *   POST /api/channel-whatsapp/pairing-code  { token, phone }  → { code, status }
 *   POST /api/channel-whatsapp/reset         { token }         → status (a new QR follows live)
 *   GET  /api/channel-whatsapp/health?token=…                  → the session's health
 *
 * `createWhatsAppPlugin(options)` makes the plugin with other parts (tests: a fake socket
 * factory, a clock); the default export is the real one.
 */
import type { Context } from "moleculer";
import IORedis from "ioredis";
import {
  channelActionParams,
  checkOutbound,
  definePlugin,
  openPluginData,
  pluginContext,
  pluginServiceName,
  type Caller,
  type ChannelCapability,
  type CheckNumberParams,
  type ConnectParams,
  type ConnectionRef,
  type DefinedPlugin,
  type MarkReadParams,
  type PluginContext,
  type PluginData,
  type SendParams,
  type TestParams,
} from "@openatende/plugin-sdk";
import { WhatsAppChannel, type AdminCtx } from "./channel";
import { groupActions } from "./group-actions";
import { acksFromReceipts, acksFromUpdates, buildSend, externalIdOf, normaliseMessage } from "./messages";
import { contactUpdates, historyContactUpdates, ProfilePictures } from "./contacts";
import { GroupDirectory } from "./groups";
import { systemClock, type Clock } from "./session/clock";
import { SharedKeyCache } from "./session/key-cache";
import { SessionManager } from "./session/manager";
import { OwnerLocks } from "./session/owner-lock";
import { DEFAULT_SESSION_OPTIONS, type SessionOptions } from "./session/session";
import { BaileysSocketFactory, type SocketFactory } from "./session/socket-factory";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const pkg = require("../package.json") as { version: string; platform: { id: string; channel: { capabilities: ChannelCapability[] } } };
const CAPABILITIES = pkg.platform.channel.capabilities;
const SERVICE = pluginServiceName(pkg.platform.id, Number(pkg.version.split(".")[0]));

export interface WhatsAppPluginOptions {
  /** The socket factory (default: Baileys' makeWASocket with the service's settings). */
  socketFactory?(parts: { log: { warn(...a: unknown[]): void }; clock: Clock }): SocketFactory;
  clock?: Clock;
  random?(): number;
  session?: Partial<SessionOptions>;
  /** The plugin's own database (default: the one the host prepared, openPluginData). */
  openData?(service: object): Promise<PluginData>;
  lockTtlMs?: number;
  sweepMs?: number;
  sendIntervalMs?: number;
}

interface Parts {
  channel: WhatsAppChannel;
  manager: SessionManager;
  redis: IORedis;
}

const partsOf = (svc: unknown) => (svc as { wa: Parts }).wa;
type Ctx<P> = Context<P, { waForwarded?: boolean }>;

const token = { type: "string", min: 10, max: 64 } as const;

export function createWhatsAppPlugin(options: WhatsAppPluginOptions = {}): DefinedPlugin {
  return definePlugin({
    pkgJson: require("../package.json"),
    service: {
      settings: {
        rest: "/",
        /** WhatsApp Web version [major, minor, build]; default the one Baileys was released with. */
        waVersion: undefined as [number, number, number] | undefined,
        baileysLogLevel: "warn" as "warn" | "silent",
      },

      created(this: any) {
        const context: PluginContext = pluginContext(this);
        const clock = options.clock ?? systemClock;
        const log = this.logger as { info(...a: unknown[]): void; warn(...a: unknown[]): void };
        const core: Caller = { call: (action, params, opts) => this.broker.call(action, params, { ...(opts ?? {}), caller: this.fullName }) };
        const redis = new IORedis(context.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 3000 });
        redis.on("error", () => undefined);
        const factory =
          options.socketFactory?.({ log, clock }) ??
          new BaileysSocketFactory({ version: this.settings.waVersion, logLevel: this.settings.baileysLogLevel, log, clock });
        const nodeId = this.broker.nodeID as string;
        const manager = new SessionManager({
          core,
          data: () => (options.openData ? options.openData(this) : openPluginData(this)),
          // Under the installation's prefix. The owner locks live seconds (renewed by their node): a
          // lock of before redisPrefix is simply not seen, and expires. The fence counters and the
          // wanted registry are durable (a fence lower than the one the session's row holds is
          // refused by auth-state.ts): OwnerLocks carries those over from legacyPrefix.
          locks: new OwnerLocks({ redis, prefix: `${context.redisPrefix}:${pkg.platform.id}`, legacyPrefix: `${context.namespace}:${pkg.platform.id}`, nodeId, ttlMs: options.lockTtlMs, clock, log }),
          factory,
          clock,
          random: options.random ?? Math.random,
          options: { ...DEFAULT_SESSION_OPTIONS, ...(options.session ?? {}) },
          messages: { normaliseMessage, acksFromUpdates, acksFromReceipts, buildSend, externalIdOf, contactUpdates, historyContactUpdates },
          groupsFor: (_ref, port) => new GroupDirectory({ fetch: (jid) => port.groupMetadata(jid), now: () => clock.now() }),
          picturesFor: () => new ProfilePictures({ now: () => clock.now() }),
          keyCache: new SharedKeyCache(),
          sendIntervalMs: options.sendIntervalMs,
          sweepMs: options.sweepMs,
          nodeId,
          log,
        });
        const channel = new WhatsAppChannel({ manager, core, serviceName: SERVICE, pluginId: pkg.platform.id, nodeId, context, log, now: () => clock.now() });
        this.wa = { channel, manager, redis } satisfies Parts;
      },

      async started(this: any) {
        partsOf(this).manager.startSweep();
      },

      async stopped(this: any) {
        const { manager, redis } = partsOf(this);
        // Sockets end without logout and locks are released: another node takes the sessions over.
        await manager.stop();
        await redis.quit().catch(() => redis.disconnect());
      },

      actions: {
        // --- the Groups tab: new groups, join requests (group-actions.ts) -------------------------
        ...groupActions,

        // --- the channel contract -------------------------------------------------------------
        connect: {
          params: channelActionParams.connect,
          handler(this: any, ctx: Ctx<ConnectParams>) {
            return partsOf(this).channel.connect(ctx.params, ctx);
          },
        },
        disconnect: {
          params: channelActionParams.disconnect,
          handler(this: any, ctx: Ctx<ConnectionRef>) {
            return partsOf(this).channel.disconnect({ tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId }, ctx);
          },
        },
        status: {
          params: channelActionParams.status,
          handler(this: any, ctx: Ctx<ConnectionRef>) {
            return partsOf(this).channel.status({ tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId }, ctx);
          },
        },
        send: {
          params: channelActionParams.send,
          handler(this: any, ctx: Ctx<SendParams>) {
            const { tenantId, connectionId, to, message, messageId } = ctx.params;
            checkOutbound(CAPABILITIES, message);
            return partsOf(this).channel.send({ tenantId, connectionId }, to.externalId, message, messageId, ctx);
          },
        },
        // Optional actions, declared in package.json (platform.channel.receipts / numberCheck).
        markRead: {
          params: channelActionParams.markRead,
          handler(this: any, ctx: Ctx<MarkReadParams>) {
            const { tenantId, connectionId, to, providerMessageIds } = ctx.params;
            return partsOf(this).channel.markRead({ tenantId, connectionId }, to.externalId, providerMessageIds, ctx);
          },
        },
        checkNumber: {
          params: channelActionParams.checkNumber,
          handler(this: any, ctx: Ctx<CheckNumberParams>) {
            return partsOf(this).channel.checkNumber({ tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId }, ctx.params.number, ctx);
          },
        },
        test: {
          params: channelActionParams.test,
          handler(this: any, ctx: Ctx<TestParams>) {
            return partsOf(this).channel.test(ctx.params.settings);
          },
        },

        // --- the connection form (admins of the tenant) ------------------------------------------
        pairingCode: {
          rest: "POST /channel-whatsapp/pairing-code",
          access: "admin",
          params: { token, phone: { type: "string", pattern: /^\+?[0-9][0-9 ().-]{6,30}$/ } },
          handler(this: any, ctx: AdminCtx<{ token: string; phone: string }>) {
            return partsOf(this).channel.pairingCode(ctx);
          },
        },
        reset: {
          rest: "POST /channel-whatsapp/reset",
          access: "admin",
          params: { token },
          handler(this: any, ctx: AdminCtx<{ token: string }>) {
            return partsOf(this).channel.reset(ctx);
          },
        },
        health: {
          rest: "GET /channel-whatsapp/health",
          access: "admin",
          params: { token },
          handler(this: any, ctx: AdminCtx<{ token: string }>) {
            return partsOf(this).channel.health(ctx);
          },
        },
      },
    },
  });
}

export const whatsAppChannelPlugin = createWhatsAppPlugin();
export default whatsAppChannelPlugin;
