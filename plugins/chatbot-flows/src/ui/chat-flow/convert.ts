/**
 * The builder's pure helpers: a saved FlowGraph ↔ React Flow's nodes and edges (no transient
 * fields such as `measured` or `selected` are saved), the outputs (edge handles) each node type
 * has, a new node's default data, and ids.
 */
import { MarkerType, type Edge, type Node } from "@xyflow/react";
import type { FlowEdge, FlowGraph, FlowNode, MenuOption, NodeData, NodeType } from "../../model";
import { handlesOf } from "../../flows/graph";

/** A node on the canvas: its type is the model's NodeType and its data the model's NodeData. */
export type RfNode = Node<NodeData, NodeType>;
export type RfEdge = Edge;

/** One outgoing handle of a node: `id` is the edge's sourceHandle (null: the node's single output). */
export interface Output {
  id: string | null;
  /** Text drawn beside the handle (an option's title, or a translation key prefixed with "#"). */
  label: string;
}

/** Every edge of the canvas: the builder's own edge (with its delete button) and an arrow at its end. */
export const EDGE_DEFAULTS = { type: "flow", markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18, color: "#8c8c8c" } };

export function newId(prefix: string): string {
  const rnd = typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID().slice(0, 8) : Math.random().toString(36).slice(2, 10);
  return `${prefix}_${rnd}`;
}

/** The options a menu offers: its buttons, or every row of its list's sections. */
export function menuOptions(data: Extract<NodeData, { type: "menu" }>): MenuOption[] {
  return data.style === "list" ? data.sections.flatMap((s) => s.rows) : data.options;
}

/** The outputs of a node, in the order they are drawn. Transfer and end finish the flow and have none. */
export function outputsOf(data: NodeData): Output[] {
  switch (data.type) {
    case "start":
    case "message":
    case "question":
      return [{ id: null, label: "" }];
    case "menu":
      return menuOptions(data).map((o, i) => ({ id: o.id, label: o.title || `#${i + 1}` }));
    case "condition":
      return [
        { id: "true", label: "#handleTrue" },
        { id: "false", label: "#handleFalse" },
      ];
    case "webhook":
      return [
        { id: "success", label: "#handleSuccess" },
        { id: "error", label: "#handleError" },
      ];
    case "transfer":
    case "end":
      return [];
  }
}

/** Whether a node can be the target of an edge (all but start). */
export const hasInput = (type: NodeType): boolean => type !== "start";

/** A new node's data; `name` is the translated type name. */
export function defaultData(type: NodeType, name: string): NodeData {
  switch (type) {
    case "start":
      return { type, name };
    case "message":
      return { type, name, interactions: [{ type: "text", text: "" }] };
    case "question":
      return { type, name, text: "", saveTo: "contact.name", validate: "any" };
    case "menu":
      return {
        type,
        name,
        style: "buttons",
        title: "",
        text: "",
        options: [
          { id: newId("opt"), title: "" },
          { id: newId("opt"), title: "" },
        ],
        sections: [],
      };
    case "condition":
      return { type, name, match: "all", conditions: [{ type: "keyword", values: [] }] };
    case "transfer":
      return { type, name, queueId: null, userId: null };
    case "webhook":
      return { type, name, url: "", method: "POST", fields: [] };
    case "end":
      return { type, name, close: true };
  }
}

/** The saved graph as canvas nodes and edges. */
export function toCanvas(graph: FlowGraph | null): { nodes: RfNode[]; edges: RfEdge[] } {
  const g = graph ?? { nodes: [], edges: [] };
  return {
    // The start node stays: a flow has exactly one.
    nodes: g.nodes.map((n) => ({ id: n.id, type: n.type, position: { x: n.position.x, y: n.position.y }, data: n.data, deletable: n.type !== "start" })),
    edges: g.edges.map((e) => ({ ...EDGE_DEFAULTS, id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle })),
  };
}

/** The canvas as the graph the server stores: ids, types, rounded positions, data and the edges' handles only. */
export function fromCanvas(nodes: RfNode[], edges: RfEdge[], viewport?: FlowGraph["viewport"]): FlowGraph {
  const out: FlowGraph = {
    nodes: nodes.map(
      (n): FlowNode => ({
        id: n.id,
        type: n.type as NodeType,
        position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
        data: n.data,
      }),
    ),
    edges: edges.map((e): FlowEdge => ({ id: e.id, source: e.source, target: e.target, sourceHandle: e.sourceHandle ?? null })),
  };
  if (viewport) out.viewport = { x: Math.round(viewport.x), y: Math.round(viewport.y), zoom: Math.round(viewport.zoom * 1000) / 1000 };
  return out;
}

/** The edges whose source handle still exists (a menu option removed, a style switched: its edges go). */
export function pruneEdges(nodes: RfNode[], edges: RfEdge[]): RfEdge[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return edges.filter((e) => {
    const src = byId.get(e.source);
    const dst = byId.get(e.target);
    if (!src || !dst || !hasInput(dst.type as NodeType)) return false;
    return handlesOf(src.data).includes(e.sourceHandle ?? null);
  });
}

/**
 * The canvas's layout direction guessed from where edges go (the graph stores positions, not
 * the layout that made them): mostly rightwards → left-right, else top-bottom.
 */
export function guessDirection(nodes: RfNode[], edges: RfEdge[]): "TB" | "LR" {
  const pos = new Map(nodes.map((n) => [n.id, n.position]));
  let h = 0;
  let v = 0;
  for (const e of edges) {
    const a = pos.get(e.source);
    const b = pos.get(e.target);
    if (!a || !b) continue;
    h += Math.abs(b.x - a.x);
    v += Math.abs(b.y - a.y);
  }
  return h > v ? "LR" : "TB";
}
