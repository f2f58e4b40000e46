/**
 * Major 1 of the good channel fixture (../../channel-fixture is major 2, same id and type):
 * both run side by side as "v1.channel-fixture" and "v2.channel-fixture". What it hands out
 * is marked "fx1-" (sent ids, inbound ids) and its connect reports "fixture v1", so a test
 * tells which major carried a connection's traffic.
 */
import type { Context } from "moleculer";
import { ConnectParams, ConnectionRef, ConnectionStatus, SendParams, TestParams, channelActionParams, checkOutbound, definePlugin, inbound, reportStatus } from "@openatende/plugin-sdk";
import pkg from "../package.json";

const statuses = new Map<string, ConnectionStatus>();
const keyOf = (r: ConnectionRef) => `${r.tenantId}:${r.connectionId}`;
let seq = 0;

export const fixtureChannelV1 = definePlugin({
  pkgJson: pkg,
  service: {
    actions: {
      connect: {
        params: channelActionParams.connect,
        async handler(ctx: Context<ConnectParams>) {
          const ref = { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId };
          statuses.set(keyOf(ref), "connected");
          await reportStatus(ctx, { ...ref, status: "connected", detail: "fixture v1" });
          return { status: "connected", detail: "fixture v1" };
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
          checkOutbound(fixtureChannelV1.manifest.channel!.capabilities, ctx.params.message);
          return { providerMessageId: `fx1-${++seq}`, timestamp: Date.now() };
        },
      },
      test: {
        params: channelActionParams.test,
        handler(ctx: Context<TestParams>) {
          return { ok: typeof ctx.params.settings.greeting === "string" };
        },
      },
      receive: {
        params: { tenantId: "number", connectionId: "number", key: "string" },
        handler(ctx: Context<ConnectionRef & { key: string }>) {
          const { tenantId, connectionId, key } = ctx.params;
          return inbound(ctx, { tenantId, connectionId, providerMessageId: `fx1-in-${key}`, timestamp: 1_700_000_000_000, from: { externalId: `visitor-${key}` }, body: "oi v1" });
        },
      },
    },
  },
});
export default fixtureChannelV1;
