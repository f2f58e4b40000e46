import type { FlowEdge, FlowGraph, FlowNode, NodeData } from "../model";
import { checkGraph, connectionProblem, findCycle, handlesOf, initialGraph, validateGraph, wouldCreateCycle } from "./graph";

const pos = { x: 0, y: 0 };
const start = (id = "s"): FlowNode => ({ id, type: "start", position: pos, data: { type: "start", name: "Início" } });
const msg = (id: string, name = id): FlowNode => ({ id, type: "message", position: pos, data: { type: "message", name, interactions: [{ type: "text", text: `Olá de ${name}` }] } });
const menu = (id: string, options = ["o1", "o2"]): FlowNode => ({
  id,
  type: "menu",
  position: pos,
  data: { type: "menu", name: `Menu ${id}`, style: "buttons", title: "", text: "Escolha", options: options.map((o) => ({ id: o, title: `Opção ${o}` })), sections: [] },
});
const end = (id: string): FlowNode => ({ id, type: "end", position: pos, data: { type: "end", name: `Fim ${id}`, close: true } });
const edge = (source: string, target: string, sourceHandle: string | null = null, id = `${source}-${sourceHandle ?? ""}-${target}`): FlowEdge => ({ id, source, target, sourceHandle });
const g = (nodes: FlowNode[], edges: FlowEdge[]): FlowGraph => ({ nodes, edges });
const codes = (x: unknown) => validateGraph(x).map((p) => p.code);

describe("validateGraph", () => {
  it("accepts a valid flow with a menu, a condition and a webhook", () => {
    const cond: FlowNode = { id: "c", type: "condition", position: pos, data: { type: "condition", name: "Horário", match: "any", conditions: [{ type: "businessHours", open: true }] } };
    const hook: FlowNode = { id: "w", type: "webhook", position: pos, data: { type: "webhook", name: "CRM", url: "https://crm.example.com/hook", method: "POST", fields: ["name", "protocol"] } };
    const graph = g([start(), menu("m"), cond, hook, end("e1"), end("e2"), msg("x")], [edge("s", "m"), edge("m", "c", "o1"), edge("m", "w", "o2"), edge("c", "e1", "true"), edge("c", "x", "false"), edge("w", "e2", "success"), edge("x", "e2")]);
    expect(validateGraph(graph)).toEqual([]);
  });

  it("needs exactly one start node", () => {
    expect(validateGraph(g([msg("a")], []))).toEqual([{ code: "ERR_FLOW_START_NODE", data: { count: 0 } }]);
    expect(validateGraph(g([start("s1"), start("s2")], []))).toEqual([{ code: "ERR_FLOW_START_NODE", data: { count: 2 } }]);
  });

  it("refuses a self link, naming the node", () => {
    expect(validateGraph(g([start(), msg("a", "Boas-vindas")], [edge("s", "a"), edge("a", "a")]))).toEqual([
      { code: "ERR_FLOW_SELF_LINK", data: { node: "Boas-vindas", nodeId: "a", edge: "a--a" } },
    ]);
  });

  it("refuses a 2-node loop, naming its nodes in order", () => {
    const p = validateGraph(g([start(), msg("a", "A"), msg("b", "B")], [edge("s", "a"), edge("a", "b"), edge("b", "a")]));
    expect(p).toEqual([{ code: "ERR_FLOW_LOOP", data: { nodes: "A → B → A", nodeIds: ["a", "b", "a"] } }]);
  });

  it("refuses a 3-node loop", () => {
    const p = validateGraph(g([start(), msg("a"), msg("b"), msg("c")], [edge("s", "a"), edge("a", "b"), edge("b", "c"), edge("c", "a")]));
    expect(p.map((x) => x.code)).toEqual(["ERR_FLOW_LOOP"]);
    expect(p[0].data.nodeIds).toEqual(["a", "b", "c", "a"]);
  });

  it("refuses a loop closed through a menu option", () => {
    const p = validateGraph(g([start(), menu("m"), msg("a"), end("e")], [edge("s", "m"), edge("m", "a", "o1"), edge("m", "e", "o2"), edge("a", "m")]));
    expect(p).toEqual([{ code: "ERR_FLOW_LOOP", data: { nodes: "Menu m → a → Menu m", nodeIds: ["m", "a", "m"] } }]);
  });

  it("allows a diamond (two paths to one node are not a loop)", () => {
    expect(validateGraph(g([start(), menu("m"), msg("a"), msg("b"), end("e")], [edge("s", "m"), edge("m", "a", "o1"), edge("m", "b", "o2"), edge("a", "e"), edge("b", "e")]))).toEqual([]);
  });

  it("refuses dangling edges", () => {
    expect(validateGraph(g([start()], [edge("s", "ghost")]))).toEqual([{ code: "ERR_FLOW_EDGE_DANGLING", data: { edge: "s--ghost", node: "ghost" } }]);
    expect(codes(g([start()], [edge("ghost", "s")]))).toEqual(["ERR_FLOW_EDGE_DANGLING"]);
  });

  it("checks the source handle against the node's type", () => {
    expect(codes(g([start(), menu("m"), end("e")], [edge("s", "m"), edge("m", "e", "nope")]))).toEqual(["ERR_FLOW_EDGE_HANDLE"]);
    expect(codes(g([start(), menu("m"), end("e")], [edge("s", "m"), edge("m", "e")]))).toEqual(["ERR_FLOW_EDGE_HANDLE"]);
    expect(codes(g([start(), msg("a")], [edge("s", "a", "true")]))).toEqual(["ERR_FLOW_EDGE_HANDLE"]);
    expect(codes(g([start(), end("e"), msg("a")], [edge("s", "e"), edge("e", "a")]))).toEqual(["ERR_FLOW_EDGE_HANDLE"]);
  });

  it("allows one edge per source handle", () => {
    expect(codes(g([start(), msg("a"), msg("b")], [edge("s", "a"), edge("s", "b")]))).toEqual(["ERR_FLOW_EDGE_DUPLICATE"]);
  });

  it("checks each node's data, naming the node and the field", () => {
    const bad = msg("a", "Saudação");
    (bad.data as { interactions: unknown[] }).interactions = [{ type: "text", text: "  " }];
    expect(validateGraph(g([start(), bad], []))).toEqual([{ code: "ERR_FLOW_NODE_INVALID", data: { node: "Saudação", nodeId: "a", field: "data.interactions[0].text" } }]);
    const wrongType = { ...msg("b"), data: { type: "end", name: "b", close: true } as NodeData };
    expect(validateGraph(g([start(), wrongType], []))[0].data.field).toBe("data.type");
    const hook: FlowNode = { id: "w", type: "webhook", position: pos, data: { type: "webhook", name: "W", url: "ftp://x.example.com", method: "POST", fields: [] } };
    expect(validateGraph(g([start(), hook], []))[0].data.field).toBe("data.url");
    const regex: FlowNode = { id: "r", type: "condition", position: pos, data: { type: "condition", name: "R", match: "all", conditions: [{ type: "regex", pattern: "([a-z" }] } };
    expect(validateGraph(g([start(), regex], []))[0].data.field).toBe("data.conditions[0].pattern");
    expect(validateGraph(g([start(), menu("m", ["a", "b", "c", "d"])], []))[0].data.field).toBe("data.options");
    expect(validateGraph(g([start(), menu("m", ["a", "a"])], []))[0].data.field).toBe("data.options");
    const transfer: FlowNode = { id: "t", type: "transfer", position: pos, data: { type: "transfer", name: "T", queueId: null, userId: null } };
    expect(validateGraph(g([start(), transfer], []))[0].data.field).toBe("data.queueId");
    expect(validateGraph(g([start(), { ...msg("z"), position: { x: Number.NaN, y: 0 } }], []))[0].data.field).toBe("position");
    expect(validateGraph(g([start(), msg("a"), msg("a")], []))[0]).toMatchObject({ code: "ERR_FLOW_NODE_INVALID", data: { field: "id" } });
  });

  it("refuses what is not a graph", () => {
    expect(codes(null)).toEqual(["ERR_VALIDATION"]);
    expect(validateGraph({ nodes: "x", edges: [] })).toEqual([{ code: "ERR_VALIDATION", data: { field: "graph.nodes", max: 500 } }]);
  });

  it("copies only the known fields (no measured, selected…)", () => {
    const raw = { nodes: [{ ...start(), measured: { width: 10 }, selected: true, data: { type: "start", name: "Início", extra: 1 } }], edges: [], viewport: { x: 1, y: 2, zoom: 1.5 } };
    expect(checkGraph(raw)).toEqual({ graph: { nodes: [start()], edges: [], viewport: { x: 1, y: 2, zoom: 1.5 } }, problems: [] });
  });

  it("gives a new flow its start node", () => {
    expect(validateGraph(initialGraph())).toEqual([]);
  });
});

