/**
 * The builder browser test's canvas helpers (React Flow in the built shell): nodes by type,
 * handles, xyflow's own drag pattern, positions, the palette and the layouts menu. They act on
 * the page given to usePage.
 */
import type { Locator, Page } from "playwright-core";
import { poll, waitCount } from "../../../shell/test/browser";
import type { FlowGraph } from "../src/model";

let page: Page;

export function usePage(p: Page): void {
  page = p;
}

export const canvas = () => page.locator("[data-testid=flow-canvas]");
export const nodeOf = (type: string) => page.locator(`.react-flow__node:has([data-node-type="${type}"])`);
export const idOf = async (type: string) => (await nodeOf(type).first().getAttribute("data-id"))!;
export const edgeCount = async () => Number(await canvas().getAttribute("data-edge-count"));
export const sourceHandle = (nodeId: string, handleId?: string) =>
  page.locator(`.react-flow__handle.source[data-nodeid="${nodeId}"]${handleId ? `[data-handleid="${handleId}"]` : ""}`).first();
export const targetHandle = (nodeId: string) => page.locator(`.react-flow__handle.target[data-nodeid="${nodeId}"]`).first();

/** Waits until the canvas stops moving (a layout's fitView animates the viewport). */
export async function still() {
  const read = () => page.locator(".react-flow__viewport").evaluate((el: any) => el.style.transform as string);
  let last = await read();
  await poll(
    async () => {
      const now = await read();
      const same = now === last;
      last = now;
      return same;
    },
    (same) => same,
    "the canvas at rest",
  );
}

/** xyflow's own e2e pattern: press on a handle, move over the other, release. */
export async function drag(from: Locator, to: Locator) {
  await still();
  await from.hover();
  await page.mouse.down();
  const box = (await to.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
  await to.hover();
  await page.mouse.up();
}

/** Every node's top-left position, read from React Flow's transform. */
export async function positions(): Promise<Record<string, { x: number; y: number }>> {
  return page.evaluate(() => {
    const out: Record<string, { x: number; y: number }> = {};
    (globalThis as any).document.querySelectorAll(".react-flow__node").forEach((el: any) => {
      const m = /translate\((-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(el.style.transform);
      const type = el.querySelector("[data-node-type]")?.getAttribute("data-node-type") ?? "?";
      if (m) out[type] = { x: Number(m[1]), y: Number(m[2]) };
    });
    return out;
  });
}

export async function addNode(type: string) {
  const before = await nodeOf(type).count();
  await page.click(`[data-testid=flow-palette-${type}]`);
  await waitCount(nodeOf(type), before + 1);
  await page.waitForSelector("[data-testid=flow-node-panel]");
}

/** Picks an option of an antd Select by its text (opening the list again if a click closed it). */
export async function pick(select: Locator, option: string) {
  const item = page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first();
  for (let i = 0; i < 3; i++) {
    await select.click();
    if (await item.waitFor({ state: "visible", timeout: 2500 }).then(() => true, () => false)) break;
  }
  await item.click();
}

export async function layout(name: string) {
  await page.click("[data-testid=flow-layout]");
  await page.click(`[data-testid=flow-layout-${name}]`);
}

/** A graph's shape without ids: each edge as "source name -[handle title]-> target name". */
export function shape(g: FlowGraph) {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  const handle = (id: string, h: string | null) => {
    const d = byId.get(id)!.data;
    return h === null ? "" : d.type === "menu" ? d.options.find((o) => o.id === h)!.title : h;
  };
  return {
    nodes: g.nodes.map((n) => `${n.type}:${n.data.name}`).sort(),
    edges: g.edges.map((e) => `${byId.get(e.source)!.data.name} -[${handle(e.source, e.sourceHandle)}]-> ${byId.get(e.target)!.data.name}`).sort(),
  };
}
export const DRAWN = ["Início -[]-> Boas-vindas", "Boas-vindas -[]-> Menu", "Menu -[Vendas]-> Transferir", "Menu -[Suporte]-> Fim"].sort();

