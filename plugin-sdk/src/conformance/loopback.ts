/**
 * A channel plugin whose "provider" is memory: the smallest plugin that honours the channel
 * contract, for tests of the core's channel side and of the kit itself. `faults` make it
 * break one rule of the contract on purpose.
 *
 * Its extra actions play the provider: `deliver { tenantId, connectionId, key, body? }`
 * delivers message `key` (again, for a replay); `deliverChange { …, key, change }` reports a
 * reaction, its removal, an edit or a deletion of that message; `deliverContact { …, key }`
 * reports a new name and picture of its sender — loopbackDriver triggers them.
 */
import type { ServiceBroker } from "moleculer";
import type { Context } from "moleculer";
import { ChannelCapability, ConnectParams, ConnectionRef, ConnectionStatus, SendParams, TestParams } from "../channel-contract";
import { definePlugin, DefinedPlugin, pluginServiceName } from "../define-plugin";
import { changeMessage, channelActionParams, checkOutbound, inbound, reportStatus, updateContact } from "../helpers";
import type { ChangeTrigger, InboundDriver } from "./checks";

export interface LoopbackFaults {
  /** connect does not report its status to the core. */
  silentConnect?: boolean;
  /** disconnect does not report "disconnected". */
  silentDisconnect?: boolean;
  /** send accepts kinds it did not declare. */
  acceptUndeclared?: boolean;
  /** send answers a timestamp in seconds. */
  secondsTimestamp?: boolean;
  /** a replayed inbound message gets a new provider id. */
  unstableInboundIds?: boolean;
  /** inbound messages lack from.externalId (the core refuses them). */
  anonymousInbound?: boolean;
  /** this action declares no params. */
  noParamsOn?: "connect" | "disconnect" | "status" | "send" | "test";
  /** changes name a provider id of their own instead of the changed message's. */
  changeWrongTarget?: boolean;
  /** a reaction taken away names another reactor. */
  unreactionOtherReactor?: boolean;
  /** reactions do not say who reacted (the core refuses them). */
  reactionWithoutBy?: boolean;
  /** contact updates name the contact by its display name, not its id. */
  contactByName?: boolean;
}

export interface LoopbackOptions {
  id?: string;
  version?: string;
  capabilities?: ChannelCapability[];
  /** More of the manifest's `platform.channel` (optional-action flags: receipts, templates…), without the actions behind them. */
  channelFlags?: Record<string, unknown>;
  faults?: LoopbackFaults;
}

type Ctx<P> = Context<P>;

