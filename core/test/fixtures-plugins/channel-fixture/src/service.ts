/**
 * A good channel plugin for the host's tests: its "provider" is memory. The extra action
 * `receive` plays the provider delivering message `key` (again, for a replay); `receipts`
 * answers the read receipts `markRead` was handed (a contact whose id holds "refuse" makes it
 * throw, after recording). `checkNumber`: numbers ending in an even digit have an account.
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import { CheckNumberParams, ConnectParams, ConnectionRef, ConnectionStatus, MarkReadParams, SendParams, TestParams, channelActionParams, checkOutbound, definePlugin, inbound, reportStatus } from "@openatende/plugin-sdk";
import pkg from "../package.json";

const statuses = new Map<string, ConnectionStatus>();
const keyOf = (r: ConnectionRef) => `${r.tenantId}:${r.connectionId}`;
let seq = 0;
const receipts: MarkReadParams[] = [];

export const fixtureChannelPlugin = definePlugin({
  pkgJson: pkg,
  service: {
    actions: {
      connect: {
        params: channelActionParams.connect,
        async handler(ctx: Context<ConnectParams>) {
          const ref = { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId };
          statuses.set(keyOf(ref), "connected");
          await reportStatus(ctx, { ...ref, status: "connected" });
          // A plugin whose answer was made before its session opened (the report above is newer).
          if (ctx.params.settings.greeting === "late answer") return { status: "connecting" };
          return { status: "connected" };
        },
      },
      disconnect: {
        params: channelActionParams.disconnect,
        async handler(ctx: Context<ConnectionRef>) {
          const ref = { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId };
          statuses.set(keyOf(ref), "disconnected");
          await reportStatus(ctx, { ...ref, status: "disconnected" });
          return { status: "disconnected" };
        },
      },
      status: {
        params: channelActionParams.status,
        handler(ctx: Context<ConnectionRef>) {
          return { status: statuses.get(keyOf(ctx.params)) ?? "disconnected" };
        },
      },
      send: {
        params: channelActionParams.send,
        handler(ctx: Context<SendParams>) {
          checkOutbound(fixtureChannelPlugin.manifest.channel!.capabilities, ctx.params.message);
          return { providerMessageId: `fx-${++seq}`, timestamp: Date.now() };
        },
      },
      test: {
        params: channelActionParams.test,
        handler(ctx: Context<TestParams>) {
          return { ok: typeof ctx.params.settings.greeting === "string" };
        },
      },
      markRead: {
        params: channelActionParams.markRead,
        handler(ctx: Context<MarkReadParams>) {
          const { tenantId, connectionId, to, providerMessageIds } = ctx.params;
          receipts.push({ tenantId, connectionId, to: { externalId: to.externalId }, providerMessageIds: [...providerMessageIds] });
          if (to.externalId.includes("refuse")) throw new Error("fixture: the provider refused the receipts");
          return { sent: providerMessageIds.length };
        },
      },
      checkNumber: {
        params: channelActionParams.checkNumber,
        handler(ctx: Context<CheckNumberParams>) {
          if (statuses.get(keyOf(ctx.params)) !== "connected") throw new Errors.MoleculerClientError("fixture: not connected", 409, "ERR_SESSION_NOT_INITIALIZED");
          const exists = Number(ctx.params.number.slice(-1)) % 2 === 0;
          return exists ? { exists, externalId: ctx.params.number } : { exists };
        },
      },
      receipts: {
        params: { tenantId: "number" },
        handler(ctx: Context<{ tenantId: number }>) {
          return receipts.filter((r) => r.tenantId === ctx.params.tenantId);
        },
      },
      receive: {
        params: { tenantId: "number", connectionId: "number", key: "string" },
        handler(ctx: Context<ConnectionRef & { key: string }>) {
          const { tenantId, connectionId, key } = ctx.params;
          return inbound(ctx, { tenantId, connectionId, providerMessageId: `fx-in-${key}`, timestamp: 1_700_000_000_000, from: { externalId: `visitor-${key}` }, body: "hi" });
        },
      },
    },
  },
});
export default fixtureChannelPlugin;
