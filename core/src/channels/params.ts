import { ACK_STATUSES, MessageChange } from "@openatende/plugin-sdk/src/channel-contract";
import { invalid } from "../errors/app-error";

/**
 * Params of the core's channel actions (CORE_CHANNEL_ACTIONS): what a channel plugin may hand
 * the core, with the lengths the tables keep. The SDK's `coreChannelParams` (the conformance
 * kit's fake core) declares the same fields.
 */
export const ref = { tenantId: { type: "number", integer: true, positive: true }, connectionId: { type: "number", integer: true, positive: true } };
const providerMessageId = { type: "string", min: 1, max: 191 };
const externalId = { type: "string", min: 1, max: 191 };

export const inboundParams = {
  ...ref,
  providerMessageId,
  timestamp: { type: "number", integer: true, min: 0 },
  from: {
    type: "object",
    props: {
      externalId,
      name: { type: "string", optional: true, max: 200 },
      phone: { type: "string", optional: true, max: 40 },
      email: { type: "string", optional: true, max: 190 },
      avatarUrl: { type: "string", optional: true, max: 1000 },
    },
  },
  body: { type: "string", optional: true, max: 65536 },
  media: { type: "object", optional: true },
  location: { type: "object", optional: true },
  contactCard: { type: "object", optional: true },
  replyToProviderId: { type: "string", optional: true, max: 191 },
  isGroup: { type: "boolean", optional: true },
  fromMe: { type: "boolean", optional: true },
  participant: {
    type: "object",
    optional: true,
    strict: "remove",
    props: { externalId, name: { type: "string", optional: true, max: 200 }, phone: { type: "string", optional: true, max: 40 } },
  },
  verifiedBizName: { type: "string", optional: true, max: 200 },
  imported: { type: "object", optional: true, strict: "remove", props: { closeTicket: { type: "boolean", optional: true } } },
};

export const ackParams = {
  ...ref,
  providerMessageId,
  status: { type: "enum", values: [...ACK_STATUSES] },
  reason: { type: "string", optional: true, max: 255 },
  timestamp: { type: "number", optional: true },
  participant: { type: "string", optional: true, max: 191 },
};

export const changeParams = {
  ...ref,
  providerMessageId,
  change: {
    type: "object",
    strict: "remove",
    props: {
      type: { type: "enum", values: ["reaction", "edit", "delete"] },
      emoji: { type: "string", optional: true, max: 32 },
      by: { type: "string", optional: true, min: 1, max: 191 },
      fromMe: { type: "boolean", optional: true },
      body: { type: "string", optional: true, max: 65536 },
    },
  },
  timestamp: { type: "number", optional: true },
};

/** The fields each kind of change needs (the params check their types, this their presence). */
export function checkChange(change: MessageChange): MessageChange {
  if (change.type === "reaction") {
    if (typeof change.by !== "string" || !change.by) throw invalid("change.by", "required");
    if (typeof change.emoji !== "string") throw invalid("change.emoji", "required");
    return { type: "reaction", by: change.by, emoji: change.emoji, ...(change.fromMe ? { fromMe: true } : {}) };
  }
  if (change.type === "edit") {
    if (typeof change.body !== "string") throw invalid("change.body", "required");
    return { type: "edit", body: change.body };
  }
  return { type: "delete" };
}

export const contactParams = {
  ...ref,
  externalId,
  name: { type: "string", optional: true, max: 200 },
  avatarUrl: { type: "string", optional: true, nullable: true, max: 2000 },
  phone: { type: "string", optional: true, max: 40 },
  validated: { type: "boolean", optional: true },
  previousExternalId: { ...externalId, optional: true },
  create: { type: "boolean", optional: true },
};
