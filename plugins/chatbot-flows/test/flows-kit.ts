/**
 * What the flows' API tests share: a core with the bundled plugins (chatbot-flows among them),
 * request helpers, and small valid flows to change one thing at a time.
 */
import { startCore, uid, type Res, type TestCore, ok, expectError, waitFor as sharedWaitFor } from "@openatende/core/testkit";
import type { AutoReplyStep, FlowEdge, FlowGraph, FlowNode } from "../src/model";
export { ok, expectError };

/** The testkit's waitFor, by default 30 s at most, every 100 ms. */
export const waitFor = <T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 30_000) => sharedWaitFor(what, read, good, ms, 100);

export async function coreWithFlows(): Promise<TestCore> {
  return startCore({ env: { NAMESPACE: `flows-${uid()}` } });
}

const pos = (i: number) => ({ x: i * 200, y: 0 });
export const startNode = (): FlowNode => ({ id: "start", type: "start", position: pos(0), data: { type: "start", name: "Início" } });
export const messageNode = (id: string, name = id): FlowNode => ({ id, type: "message", position: pos(1), data: { type: "message", name, interactions: [{ type: "text", text: `Olá, {{name}}! (${name})` }] } });
export const menuNode = (id: string): FlowNode => ({
  id,
  type: "menu",
  position: pos(2),
  data: { type: "menu", name: "Menu", style: "buttons", title: "Atendimento", text: "Escolha uma opção", options: [{ id: "vendas", title: "Vendas" }, { id: "suporte", title: "Suporte" }], sections: [] },
});
export const transferNode = (id: string, queueId: number | null, userId: number | null = null): FlowNode => ({ id, type: "transfer", position: pos(3), data: { type: "transfer", name: `Transferir ${id}`, queueId, userId } });
export const endNode = (id: string): FlowNode => ({ id, type: "end", position: pos(4), data: { type: "end", name: `Fim ${id}`, message: "Até logo", close: true } });
export const link = (source: string, target: string, sourceHandle: string | null = null): FlowEdge => ({ id: `e-${source}-${sourceHandle ?? "out"}-${target}`, source, target, sourceHandle });

/** start → hello → menu (vendas → transfer to queue, suporte → end). */
export function menuGraph(queueId: number): FlowGraph {
  return {
    nodes: [startNode(), messageNode("hello", "Boas-vindas"), menuNode("menu"), transferNode("toSales", queueId), endNode("bye")],
    edges: [link("start", "hello"), link("hello", "menu"), link("menu", "toSales", "vendas"), link("menu", "bye", "suporte")],
    viewport: { x: 10, y: 20, zoom: 0.8 },
  };
}

export function menuSteps(queueId: number, userId: number): AutoReplyStep[] {
  return [
    {
      id: "main",
      initial: true,
      message: "Olá! 1 - Vendas, 2 - Suporte",
      actions: [
        { id: "a1", key: "1", nextStepId: null, queueId, userId: null, returnMessage: "Um momento, por favor" },
        { id: "a2", key: "2", nextStepId: "support", queueId: null, userId: null, returnMessage: null },
      ],
    },
    { id: "support", initial: false, message: "Suporte: 1 - Falar com um técnico", actions: [{ id: "a3", key: "1", nextStepId: null, queueId: null, userId, returnMessage: null }] },
  ];
}
