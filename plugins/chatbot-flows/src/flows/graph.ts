/**
 * The rules of a chat flow's graph (spec §5 Flow builder: "an element cannot connect to itself
 * and loops are not allowed"), the same in the builder (isValidConnection, before save and on
 * import) and on the server (save and import). PURE: no node imports.
 *
 * - exactly one `start` node (ERR_FLOW_START_NODE, with the count);
 * - each node's data valid for its type (ERR_FLOW_NODE_INVALID, node and field; node-data.ts),
 *   ids unique;
 * - edges join existing nodes (ERR_FLOW_EDGE_DANGLING), leave from a handle the source's type
 *   has (ERR_FLOW_EDGE_HANDLE: menu option ids, "true"/"false", "success"/"error", null for the
 *   single output; transfer and end have none), one edge per (source, handle)
 *   (ERR_FLOW_EDGE_DUPLICATE);
 * - no edge from a node to itself (ERR_FLOW_SELF_LINK) and no cycle (ERR_FLOW_LOOP, naming the
 *   nodes around it in order): a depth-first search with an explicit stack (no recursion limit).
 */
import { NODE_TYPES, type FlowEdge, type FlowGraph, type FlowNode, type NodeType } from "../model";
import { checkNodeData, handlesOf } from "./node-data";
import { invalid, isKey, isObject, problem, type Problem } from "./problem";

export { handlesOf } from "./node-data";
export type { Problem } from "./problem";

export const MAX_NODES = 500;
export const MAX_EDGES = 2000;

const finite = (v: unknown) => typeof v === "number" && Number.isFinite(v) && Math.abs(v) < 1e7;

/** The display name of a node in problems: its name, else its id. */
function labelOf(n: { id: string; data?: unknown }): string {
  const name = isObject(n.data) && typeof n.data.name === "string" && n.data.name.trim() ? n.data.name : null;
  return name ?? n.id;
}

/**
 * The graph checked and copied (only known fields: no `measured`, `selected`…), with every
 * problem found. `graph` is null when the shape is too broken to copy.
 */
export function checkGraph(input: unknown): { graph: FlowGraph | null; problems: Problem[] } {
  if (!isObject(input)) return { graph: null, problems: [invalid("graph")] };
  if (!Array.isArray(input.nodes) || input.nodes.length > MAX_NODES) return { graph: null, problems: [invalid("graph.nodes", { max: MAX_NODES })] };
  if (!Array.isArray(input.edges) || input.edges.length > MAX_EDGES) return { graph: null, problems: [invalid("graph.edges", { max: MAX_EDGES })] };
  const problems: Problem[] = [];
  const nodes: FlowNode[] = [];
  const seen = new Set<string>();
  input.nodes.forEach((raw: unknown, i: number) => {
    if (!isObject(raw) || !isKey(raw.id)) return problems.push(invalid(`graph.nodes[${i}].id`));
    const id = raw.id;
    const node = labelOf({ id, data: raw.data });
    if (seen.has(id)) return problems.push(problem("ERR_FLOW_NODE_INVALID", { node, nodeId: id, field: "id" }));
    seen.add(id);
    if (!NODE_TYPES.includes(raw.type as NodeType)) return problems.push(problem("ERR_FLOW_NODE_INVALID", { node, nodeId: id, field: "type" }));
    const pos = raw.position;
    if (!isObject(pos) || !finite(pos.x) || !finite(pos.y)) return problems.push(problem("ERR_FLOW_NODE_INVALID", { node, nodeId: id, field: "position" }));
    const checked = checkNodeData(raw.type as NodeType, raw.data, node);
    if ("problem" in checked) return problems.push({ code: checked.problem.code, data: { ...checked.problem.data, nodeId: id } });
    nodes.push({ id, type: raw.type as NodeType, position: { x: pos.x as number, y: pos.y as number }, data: checked.data });
  });
  const edges: FlowEdge[] = [];
  const edgeIds = new Set<string>();
  input.edges.forEach((raw: unknown, i: number) => {
    if (!isObject(raw) || !isKey(raw.id) || edgeIds.has(raw.id)) return problems.push(invalid(`graph.edges[${i}].id`));
    edgeIds.add(raw.id);
    if (typeof raw.source !== "string" || typeof raw.target !== "string") return problems.push(invalid(`graph.edges[${i}]`));
    const handle = raw.sourceHandle ?? null;
    if (handle !== null && typeof handle !== "string") return problems.push(invalid(`graph.edges[${i}].sourceHandle`));
    edges.push({ id: raw.id, source: raw.source, target: raw.target, sourceHandle: handle });
  });
  let viewport: FlowGraph["viewport"];
  if (input.viewport !== undefined && input.viewport !== null) {
    const v = input.viewport;
    if (!isObject(v) || !finite(v.x) || !finite(v.y) || !finite(v.zoom) || (v.zoom as number) <= 0) problems.push(invalid("graph.viewport"));
    else viewport = { x: v.x as number, y: v.y as number, zoom: v.zoom as number };
  }
  const graph: FlowGraph = { nodes, edges, ...(viewport ? { viewport } : {}) };
  // The node list is only partly known when a node was refused: its edges would look dangling.
  if (!problems.some((p) => p.data.nodeId !== undefined || String(p.data.field ?? "").startsWith("graph.nodes"))) problems.push(...structureProblems(graph));
  return { graph, problems };
}

