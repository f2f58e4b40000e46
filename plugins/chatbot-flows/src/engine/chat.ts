/**
 * Chat flows (the builder's graphs): a walk from `start` along the edges, each node run by its
 * runner (./nodes), until a node waits (question, menu, delay) or ends the bot's part
 * (transfer, end). The customer's answer, or a delay's job, goes on from where it waited.
 *
 * A path with no edge onward (a node the admin left unconnected, a webhook's "error" with
 * nowhere to go) hands the ticket off as the settings say: the customer is never left with a
 * bot that says nothing. The graph has no cycles (checked on save), and a walk is cut after
 * MAX_VISITS nodes all the same.
 */
import type { FlowEdge, FlowGraph, FlowNode } from "../model";
import type { Turn } from "./turn";
import { answerMenu, answerQuestion, askMenu, askQuestion } from "./nodes/ask";
import { runCondition } from "./nodes/branch";
import { runEnd, runTransfer } from "./nodes/exits";
import { runMessage } from "./nodes/message";
import type { Next, NodeOf } from "./nodes/types";
import { runWebhook } from "./nodes/webhook-node";

export const MAX_VISITS = 200;

/** The edge a node leaves by: the one of `handle`, or (no handle) its first plain edge. */
export function edgeFrom(graph: FlowGraph, nodeId: string, handle: string | null): FlowEdge | undefined {
  const out = graph.edges.filter((e) => e.source === nodeId);
  if (handle === null) return out.find((e) => !e.sourceHandle) ?? out[0];
  return out.find((e) => e.sourceHandle === handle);
}

function nodeOf(graph: FlowGraph, id: string): FlowNode | undefined {
  return graph.nodes.find((n) => n.id === id);
}

async function runNode(turn: Turn, node: FlowNode): Promise<Next> {
  const d = node.data;
  switch (d.type) {
    case "start":
      turn.step(node.id, "success");
      return { handle: null };
    case "message":
      return runMessage(turn, node as NodeOf<"message">);
    case "question":
      return askQuestion(turn, node as NodeOf<"question">);
    case "menu":
      return askMenu(turn, node as NodeOf<"menu">);
    case "condition":
      return runCondition(turn, node as NodeOf<"condition">);
    case "transfer":
      return runTransfer(turn, node as NodeOf<"transfer">);
    case "webhook":
      return runWebhook(turn, node as NodeOf<"webhook">);
    case "end":
      return runEnd(turn, node as NodeOf<"end">);
  }
}

/** Goes on from `node` having answered `next`, node after node, until one waits or ends. */
async function walkOn(turn: Turn, graph: FlowGraph, node: FlowNode, next: Next): Promise<void> {
  let current = node;
  let step = next;
  for (let visits = 0; ; visits++) {
    if (step === "wait" || step === "ended" || turn.ended) return;
    const edge = edgeFrom(graph, current.id, step.handle);
    const target = edge && nodeOf(graph, edge.target);
    if (!target) {
      await turn.handoffBySettings("flow");
      return;
    }
    if (visits >= MAX_VISITS) {
      turn.step(target.id, "error", `more than ${MAX_VISITS} nodes in one turn`);
      await turn.handoffBySettings("flow");
      return;
    }
    current = target;
    turn.s.at = target.id;
    step = await runNode(turn, target);
  }
}

/** A new conversation: from the start node. */
export async function startChat(turn: Turn): Promise<void> {
  const graph = turn.flow.graph;
  const start = graph?.nodes.find((n) => n.data.type === "start");
  if (!graph || !start) {
    turn.step("start", "error", "the flow has no start node");
    await turn.handoffBySettings("flow");
    return;
  }
  turn.s.at = start.id;
  await walkOn(turn, graph, start, await runNode(turn, start));
}

/** The node the session waits at, or null (then the session is handed off, an error recorded). */
async function waitingNode(turn: Turn, graph: FlowGraph | null): Promise<FlowNode | null> {
  const node = graph && turn.s.at ? nodeOf(graph, turn.s.at) : undefined;
  if (node) return node;
  turn.step(turn.s.at ?? "?", "error", "the node this conversation waited at is no longer in the flow");
  await turn.handoffBySettings("flow");
  return null;
}

/** The customer's answer to the question or menu the session waits at. */
export async function answerChat(turn: Turn, text: string): Promise<void> {
  const graph = turn.flow.graph;
  const node = await waitingNode(turn, graph);
  if (!node || !graph) return;
  turn.s.wait = null;
  let next: Next;
  if (node.data.type === "question") next = await answerQuestion(turn, node as NodeOf<"question">, text);
  else if (node.data.type === "menu") next = await answerMenu(turn, node as NodeOf<"menu">, text);
  else next = { handle: null };
  await walkOn(turn, graph, node, next);
}

/** A message node's delay is over: its next interactions, then onward. */
export async function resumeChat(turn: Turn, index: number): Promise<void> {
  const graph = turn.flow.graph;
  const node = await waitingNode(turn, graph);
  if (!node || !graph) return;
  if (node.data.type !== "message") return walkOn(turn, graph, node, { handle: null });
  await walkOn(turn, graph, node, await runMessage(turn, node as NodeOf<"message">, index));
}
