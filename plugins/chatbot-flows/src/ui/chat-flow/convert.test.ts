/**
 * The builder's pure parts: a graph through the canvas and back is the same graph (transient
 * fields dropped), removed menu options take their edges with them, new nodes' data passes the
 * flows' own checks once filled in, the connection rules refuse self links and loops, and each
 * automatic layout moves the nodes apart in its direction.
 */
import { validateGraph, initialGraph } from "../../flows/graph";
import type { FlowGraph, NodeData } from "../../model";
import { refusal } from "./connect";
import { defaultData, fromCanvas, guessDirection, outputsOf, pruneEdges, toCanvas, type RfEdge, type RfNode } from "./convert";
import { applyLayout, LAYOUTS } from "./layout";

const menu: NodeData = { type: "menu", name: "Menu", style: "buttons", title: "", text: "Escolha", options: [{ id: "o1", title: "Vendas" }, { id: "o2", title: "Suporte" }], sections: [] };

const graph: FlowGraph = {
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 0 }, data: { type: "start", name: "Início" } },
    { id: "m", type: "menu", position: { x: 0, y: 150 }, data: menu },
    { id: "t", type: "transfer", position: { x: -150, y: 300 }, data: { type: "transfer", name: "Vendas", queueId: 1, userId: null } },
    { id: "e", type: "end", position: { x: 150, y: 300 }, data: { type: "end", name: "Fim", close: true } },
  ],
  edges: [
    { id: "e1", source: "start", target: "m", sourceHandle: null },
    { id: "e2", source: "m", target: "t", sourceHandle: "o1" },
    { id: "e3", source: "m", target: "e", sourceHandle: "o2" },
  ],
  viewport: { x: 10, y: 20, zoom: 1 },
};

test("a graph through the canvas and back is the same graph, without the canvas's own fields", () => {
  const c = toCanvas(graph);
  const dirty = c.nodes.map((n) => ({ ...n, selected: true, dragging: false, measured: { width: 240, height: 100 } }));
  expect(fromCanvas(dirty, c.edges.map((e) => ({ ...e, selected: true })), graph.viewport)).toEqual(graph);
  expect(c.nodes.find((n) => n.id === "start")?.deletable).toBe(false);
  expect(validateGraph(graph)).toEqual([]);
});

test("a removed menu option's edge goes; the other stays", () => {
  const c = toCanvas(graph);
  const nodes = c.nodes.map((n) => (n.id === "m" ? { ...n, data: { ...menu, options: [menu.type === "menu" ? menu.options[1] : null!] } as NodeData } : n));
  expect(pruneEdges(nodes, c.edges).map((e) => e.id)).toEqual(["e1", "e3"]);
  expect(outputsOf(nodes[1].data).map((o) => o.id)).toEqual(["o2"]);
});

test("the connection rules: self link and loop refused, a new edge from a used output replaces the old one", () => {
  const { edges } = toCanvas(graph);
  expect(refusal(edges, { source: "m", target: "m", sourceHandle: "o1" })).toBe("ERR_FLOW_SELF_LINK");
  expect(refusal(edges, { source: "m", target: "start", sourceHandle: "o1" })).toBe("ERR_FLOW_LOOP");
  expect(refusal(edges, { source: "m", target: "e", sourceHandle: "o1" })).toBeNull();
  // start → m exists; start → e replaces it, no loop.
  expect(refusal(edges, { source: "start", target: "e", sourceHandle: null })).toBeNull();
});

test("a new node's data, once its required texts are filled, passes the flows' checks", () => {
  const g = initialGraph("Início");
  const msg = defaultData("message", "Mensagem");
  if (msg.type === "message") msg.interactions = [{ type: "text", text: "Olá" }];
  const m = defaultData("menu", "Menu");
  if (m.type === "menu") (m.text = "Escolha", m.options.forEach((o, i) => (o.title = `Opção ${i + 1}`)));
  g.nodes.push({ id: "n1", type: "message", position: { x: 0, y: 100 }, data: msg }, { id: "n2", type: "menu", position: { x: 0, y: 200 }, data: m });
  g.nodes.push({ id: "n3", type: "end", position: { x: 0, y: 300 }, data: defaultData("end", "Fim") });
  expect(validateGraph(g)).toEqual([]);
  // Unfilled, the checks name the node and the field.
  g.nodes.push({ id: "n4", type: "question", position: { x: 0, y: 400 }, data: defaultData("question", "Pergunta") });
  expect(validateGraph(g)).toEqual([{ code: "ERR_FLOW_NODE_INVALID", data: { node: "Pergunta", field: "data.text", nodeId: "n4" } }]);
});

test("each layout spreads the nodes in its direction", async () => {
  const c = toCanvas(graph);
  const stacked: RfNode[] = c.nodes.map((n) => ({ ...n, position: { x: 0, y: 0 }, measured: { width: 240, height: 100 } }));
  for (const name of LAYOUTS) {
    const laid = await applyLayout(name, stacked, c.edges as RfEdge[]);
    const at = Object.fromEntries(laid.map((n) => [n.id, n.position]));
    const down = name === "dagre-tb" || name === "elk-down";
    const axis = down ? "y" : "x";
    expect([name, at.start[axis] < at.m[axis] && at.m[axis] < at.t[axis] && at.m[axis] < at.e[axis]]).toEqual([name, true]);
    // The two menu branches sit side by side on the other axis, apart by more than a node.
    const other = down ? "x" : "y";
    expect([name, Math.abs(at.t[other] - at.e[other]) >= (down ? 240 : 100)]).toEqual([name, true]);
    expect(guessDirection(laid, c.edges)).toBe(down ? "TB" : "LR");
  }
});
