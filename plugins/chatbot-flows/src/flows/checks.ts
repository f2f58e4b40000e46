/**
 * The server's checks around the pure rules: problems thrown as catalogue errors, the kinds a
 * route expects and their not-found code, and the queues and users a flow names checked to be
 * the tenant's through the core API.
 */
import type { Context } from "moleculer";
import { checkOutboundUrl, coreApi, PluginError } from "@openatende/plugin-sdk";
import { FLOW_KINDS, type BotSettings, type Flow, type FlowGraph, type FlowKind, type AutoReplyStep } from "../model";
import type { Problem } from "./problem";
import { stepTargets } from "./steps";

/** The status each code answers with (the catalogue's; the manifest's for the plugin's own). */
const STATUS: Record<string, number> = {
  ERR_FLOW_NOT_FOUND: 404,
  ERR_AUTO_REPLY_NOT_FOUND: 404,
  ERR_QUEUE_NOT_FOUND: 404,
  ERR_USER_NOT_FOUND: 404,
  ERR_FLOW_IN_USE: 409,
  ERR_AUTO_REPLY_IN_USE: 409,
  ERR_FLOW_MEDIA_TOO_LARGE: 413,
};

export function fail(p: Problem): never {
  throw new PluginError(p.code, STATUS[p.code] ?? 400, p.data);
}

/** `kind=chat` or `kind=entry,closure` of a route's query: the kinds the caller expects (all when absent). */
export const KINDS_PARAM = { type: "string", optional: true, pattern: /^(chat|entry|closure)(,(chat|entry|closure)){0,2}$/ } as const;

export function kindsOf(param?: string): FlowKind[] {
  return param ? [...new Set(param.split(",") as FlowKind[])] : [...FLOW_KINDS];
}

/** Chat flows are "flows", entry and closure ones "auto-replies" (spec §8's two families of codes). */
export const isAutoReply = (kind: FlowKind) => kind !== "chat";

export function notFoundCode(kinds: FlowKind[]): string {
  return kinds.includes("chat") ? "ERR_FLOW_NOT_FOUND" : "ERR_AUTO_REPLY_NOT_FOUND";
}

export function notFound(kinds: FlowKind[], data: Record<string, unknown> = {}): never {
  fail({ code: notFoundCode(kinds), data });
}

export function inUseCode(flow: Flow): string {
  return isAutoReply(flow.kind) ? "ERR_AUTO_REPLY_IN_USE" : "ERR_FLOW_IN_USE";
}

/** A flow of the expected kinds, or that family's not-found error. */
export function expectFlow(flow: Flow | null, kinds: FlowKind[]): Flow {
  if (!flow || !kinds.includes(flow.kind)) notFound(kinds);
  return flow;
}

interface Named {
  field: string;
  id: number;
}

/** Every queue and user a flow names: hand-off settings, transfer nodes, step actions. */
export function targetsOf(settings: BotSettings | null, graph: FlowGraph | null, steps: AutoReplyStep[] | null): { queues: Named[]; users: Named[] } {
  const queues: Named[] = [];
  const users: Named[] = [];
  if (settings?.handoffQueueId) queues.push({ field: "settings.handoffQueueId", id: settings.handoffQueueId });
  if (settings?.handoffUserId) users.push({ field: "settings.handoffUserId", id: settings.handoffUserId });
  for (const n of graph?.nodes ?? []) {
    if (n.data.type !== "transfer") continue;
    if (n.data.queueId) queues.push({ field: `graph.nodes[${n.id}].data.queueId`, id: n.data.queueId });
    if (n.data.userId) users.push({ field: `graph.nodes[${n.id}].data.userId`, id: n.data.userId });
  }
  if (steps) {
    const t = stepTargets(steps);
    queues.push(...t.queueIds.map((id) => ({ field: "steps.actions.queueId", id })));
    users.push(...t.userIds.map((id) => ({ field: "steps.actions.userId", id })));
  }
  return { queues, users };
}

/** Refuses a queue or user that is not the tenant's with the core's not-found code, naming the field. */
export async function assertTargets(ctx: Context, tenantId: number, t: { queues: Named[]; users: Named[] }): Promise<void> {
  const api = coreApi(ctx);
  const [queues, users] = await Promise.all([t.queues.length ? api.queues.list({ tenantId }) : [], t.users.length ? api.users.list({ tenantId }) : []]);
  const queueIds = new Set(queues.map((q) => q.id));
  const userIds = new Set(users.map((u) => u.id));
  const q = t.queues.find((x) => !queueIds.has(x.id));
  if (q) fail({ code: "ERR_QUEUE_NOT_FOUND", data: { field: q.field, id: q.id } });
  const u = t.users.find((x) => !userIds.has(x.id));
  if (u) fail({ code: "ERR_USER_NOT_FOUND", data: { field: u.field, id: u.id } });
}

/** The refusals a saved URL gets without asking DNS (the engine checks again, resolving, at each call). */
const REFUSED_ON_SAVE = ["invalid-url", "scheme", "credentials", "localhost", "private-address"];

/**
 * Webhook nodes' URLs under the outbound policy (spec §9, Step 9): a loopback, private or
 * link-local address, or localhost, is ERR_URL_NOT_ALLOWED at once, unless the platform's
 * allow-list has it. A name is not resolved here (a DNS outage must not block saving).
 */
export async function assertWebhookUrls(graph: FlowGraph | null, allow: string[] | undefined): Promise<void> {
  for (const n of graph?.nodes ?? []) {
    if (n.data.type !== "webhook") continue;
    const r = await checkOutboundUrl(n.data.url, { allow, lookup: async () => [] });
    if (!r.ok && REFUSED_ON_SAVE.includes(r.reason)) fail({ code: "ERR_URL_NOT_ALLOWED", data: { field: `graph.nodes[${n.id}].data.url`, node: n.data.name, nodeId: n.id } });
  }
}