export function createLoopbackChannel(opts: LoopbackOptions = {}): DefinedPlugin {
  const faults = opts.faults ?? {};
  const capabilities = opts.capabilities ?? ["text", "media", "reaction", "delete"];
  const statuses = new Map<string, ConnectionStatus>();
  const firstSeen = new Map<string, number>();
  let seq = 0;
  const keyOf = (r: ConnectionRef) => `${r.tenantId}:${r.connectionId}`;
  const params = <T extends keyof typeof channelActionParams>(a: T) => (faults.noParamsOn === a ? undefined : channelActionParams[a]);

  return definePlugin({
    pkgJson: {
      name: "@openatende/channel-loopback",
      version: opts.version ?? "1.0.0",
      platform: {
        id: opts.id ?? "channel-loopback",
        kind: "channel",
        tier: "FREE",
        coreApi: "^1.0.0",
        displayName: { "pt-BR": "Loopback (testes)", en: "Loopback (tests)" },
        settingsSchema: { token: { type: "string", min: 1 } },
        channel: { capabilities, ...(opts.channelFlags ?? {}) },
      },
    },
    service: {
      actions: {
        connect: {
          params: params("connect"),
          async handler(ctx: Ctx<ConnectParams>) {
            const ref = { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId };
            statuses.set(keyOf(ref), "connected");
            if (!faults.silentConnect) await reportStatus(ctx, { ...ref, status: "connected" });
            return { status: "connected" };
          },
        },
        disconnect: {
          params: params("disconnect"),
          async handler(ctx: Ctx<ConnectionRef>) {
            const ref = { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId };
            statuses.set(keyOf(ref), "disconnected");
            if (!faults.silentDisconnect) await reportStatus(ctx, { ...ref, status: "disconnected" });
            return { status: "disconnected" };
          },
        },
        status: {
          params: params("status"),
          handler(ctx: Ctx<ConnectionRef>) {
            return { status: statuses.get(keyOf(ctx.params)) ?? "disconnected" };
          },
        },
        send: {
          params: params("send"),
          handler(ctx: Ctx<SendParams>) {
            if (!faults.acceptUndeclared) checkOutbound(capabilities, ctx.params.message);
            const now = Date.now();
            return { providerMessageId: `loop-out-${++seq}`, timestamp: faults.secondsTimestamp ? Math.floor(now / 1000) : now };
          },
        },
        test: {
          params: params("test"),
          handler(ctx: Ctx<TestParams>) {
            return { ok: ctx.params.settings.token !== "bad", detail: "loopback" };
          },
        },
        deliver: {
          params: { tenantId: "number", connectionId: "number", key: "string", body: { type: "string", optional: true } },
          async handler(ctx: Ctx<ConnectionRef & { key: string; body?: string }>) {
            const { tenantId, connectionId, key } = ctx.params;
            const k = `${keyOf(ctx.params)}:${key}`;
            if (!firstSeen.has(k)) firstSeen.set(k, Date.now());
            const providerMessageId = faults.unstableInboundIds ? `loop-in-${key}-${++seq}` : `loop-in-${key}`;
            return inbound(ctx, {
              tenantId,
              connectionId,
              providerMessageId,
              timestamp: firstSeen.get(k)!,
              from: { externalId: faults.anonymousInbound ? "" : `visitor-${key}`, name: "Loopback visitor" },
              body: ctx.params.body ?? `hello from ${key}`,
            });
          },
        },
        deliverChange: {
          params: { tenantId: "number", connectionId: "number", key: "string", change: { type: "enum", values: ["reaction", "unreaction", "edit", "delete"] } },
          async handler(ctx: Ctx<ConnectionRef & { key: string; change: ChangeTrigger }>) {
            const { tenantId, connectionId, key, change } = ctx.params;
            const providerMessageId = faults.changeWrongTarget ? `loop-change-${++seq}` : `loop-in-${key}`;
            const by = (removal: boolean) => (faults.reactionWithoutBy ? "" : removal && faults.unreactionOtherReactor ? `someone-else-${key}` : `visitor-${key}`);
            const what =
              change === "reaction"
                ? ({ type: "reaction", emoji: "👍", by: by(false) } as const)
                : change === "unreaction"
                  ? ({ type: "reaction", emoji: "", by: by(true) } as const)
                  : change === "edit"
                    ? ({ type: "edit", body: `edited ${key}` } as const)
                    : ({ type: "delete" } as const);
            return changeMessage(ctx, { tenantId, connectionId, providerMessageId, change: what, timestamp: Date.now() });
          },
        },
        deliverContact: {
          params: { tenantId: "number", connectionId: "number", key: "string" },
          async handler(ctx: Ctx<ConnectionRef & { key: string }>) {
            const { tenantId, connectionId, key } = ctx.params;
            return updateContact(ctx, { tenantId, connectionId, externalId: faults.contactByName ? "Loopback visitor" : `visitor-${key}`, name: "Loopback visitor (renamed)", avatarUrl: null });
          },
        },
      },
    },
  });
}

/** The driver of a loopback channel: calls its `deliver`, `deliverChange` and `deliverContact` actions. */
export function loopbackDriver(plugin: DefinedPlugin): InboundDriver {
  const service = pluginServiceName(plugin.id, plugin.major);
  return {
    async triggerInbound(broker: ServiceBroker, ref: ConnectionRef, key: string) {
      await broker.call(`${service}.deliver`, { ...ref, key });
    },
    async triggerChange(broker: ServiceBroker, ref: ConnectionRef, key: string, change: ChangeTrigger) {
      await broker.call(`${service}.deliverChange`, { ...ref, key, change });
    },
    async triggerContact(broker: ServiceBroker, ref: ConnectionRef, key: string) {
      await broker.call(`${service}.deliverContact`, { ...ref, key });
    },
  };
}
