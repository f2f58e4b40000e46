/**
 * Automatic layouts of the canvas: dagre top-bottom and left-right, and elk's layered
 * algorithm downwards and rightwards. Each takes the nodes with their measured sizes (React
 * Flow 12 puts them in `node.measured`) and answers the nodes at their new top-left positions.
 */
import dagre from "@dagrejs/dagre";
import type { ELK as ElkApi } from "elkjs/lib/elk-api";
import type { RfEdge, RfNode } from "./convert";

export const LAYOUTS = ["dagre-tb", "dagre-lr", "elk-down", "elk-right"] as const;
export type LayoutName = (typeof LAYOUTS)[number];

/** The direction a layout draws in: it sets where the handles sit. */
export const layoutDirection = (name: LayoutName): "TB" | "LR" => (name === "dagre-lr" || name === "elk-right" ? "LR" : "TB");

const DEFAULT_W = 240;
const DEFAULT_H = 110;
const size = (n: RfNode) => ({ width: n.measured?.width ?? n.width ?? DEFAULT_W, height: n.measured?.height ?? n.height ?? DEFAULT_H });

function dagreLayout(nodes: RfNode[], edges: RfEdge[], rankdir: "TB" | "LR"): RfNode[] {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir, nodesep: 50, ranksep: 80, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, size(n));
  for (const e of edges) g.setEdge(e.source, e.target);
  dagre.layout(g);
  return nodes.map((n) => {
    const p = g.node(n.id);
    const { width, height } = size(n);
    // dagre answers centre points.
    return { ...n, position: { x: p.x - width / 2, y: p.y - height / 2 } };
  });
}

let elk: ElkApi | null = null;

async function elkLayout(nodes: RfNode[], edges: RfEdge[], direction: "DOWN" | "RIGHT"): Promise<RfNode[]> {
  // elk (about 1.5 MB) is fetched only when one of its layouts is chosen.
  if (!elk) {
    const { default: ELK } = await import("elkjs/lib/elk.bundled.js");
    elk = new ELK();
  }
  const res = await elk.layout({
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": direction,
      "elk.spacing.nodeNode": "50",
      "elk.layered.spacing.nodeNodeBetweenLayers": "80",
      "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
    },
    children: nodes.map((n) => ({ id: n.id, ...size(n) })),
    edges: edges.map((e) => ({ id: e.id, sources: [e.source], targets: [e.target] })),
  });
  const at = new Map((res.children ?? []).map((c) => [c.id, { x: c.x ?? 0, y: c.y ?? 0 }]));
  return nodes.map((n) => ({ ...n, position: at.get(n.id) ?? n.position }));
}

export async function applyLayout(name: LayoutName, nodes: RfNode[], edges: RfEdge[]): Promise<RfNode[]> {
  switch (name) {
    case "dagre-tb":
      return dagreLayout(nodes, edges, "TB");
    case "dagre-lr":
      return dagreLayout(nodes, edges, "LR");
    case "elk-down":
      return elkLayout(nodes, edges, "DOWN");
    case "elk-right":
      return elkLayout(nodes, edges, "RIGHT");
  }
}