describe("the builder's connection checks", () => {
  const graph = g([start(), msg("a"), msg("b"), menu("m")], [edge("s", "a"), edge("a", "b"), edge("b", "m")]);

  it("wouldCreateCycle: self links and edges back up the path", () => {
    expect(wouldCreateCycle(graph, { source: "a", target: "a" })).toBe(true);
    expect(wouldCreateCycle(graph, { source: "b", target: "a" })).toBe(true);
    expect(wouldCreateCycle(graph, { source: "m", target: "s" })).toBe(true);
    expect(wouldCreateCycle(graph, { source: "s", target: "m" })).toBe(false);
  });

  it("connectionProblem names the rule", () => {
    expect(connectionProblem(graph, { source: "a", target: "a", sourceHandle: null })).toBe("ERR_FLOW_SELF_LINK");
    expect(connectionProblem(graph, { source: "m", target: "a", sourceHandle: "o1" })).toBe("ERR_FLOW_LOOP");
    expect(connectionProblem(graph, { source: "a", target: "m", sourceHandle: null })).toBe("ERR_FLOW_EDGE_DUPLICATE");
    expect(connectionProblem(graph, { source: "a", target: "m", sourceHandle: null }, "a--b")).toBeNull();
  });

  it("findCycle on larger graphs without recursion", () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `n${i}`);
    const chain = ids.slice(1).map((id, i) => ({ source: ids[i], target: id }));
    expect(findCycle(ids, chain)).toBeNull();
    expect(findCycle(ids, [...chain, { source: "n4999", target: "n0" }])?.length).toBe(5001);
  });

  it("handlesOf: what each type offers", () => {
    expect(handlesOf(menu("m").data)).toEqual(["o1", "o2"]);
    expect(handlesOf(end("e").data)).toEqual([]);
    expect(handlesOf(start().data)).toEqual([null]);
  });
});