/** Every problem of a graph (empty: it may be saved). The builder's check before saving. */
export function validateGraph(graph: unknown): Problem[] {
  return checkGraph(graph).problems;
}

/** The rules over a graph whose nodes are each valid: start, edges, self links, cycles. */
export function structureProblems(graph: FlowGraph): Problem[] {
  const problems: Problem[] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const starts = graph.nodes.filter((n) => n.type === "start").length;
  if (starts !== 1) problems.push(problem("ERR_FLOW_START_NODE", { count: starts }));
  const used = new Set<string>();
  const good: FlowEdge[] = [];
  for (const e of graph.edges) {
    const src = byId.get(e.source);
    const dst = byId.get(e.target);
    if (!src || !dst) {
      problems.push(problem("ERR_FLOW_EDGE_DANGLING", { edge: e.id, node: !src ? e.source : e.target }));
      continue;
    }
    if (e.source === e.target) {
      problems.push(problem("ERR_FLOW_SELF_LINK", { node: labelOf(src), nodeId: src.id, edge: e.id }));
      continue;
    }
    if (!handlesOf(src.data).includes(e.sourceHandle)) {
      problems.push(problem("ERR_FLOW_EDGE_HANDLE", { node: labelOf(src), nodeId: src.id, edge: e.id, handle: e.sourceHandle ?? "" }));
      continue;
    }
    const slot = `${e.source}\u0000${e.sourceHandle ?? ""}`;
    if (used.has(slot)) {
      problems.push(problem("ERR_FLOW_EDGE_DUPLICATE", { node: labelOf(src), nodeId: src.id, edge: e.id, handle: e.sourceHandle ?? "" }));
      continue;
    }
    used.add(slot);
    good.push(e);
  }
  const cycle = findCycle(graph.nodes.map((n) => n.id), good);
  if (cycle) problems.push(problem("ERR_FLOW_LOOP", { nodes: cycle.map((id) => labelOf(byId.get(id)!)).join(" → "), nodeIds: cycle }));
  return problems;
}

/**
 * A cycle of the directed graph, as the ids around it with the first repeated at the end
 * (["a", "b", "a"]), or null. Iterative DFS: white/grey/black, a grey target closes a cycle.
 */
export function findCycle(ids: string[], edges: Array<Pick<FlowEdge, "source" | "target">>): string[] | null {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) out.get(e.source)?.push(e.target);
  const state = new Map<string, 1 | 2>(); // 1 grey (on the path), 2 black (done)
  for (const root of ids) {
    if (state.has(root)) continue;
    const path: string[] = [root];
    const next: number[] = [0];
    state.set(root, 1);
    while (path.length) {
      const at = path[path.length - 1];
      const outs = out.get(at) ?? [];
      const i = next[next.length - 1]++;
      if (i >= outs.length) {
        state.set(at, 2);
        path.pop();
        next.pop();
        continue;
      }
      const to = outs[i];
      if (!out.has(to)) continue;
      const s = state.get(to);
      if (s === 1) return [...path.slice(path.indexOf(to)), to];
      if (s === undefined) {
        state.set(to, 1);
        path.push(to);
        next.push(0);
      }
    }
  }
  return null;
}

/** Whether an edge source → target would close a cycle (or is a self link): the builder's isValidConnection. */
export function wouldCreateCycle(graph: Pick<FlowGraph, "edges">, connection: { source: string; target: string }): boolean {
  if (connection.source === connection.target) return true;
  const out = new Map<string, string[]>();
  for (const e of graph.edges) out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
  // Is the source reachable from the target?
  const seen = new Set<string>([connection.target]);
  const stack = [connection.target];
  while (stack.length) {
    const at = stack.pop()!;
    for (const to of out.get(at) ?? []) {
      if (to === connection.source) return true;
      if (!seen.has(to)) {
        seen.add(to);
        stack.push(to);
      }
    }
  }
  return false;
}

/**
 * Why a new connection may not be drawn (null: it may): ERR_FLOW_SELF_LINK, ERR_FLOW_LOOP, or
 * ERR_FLOW_EDGE_DUPLICATE when that handle already has its edge. `ignoreEdgeId`: the edge being
 * reconnected, left out of the checks.
 */
export function connectionProblem(graph: Pick<FlowGraph, "edges">, c: { source: string; target: string; sourceHandle?: string | null }, ignoreEdgeId?: string): string | null {
  const edges = ignoreEdgeId ? graph.edges.filter((e) => e.id !== ignoreEdgeId) : graph.edges;
  if (c.source === c.target) return "ERR_FLOW_SELF_LINK";
  if (edges.some((e) => e.source === c.source && (e.sourceHandle ?? null) === (c.sourceHandle ?? null))) return "ERR_FLOW_EDGE_DUPLICATE";
  if (wouldCreateCycle({ edges }, c)) return "ERR_FLOW_LOOP";
  return null;
}

/** A new chat flow's graph: its start node alone. */
export function initialGraph(startName = "Início"): FlowGraph {
  return { nodes: [{ id: "start", type: "start", position: { x: 0, y: 0 }, data: { type: "start", name: startName } }], edges: [] };
}
