/**
 * A condition node: its conditions on the customer's latest message (keyword, regex), the
 * time (business hours of the ticket's queue, user and connection, asked of the core at its
 * own clock's now) and the
 * contact; it follows the "true" or "false" handle. A condition that cannot be evaluated (an
 * unsafe regex) counts as false and the step records the error.
 */
import { evaluateConditions } from "../conditions";
import type { Turn } from "../turn";
import { go, type Next, type NodeOf } from "./types";

export async function runCondition(turn: Turn, node: NodeOf<"condition">): Promise<Next> {
  const t = turn.ticket;
  const r = await evaluateConditions(node.data.match, node.data.conditions, {
    text: turn.s.lastText ?? "",
    contact: turn.contact,
    open: async () => (await turn.deps.api.businessTime.state({ tenantId: turn.tenantId, target: { queueId: t.queueId, userId: t.userId, connectionId: t.connectionId } })).open,
  });
  const handle = r.value ? "true" : "false";
  turn.step(node.id, r.error ? "error" : "success", r.error ? `${handle}: ${r.error}` : handle);
  return go(handle);
}
