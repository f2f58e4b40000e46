/**
 * Nodes that end the bot's part: a transfer (its message, then the ticket to its queue or
 * user, distributed as the flow's settings say) and an end (its message, then the ticket
 * closed, or handed off as the settings name when the node does not close).
 */
import type { Turn } from "../turn";
import type { Next, NodeOf } from "./types";

export async function runTransfer(turn: Turn, node: NodeOf<"transfer">): Promise<Next> {
  if (node.data.message) await turn.send(node.data.message);
  turn.step(node.id, "success", node.data.userId ? `user ${node.data.userId}` : node.data.queueId ? `queue ${node.data.queueId}` : "the ticket's queue");
  await turn.handoff({ queueId: node.data.queueId, userId: node.data.userId }, "flow");
  return "ended";
}

export async function runEnd(turn: Turn, node: NodeOf<"end">): Promise<Next> {
  if (node.data.message) await turn.send(node.data.message);
  turn.step(node.id, "success", node.data.close ? "closed" : "handed off");
  if (node.data.close) await turn.close();
  else await turn.handoffBySettings("flow");
  return "ended";
}
