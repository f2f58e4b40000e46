/**
 * Which bot a ticket goes to (plugin-sdk chatbot-contract.ts, "Start"): a customer's new ticket
 * on a bound connection — or, without a connection binding, in a bound queue — and a ticket
 * transferred without a user to a bound queue. The tenant's bindings (core/src/chatbots,
 * chatbots.bindingsInternal, only those whose plugin the tenant may use) are kept per tenant in
 * memory: the inbound path asks on every new ticket, and a tenant without bots pays a map
 * lookup. Any change of a binding (chatbots.changed), of a plugin's availability
 * (plugins.changed, licence.changed) forgets the tenant, on every node.
 */
import { randomBytes } from "node:crypto";
import type { ServiceSchema } from "moleculer";
import { call } from "../bus/call";
import { TtlCache } from "../lib/ttl-cache";
import type { Ctx } from "../types";
import type { ChatbotOwner } from "../chatbots/contract";

/** A safety net only: every change forgets its tenant at once. */
const BINDINGS_TTL_MS = 60_000;

type Bound = Map<string, ChatbotOwner>;

export function createChatbotRouting() {
  const cache = new TtlCache<number, Bound>(BINDINGS_TTL_MS, 20_000);

  const bindingsOf = (ctx: Ctx, tenantId: number): Promise<Bound> =>
    cache.get(tenantId, async () => new Map((await call(ctx, "chatbots.bindingsInternal", { tenantId, available: true })).map((b) => [`${b.scope}:${b.targetId}`, { pluginId: b.pluginId, ref: b.ref }])));

  const forget = (tenantId?: number) => (tenantId ? cache.dropKey(tenantId) : cache.drop());
  const group = (what: string) => `tickets-chatbots-${what}-${randomBytes(6).toString("hex")}`;

  return {
    /** The bot of a customer's new ticket on `connectionId` that goes to `queueId`; null: none. */
    async forInbound(ctx: Ctx, tenantId: number, connectionId: number | null, queueId: number | null): Promise<ChatbotOwner | null> {
      const bound = await bindingsOf(ctx, tenantId);
      if (!bound.size) return null;
      return (connectionId ? bound.get(`connection:${connectionId}`) : undefined) ?? (queueId ? bound.get(`queue:${queueId}`) : undefined) ?? null;
    },

    /** The bot of a queue; null: none. */
    async forQueue(ctx: Ctx, tenantId: number, queueId: number | null): Promise<ChatbotOwner | null> {
      if (!queueId) return null;
      const bound = await bindingsOf(ctx, tenantId);
      return bound.get(`queue:${queueId}`) ?? null;
    },

    /** Heard by every node (a group of its own each). */
    events: {
      "chatbots.changed": { group: group("changed"), handler: (ctx: Ctx<{ tenantId?: number }>) => forget(ctx.params?.tenantId) },
      "plugins.changed": { group: group("plugins"), handler: (ctx: Ctx<{ tenantId?: number }>) => forget(ctx.params?.tenantId) },
      "licence.changed": { group: group("licence"), handler: (ctx: Ctx<{ tenantId?: number }>) => forget(ctx.params?.tenantId) },
    } as NonNullable<ServiceSchema["events"]>,
  };
}

export type ChatbotRouting = ReturnType<typeof createChatbotRouting>;
