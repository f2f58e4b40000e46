/**
 * What the chatbot kit's fake core checks each call against: the params of the core API
 * actions (core-api/contract.ts) and of the scheduler (jobs.ts), as fastest-validator schemas,
 * as strict as the core's own. A call that breaks them is refused with VALIDATION_ERROR and
 * recorded as invalid.
 */
const id = { type: "number", integer: true, positive: true };
const optId = { ...id, optional: true, nullable: true };
const T = { tenantId: id };
const paging = { page: { type: "number", integer: true, min: 1, optional: true }, limit: { type: "number", integer: true, min: 1, max: 100, optional: true } };
const ids = { type: "array", items: id, max: 1000, optional: true };
const owner = { type: "string", pattern: /^[a-z0-9][a-z0-9-]{0,63}$/ };
const jobName = { type: "string", pattern: /^[A-Za-z0-9_.-]{1,64}$/ };

export const chatbotCallParams: Record<string, Record<string, unknown>> = {
  "platform.tickets.get": { ...T, id },
  "platform.tickets.list": { ...T, ...paging, status: { type: "array", items: { type: "enum", values: ["open", "pending", "closed", "group", "chatbot"] }, optional: true }, queueIds: ids, userIds: ids, tagIds: ids, ids, search: { type: "string", max: 120, optional: true } },
  "platform.tickets.update": { ...T, id, status: { type: "enum", values: ["open", "pending", "closed"], optional: true }, queueId: optId, userId: optId },
  "platform.contacts.get": { ...T, id },
  "platform.contacts.update": { ...T, id, name: { type: "string", min: 1, max: 200, optional: true }, email: { type: "string", max: 190, optional: true, nullable: true } },
  "platform.messages.list": { ...T, ticketId: id, ...paging },
  "platform.messages.send": {
    ...T,
    ticketId: id,
    body: { type: "string", max: 65536 },
    media: { type: "object", optional: true, props: { path: { type: "string", min: 1, max: 500 }, mimeType: { type: "string", min: 3, max: 120 }, fileName: { type: "string", min: 1, max: 255 } } },
  },
  "platform.queues.list": T,
  "platform.users.list": T,
  "platform.users.get": { ...T, id },
  "platform.users.availability": { ...T, userId: id },
  "platform.tags.list": T,
  "platform.settings.get": T,
  "platform.notes.list": { ...T, ...paging },
  "platform.realtime.push": { ...T, event: { type: "string", min: 1, max: 100, pattern: /^[A-Za-z0-9_.:-]+$/ }, payload: { type: "any", optional: true }, to: { type: "object", optional: true } },
  "platform.businessTime.state": { ...T, target: { type: "object", props: { queueId: optId, userId: optId, connectionId: optId } }, at: { type: "number", optional: true } },
  "platform.chatbots.bindings": T,
  "platform.chatbots.bind": { ...T, scope: { type: "enum", values: ["connection", "queue"] }, targetId: id, ref: { type: "string", min: 1, max: 64, nullable: true } },
  "platform.chatbots.start": { ...T, ticketId: id, ref: { type: "string", min: 1, max: 64 } },
  "platform.chatbots.handoff": {
    ...T,
    ticketId: id,
    queueId: optId,
    userId: optId,
    distribute: { type: "enum", values: ["none", "balance", "random"], optional: true },
    reason: { type: "enum", values: ["flow", "attempts", "timeout"], optional: true },
  },
  "platform.plan.assertWithin": { ...T, kind: { type: "enum", values: ["chatflows"] }, current: { type: "number", integer: true, min: 0 } },
  "platform.files.upload": { ...T, fileName: { type: "string", min: 1, max: 255 }, mimeType: { type: "string", min: 3, max: 120 }, maxBytes: { ...id, optional: true } },
  "scheduler.schedule": {
    owner,
    name: jobName,
    key: { type: "string", min: 1, max: 200 },
    tenantId: id,
    runAt: { type: "multi", optional: true, rules: [{ type: "number" }, { type: "string" }] },
    delayMs: { type: "number", min: 0, optional: true },
    every: { type: "any", optional: true },
    data: { type: "object", optional: true },
    attempts: { type: "number", integer: true, min: 1, optional: true },
    backoffMs: { type: "number", min: 0, optional: true },
    service: { type: "string", optional: true },
  },
  "scheduler.cancel": { owner, tenantId: id, name: jobName, key: { type: "string", min: 1, max: 200 } },
  "scheduler.list": { owner, tenantId: id, name: { ...jobName, optional: true } },
};
