/**
 * The conformance kit's stand-in for the core: a Moleculer service named "channels" with the
 * three actions a channel calls (CORE_CHANNEL_ACTIONS). It validates each call with the
 * contract's params and records it, valid or not: a plugin that swallows the core's
 * validation error still fails the kit.
 */
import Validator from "fastest-validator";
import { Errors, ServiceSchema } from "moleculer";
import type { AckEvent, InboundMessage, InboundResult, StatusEvent } from "../channel-contract";
import { coreChannelParams } from "../helpers";

export interface InvalidCall {
  action: "inbound" | "ack" | "status";
  params: unknown;
  errors: string[];
}

export interface FakeCore {
  schema: ServiceSchema;
  inbound: InboundMessage[];
  acks: AckEvent[];
  statuses: StatusEvent[];
  invalid: InvalidCall[];
  /** Forgets every recorded call. */
  reset(): void;
}

export function createFakeCore(): FakeCore {
  const v = new Validator();
  const checks = {
    inbound: v.compile(coreChannelParams.inbound as never),
    ack: v.compile(coreChannelParams.ack as never),
    status: v.compile(coreChannelParams.status as never),
  };
  const seen = new Map<string, number>();
  let nextMessageId = 1;

  const core: FakeCore = {
    inbound: [],
    acks: [],
    statuses: [],
    invalid: [],
    reset() {
      core.inbound.length = 0;
      core.acks.length = 0;
      core.statuses.length = 0;
      core.invalid.length = 0;
    },
    schema: { name: "channels" },
  };

  function validate(action: InvalidCall["action"], params: unknown): void {
    const res = checks[action](params as object);
    if (res === true) return;
    const list = Array.isArray(res) ? res : [];
    core.invalid.push({ action, params, errors: list.map((e) => String(e.message)) });
    throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", list as never);
  }

  core.schema = {
    name: "channels",
    actions: {
      inbound: {
        handler(ctx): InboundResult {
          validate("inbound", ctx.params);
          const msg = ctx.params as InboundMessage;
          core.inbound.push(msg);
          const key = `${msg.tenantId}:${msg.connectionId}:${msg.providerMessageId}`;
          const known = seen.get(key);
          if (known !== undefined) return { messageId: known, ticketId: 1, duplicate: true };
          const messageId = nextMessageId++;
          seen.set(key, messageId);
          return { messageId, ticketId: 1, duplicate: false };
        },
      },
      ack: {
        handler(ctx) {
          validate("ack", ctx.params);
          core.acks.push(ctx.params as AckEvent);
          return { ok: true };
        },
      },
      status: {
        handler(ctx) {
          validate("status", ctx.params);
          core.statuses.push(ctx.params as StatusEvent);
          return { ok: true };
        },
      },
      /** Tokens of the form "conformance:<tenantId>:<connectionId>" resolve to that connection. */
      resolveToken: {
        handler(ctx) {
          const m = /^conformance:(\d+):(\d+)$/.exec(String((ctx.params as { token?: unknown }).token ?? ""));
          if (!m) return null;
          return { tenantId: Number(m[1]), connectionId: Number(m[2]), name: "conformance", status: "connected", settings: {} };
        },
      },
    },
  };
  return core;
}
