/**
 * The conformance kit's stand-in for the core: a Moleculer service named "channels" with the
 * actions a channel calls (CORE_CHANNEL_ACTIONS). It validates each call with the contract's
 * params and the rules the params cannot say (a reaction names who reacted, a participant
 * belongs to a group message…), and records it, valid or not: a plugin that swallows the
 * core's validation error still fails the kit. Plugin tests assert on what it recorded
 * (`fake.inbound`, `fake.acks`, `fake.changes`, `fake.contacts`, `fake.statuses`).
 */
import Validator from "fastest-validator";
import { Errors, ServiceSchema } from "moleculer";
import type { AckEvent, ContactUpdateEvent, ContactUpdateResult, InboundMessage, InboundResult, MessageChangeEvent, MessageChangeResult, StatusEvent } from "../channel-contract";
import { coreChannelParams } from "../helpers";

export interface InvalidCall {
  action: "inbound" | "ack" | "status" | "change" | "contact";
  params: unknown;
  errors: string[];
}

export interface FakeCore {
  schema: ServiceSchema;
  inbound: InboundMessage[];
  acks: AckEvent[];
  statuses: StatusEvent[];
  /** channels.change calls: reactions, edits and deletions made on the channel. */
  changes: MessageChangeEvent[];
  /** channels.contact calls: what the channel learnt of contacts. */
  contacts: ContactUpdateEvent[];
  invalid: InvalidCall[];
  /** Forgets every recorded call. */
  reset(): void;
}

/** What the params cannot say about each call; an empty list when it keeps the contract. */
export function contractProblems(action: InvalidCall["action"], params: unknown): string[] {
  const out: string[] = [];
  if (action === "inbound") {
    const m = params as InboundMessage;
    if (m.participant && !m.isGroup) out.push("participant is only for group messages (isGroup: true, from is the group)");
  } else if (action === "change") {
    const c = (params as MessageChangeEvent).change;
    if (c.type === "reaction" && (typeof c.by !== "string" || !c.by)) out.push("a reaction change names who reacted (change.by)");
    if (c.type === "reaction" && typeof c.emoji !== "string") out.push('a reaction change carries its emoji ("" to take it away)');
    if (c.type === "edit" && typeof c.body !== "string") out.push("an edit change carries the new body");
  } else if (action === "contact") {
    const u = params as ContactUpdateEvent;
    if (u.previousExternalId !== undefined && u.previousExternalId === u.externalId) out.push("previousExternalId is another id of the contact, not externalId itself");
  }
  return out;
}

export function createFakeCore(): FakeCore {
  const v = new Validator();
  const checks = {
    inbound: v.compile(coreChannelParams.inbound as never),
    ack: v.compile(coreChannelParams.ack as never),
    status: v.compile(coreChannelParams.status as never),
    change: v.compile(coreChannelParams.change as never),
    contact: v.compile(coreChannelParams.contact as never),
  };
  const seen = new Map<string, number>();
  const contactIds = new Map<string, number>();
  let nextMessageId = 1;

  const core: FakeCore = {
    inbound: [],
    acks: [],
    statuses: [],
    changes: [],
    contacts: [],
    invalid: [],
    reset() {
      core.inbound.length = 0;
      core.acks.length = 0;
      core.statuses.length = 0;
      core.changes.length = 0;
      core.contacts.length = 0;
      core.invalid.length = 0;
    },
    schema: { name: "channels" },
  };

  function validate(action: InvalidCall["action"], params: unknown): void {
    const res = checks[action](params as object);
    const list = res === true ? [] : Array.isArray(res) ? res : [];
    const problems = res === true ? contractProblems(action, params) : [];
    if (res === true && !problems.length) return;
    core.invalid.push({ action, params, errors: [...list.map((e) => String(e.message)), ...problems] });
    throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", (list.length ? list : problems.map((message) => ({ type: "contract", message }))) as never);
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
          return { applied: true };
        },
      },
      /** Answers applied: true whatever the message (the fake core does not know what the plugin sent). */
      change: {
        handler(ctx): MessageChangeResult {
          validate("change", ctx.params);
          core.changes.push(ctx.params as MessageChangeEvent);
          return { applied: true };
        },
      },
      /** One contact id per (tenant, connection, externalId); a previousExternalId takes the new id's contact. */
      contact: {
        handler(ctx): ContactUpdateResult {
          validate("contact", ctx.params);
          const u = ctx.params as ContactUpdateEvent;
          core.contacts.push(u);
          const key = (id: string) => `${u.tenantId}:${u.connectionId}:${id}`;
          let id = contactIds.get(key(u.externalId));
          if (id === undefined) {
            id = contactIds.size + 1;
            contactIds.set(key(u.externalId), id);
          }
          const merged = u.previousExternalId !== undefined && contactIds.has(key(u.previousExternalId)) && contactIds.get(key(u.previousExternalId)) !== id;
          if (u.previousExternalId !== undefined) contactIds.set(key(u.previousExternalId), id);
          return { applied: true, contactId: id, merged };
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
