/**
 * What a node runner answers the walker (../chat.ts): follow the node's edge with `handle`
 * (null: its one plain edge), or stop the walk because the session now waits (a question, a
 * menu, a delay) or has ended (a transfer, an end).
 */
import type { FlowNode, NodeData } from "../../model";

export type Next = { handle: string | null } | "wait" | "ended";

export const go = (handle: string | null = null): Next => ({ handle });

/** A node of one type, its data narrowed. */
export type NodeOf<T extends NodeData["type"]> = FlowNode & { data: Extract<NodeData, { type: T }> };
