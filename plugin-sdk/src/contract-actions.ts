/**
 * The five contract actions (connect, disconnect, status, send, test) of a channel whose
 * service keeps one object doing the work: each declares the contract's params and hands
 * over to that object, and `send` first refuses a kind the manifest does not declare. A
 * channel that needs more around one of them overrides it after spreading these.
 */
import type { Context } from "moleculer";
import type { ChannelCapability, ConnectParams, ConnectionRef, OutboundMessage, SendParams, SendResult, StatusResult, TestParams, TestResult } from "./channel-contract";
import { channelActionParams, checkOutbound } from "./helpers";

/** What the actions hand over to. */
export interface ChannelDriver {
  connect(p: ConnectParams, ctx: Context): Promise<StatusResult>;
  disconnect(ref: ConnectionRef, ctx: Context): Promise<StatusResult>;
  status(ref: ConnectionRef): StatusResult | Promise<StatusResult>;
  send(ref: ConnectionRef, externalId: string, message: OutboundMessage, messageId?: number): Promise<SendResult>;
  test(settings: Record<string, unknown>): Promise<TestResult>;
}

export function channelContractActions(driverOf: (svc: any) => ChannelDriver, capabilities: readonly ChannelCapability[]) {
  return {
    connect: {
      params: channelActionParams.connect,
      handler(this: any, ctx: Context<ConnectParams>): Promise<StatusResult> {
        return driverOf(this).connect(ctx.params, ctx);
      },
    },
    disconnect: {
      params: channelActionParams.disconnect,
      handler(this: any, ctx: Context<ConnectionRef>): Promise<StatusResult> {
        return driverOf(this).disconnect({ tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId }, ctx);
      },
    },
    status: {
      params: channelActionParams.status,
      handler(this: any, ctx: Context<ConnectionRef>): StatusResult | Promise<StatusResult> {
        return driverOf(this).status(ctx.params);
      },
    },
    send: {
      params: channelActionParams.send,
      handler(this: any, ctx: Context<SendParams>): Promise<SendResult> {
        const { tenantId, connectionId, to, message, messageId } = ctx.params;
        checkOutbound(capabilities, message);
        return driverOf(this).send({ tenantId, connectionId }, to.externalId, message, messageId);
      },
    },
    test: {
      params: channelActionParams.test,
      handler(this: any, ctx: Context<TestParams>): Promise<TestResult> {
        return driverOf(this).test(ctx.params.settings);
      },
    },
  };
}
