/**
 * The flows' own data on MariaDB and on SQLite (the embedded mode): the migrations, flows read
 * back as written (JSON graph and steps, booleans, times), tenants never reaching each other's
 * flows or bindings, and activations under the tenant's lock: of many at once, the plan check
 * sees each one's predecessors, so a cap of one lets exactly one through.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, PluginError, runPluginMigrations, testPluginDatabase, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { DEFAULT_BOT_SETTINGS } from "../src/model";
import { FlowStore, type FlowFields } from "../src/flows/store";
import { menuGraph, menuSteps } from "./flows-kit";

jest.setTimeout(120_000);

const PLUGIN_DIR = path.join(__dirname, "..");
const TENANT = 21;
const OTHER = 22;
const noPlan = async () => undefined;
const capOfOne = async (current: number) => {
  if (current >= 1) throw new PluginError("ERR_FREE_PLAN_CHATFLOW_LIMIT", 403);
};

const chat = (name: string, active = false): FlowFields => ({ kind: "chat", name, description: "", active, testPhone: null, settings: DEFAULT_BOT_SETTINGS, graph: menuGraph(7), steps: null });

describe.each(["mysql", "sqlite"] as const)("the flows' data on %s", (dialect) => {
  let db: TestPluginDatabase;
  let data: PluginData;
  let store: FlowStore;

  beforeAll(async () => {
    db = await testPluginDatabase(dialect);
    data = await openPluginDataAt(db.address);
    const ran = await runPluginMigrations(data, loadPluginMigrations(PLUGIN_DIR));
    expect(ran.applied[0]).toBe("0001-flows");
    store = new FlowStore(data);
  });
  afterAll(async () => {
    await data?.close();
    await db?.drop();
  });

  it("reads a flow back as written, and only in its tenant", async () => {
    const entry: FlowFields = { kind: "entry", name: "Boas-vindas", description: "menu", active: true, testPhone: "5511987654321", settings: { ...DEFAULT_BOT_SETTINGS, maxAttempts: 4 }, graph: null, steps: menuSteps(3, 9) };
    const made = await store.create(TENANT, entry, noPlan);
    expect(await store.get(TENANT, made.id)).toEqual(made);
    expect(made).toMatchObject({ ...entry });
    expect(await store.get(OTHER, made.id)).toBeNull();
    const flow = await store.create(TENANT, chat("Chat"), noPlan);
    expect((await store.get(TENANT, flow.id))!.graph).toEqual(menuGraph(7));
    expect((await store.list(TENANT, ["entry", "closure"])).map((f) => f.id)).toEqual([made.id]);
    expect((await store.list(TENANT, undefined, true)).map((f) => f.id)).toEqual([made.id]);
    expect(await store.list(OTHER)).toEqual([]);
    await store.create(OTHER, chat("beta"), noPlan);
    await store.create(OTHER, chat("Álamo"), noPlan);
    await store.create(OTHER, chat("Zeta"), noPlan);
    expect((await store.list(OTHER)).map((f) => f.name)).toEqual(["Álamo", "beta", "Zeta"]);
    const changed = await store.update(TENANT, flow.id, { name: "Chat 2" }, noPlan, () => undefined);
    expect(changed.name).toBe("Chat 2");
    expect(Date.parse(changed.updatedAt)).toBeGreaterThan(Date.parse(flow.updatedAt));
    await expect(store.update(OTHER, flow.id, { name: "x" }, noPlan, () => undefined)).rejects.toMatchObject({ notFound: true });
  });

  it("keeps bindings per tenant, and refuses deletion while one names the flow", async () => {
    const flow = await store.create(TENANT, { ...chat("Ligado"), active: true }, noPlan);
    await store.setBinding(TENANT, "connection", 5, { entryFlowId: flow.id, closureFlowId: null }, async () => undefined, async () => undefined);
    expect(await store.binding(TENANT, "connection", 5)).toEqual({ entryFlowId: flow.id, closureFlowId: null });
    expect(await store.binding(OTHER, "connection", 5)).toBeNull();
    const refuse = async (_f: unknown, bindings: unknown[]) => {
      if (bindings.length) throw new PluginError("ERR_FLOW_IN_USE", 409);
    };
    await expect(store.delete(TENANT, flow.id, refuse)).rejects.toMatchObject({ type: "ERR_FLOW_IN_USE" });
    expect(await store.delete(OTHER, flow.id, refuse)).toBe(false);
    await store.setBinding(TENANT, "connection", 5, { entryFlowId: null, closureFlowId: null }, async () => undefined, async () => undefined);
    expect(await store.binding(TENANT, "connection", 5)).toBeNull();
    expect(await store.delete(TENANT, flow.id, refuse)).toBe(true);
    expect(await store.get(TENANT, flow.id)).toBeNull();
  });

  it("lets one of many activations at once through a cap of one", async () => {
    const tenant = dialect === "mysql" ? 31 : 32;
    const flows = await Promise.all(Array.from({ length: 6 }, (_, i) => store.create(tenant, chat(`F${i}`), noPlan)));
    const results = await Promise.allSettled(flows.map((f) => store.update(tenant, f.id, { active: true }, capOfOne, () => undefined)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ type: "ERR_FREE_PLAN_CHATFLOW_LIMIT" });
    expect(await store.list(tenant, undefined, true)).toHaveLength(1);
    // And a create that activates counts the active one.
    await expect(store.create(tenant, chat("Mais uma", true), capOfOne)).rejects.toMatchObject({ type: "ERR_FREE_PLAN_CHATFLOW_LIMIT" });
  });
});
