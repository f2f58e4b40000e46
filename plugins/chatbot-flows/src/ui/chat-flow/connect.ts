/**
 * The builder's connection rules, from the flows' own graph rules (src/flows/graph.ts, the
 * same the server applies on save and import): no edge from a node to itself, no edge that
 * closes a loop. A new edge from an output that already has one replaces it (one next node
 * per output), so that old edge is left out of the checks.
 */
import { useCallback } from "react";
import { useReactFlow, type Connection, type Edge, type FinalConnectionState } from "@xyflow/react";
import { connectionProblem } from "../../flows/graph";
import type { RfEdge, RfNode } from "./convert";

type Conn = Pick<Connection, "source" | "target"> & { sourceHandle?: string | null };

/** The edge already leaving this output, if any. */
export const edgeOnOutput = (edges: RfEdge[], c: Pick<Conn, "source" | "sourceHandle">) => edges.find((e) => e.source === c.source && (e.sourceHandle ?? null) === (c.sourceHandle ?? null));

/** Why this connection is refused ("ERR_FLOW_SELF_LINK" | "ERR_FLOW_LOOP"), or null when it may be drawn. */
export function refusal(edges: RfEdge[], c: Conn): string | null {
  const graphEdges = edges.map((e) => ({ id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle ?? null }));
  return connectionProblem({ edges: graphEdges }, { source: c.source, target: c.target, sourceHandle: c.sourceHandle ?? null }, edgeOnOutput(edges, c)?.id);
}

/** The connection a finished drag meant (a drag may start from a target handle too), or null when it ended on no handle. */
function intended(s: FinalConnectionState): Conn | null {
  if (!s.fromNode || !s.toNode || !s.fromHandle || !s.toHandle || s.fromHandle.type === s.toHandle.type) return null;
  return s.fromHandle.type === "source"
    ? { source: s.fromNode.id, sourceHandle: s.fromHandle.id ?? null, target: s.toNode.id }
    : { source: s.toNode.id, sourceHandle: s.toHandle.id ?? null, target: s.fromNode.id };
}

/**
 * isValidConnection for <ReactFlow> (reads the edges through useReactFlow, so it stays the same
 * function), and onConnectEnd, which tells the user why a drop on a handle was refused.
 */
export function useConnectRules(onRefused: (code: string) => void) {
  const { getEdges } = useReactFlow<RfNode, RfEdge>();
  const isValidConnection = useCallback((c: Connection | Edge) => refusal(getEdges(), c) === null, [getEdges]);
  const onConnectEnd = useCallback(
    (_: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid !== false) return;
      const c = intended(state);
      if (!c) return;
      const code = c.source === c.target ? "ERR_FLOW_SELF_LINK" : refusal(getEdges(), c);
      if (code) onRefused(code);
    },
    [getEdges, onRefused],
  );
  return { isValidConnection, onConnectEnd };
}
