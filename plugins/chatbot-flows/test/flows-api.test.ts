/**
 * The flows' routes against a real core on MariaDB (the bundled plugin loaded by the host, its
 * own database migrated): CRUD of chat and auto-reply flows, every validation code (graph rules,
 * steps, settings ranges, the tenant's queues and users) with its catalogue text, self links and
 * loops refused on save and on import, export → import giving the same flow, duplicate,
 * admin-only, and another tenant's flow answering its family's not-found code on every route.
 */
import { createConnection } from "mysql2/promise";
import { createTenant, type Auth, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import type { Flow, FlowExport, FlowGraph } from "../src/model";
import { coreWithFlows, endNode, expectError, link, menuGraph, menuNode, menuSteps, messageNode, ok, startNode, transferNode, waitFor } from "./flows-kit";

jest.setTimeout(180_000);

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;

const create = (who: Auth, body: Record<string, unknown>) => t.api.post("/chatbot-flows/flows", body, who);
const update = (who: Auth, body: Record<string, unknown>) => t.api.put("/chatbot-flows/flows", body, who);
const graphOf = (nodes: FlowGraph["nodes"], edges: FlowGraph["edges"]): FlowGraph => ({ nodes, edges });

beforeAll(async () => {
  t = await coreWithFlows();
  [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
  await waitFor("the flows routes", () => t.api.get("/chatbot-flows/flows", a.admin), (r) => r.status === 200);
});

afterAll(async () => {
  await t?.stop();
});

describe("chatbot-flows' routes (MariaDB)", () => {
  it("has its own database with the flows' tables", async () => {
    const db = await createConnection({ host: "127.0.0.1", port: 3306, user: "root", password: "" });
    try {
      const own = `${t.config.database.database}__chatbot_flows`;
      const [tables] = await db.query("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", [own]);
      expect((tables as Array<{ name: string }>).map((r) => r.name)).toEqual(expect.arrayContaining(["flows", "flow_locks", "bindings"]));
      const [ran] = await db.query(`SELECT name FROM \`${own}\`.\`_migrations\` ORDER BY name`);
      expect((ran as Array<{ name: string }>)[0]).toEqual({ name: "0001-flows" });
    } finally {
      await db.end();
    }
  });

  it("creates, reads, lists and updates a chat flow", async () => {
    const blank = await ok<Flow>(create(a.admin, { kind: "chat", name: "  Atendimento  " }));
    expect(blank).toMatchObject({ kind: "chat", name: "Atendimento", description: "", active: false, testPhone: null, steps: null, settings: { maxAttempts: 3, waitMinutes: 10, distribute: "none" } });
    expect(blank.graph!.nodes.map((n) => n.type)).toEqual(["start"]);

    const graph = menuGraph(a.queueIds[0]);
    const saved = await ok<Flow>(update(a.admin, { id: blank.id, graph, description: "Menu principal", testPhone: "+55 (11) 98765-4321", settings: { maxAttempts: 5, distribute: "balance", handoffQueueId: a.queueIds[1] } }));
    expect(saved).toMatchObject({ description: "Menu principal", testPhone: "5511987654321", settings: { maxAttempts: 5, waitMinutes: 10, distribute: "balance", handoffQueueId: a.queueIds[1] } });
    expect(saved.graph).toEqual(graph);
    expect(await ok<Flow>(t.api.get(`/chatbot-flows/flows/one?id=${blank.id}`, a.admin))).toEqual(saved);

    const auto = await ok<Flow>(create(a.admin, { kind: "entry", name: "Boas-vindas", steps: menuSteps(a.queueIds[0], a.agent.userId) }));
    expect(auto.steps).toEqual(menuSteps(a.queueIds[0], a.agent.userId));
    const closure = await ok<Flow>(create(a.admin, { kind: "closure", name: "Pesquisa", steps: [] }));
    const ids = (fs: Flow[]) => fs.map((f) => f.id).sort();
    expect(ids(await ok(t.api.get("/chatbot-flows/flows?kind=chat", a.admin)))).toEqual([blank.id]);
    expect(ids(await ok(t.api.get("/chatbot-flows/flows?kind=entry,closure", a.admin)))).toEqual(ids([auto, closure]));
    expect(ids(await ok(t.api.get("/chatbot-flows/flows", b.admin)))).toEqual([]);
    // An auto-reply's id is not a chat flow, and a chat flow's is not an auto-reply.
    expectError(await t.api.get(`/chatbot-flows/flows/one?id=${auto.id}&kind=chat`, a.admin), 404, "ERR_FLOW_NOT_FOUND");
    expectError(await t.api.get(`/chatbot-flows/flows/one?id=${blank.id}&kind=entry,closure`, a.admin), 404, "ERR_AUTO_REPLY_NOT_FOUND");
    // A graph is not an auto-reply's body.
    expectError(await update(a.admin, { id: auto.id, graph }), 400, "ERR_VALIDATION", { field: "graph" });
  });

  it("refuses each broken graph with its code and the catalogue's text", async () => {
    const q = a.queueIds[0];
    const cases: Array<[FlowGraph, string, Record<string, unknown>]> = [
      [graphOf([messageNode("m")], []), "ERR_FLOW_START_NODE", { count: 0 }],
      [graphOf([startNode(), { ...messageNode("m", "Saudação"), data: { type: "message", name: "Saudação", interactions: [] } }], []), "ERR_FLOW_NODE_INVALID", { node: "Saudação", field: "data.interactions" }],
      [graphOf([startNode()], [link("start", "ghost")]), "ERR_FLOW_EDGE_DANGLING", { node: "ghost" }],
      [graphOf([startNode(), menuNode("menu"), endNode("x")], [link("start", "menu"), link("menu", "x", "nope")]), "ERR_FLOW_EDGE_HANDLE", { node: "Menu", handle: "nope" }],
      [graphOf([startNode(), messageNode("m1"), messageNode("m2")], [link("start", "m1"), { ...link("start", "m2"), id: "second" }]), "ERR_FLOW_EDGE_DUPLICATE", { node: "Início" }],
      [graphOf([startNode(), messageNode("m", "Eco")], [link("start", "m"), link("m", "m")]), "ERR_FLOW_SELF_LINK", { node: "Eco" }],
      [graphOf([startNode(), messageNode("m1", "A"), messageNode("m2", "B")], [link("start", "m1"), link("m1", "m2"), link("m2", "m1")]), "ERR_FLOW_LOOP", { nodes: "A → B → A" }],
      [graphOf([startNode(), menuNode("menu"), messageNode("m", "Volta"), transferNode("t", q)], [link("start", "menu"), link("menu", "m", "vendas"), link("menu", "t", "suporte"), link("m", "menu")]), "ERR_FLOW_LOOP", { nodes: "Menu → Volta → Menu" }],
    ];
    const flow = await ok<Flow>(create(a.admin, { kind: "chat", name: "Regras" }));
    for (const [graph, code, data] of cases) {
      const r = await update(a.admin, { id: flow.id, graph });
      expectError(r, 400, code, data);
      expect(r.body.title).toBeTruthy();
      expect(r.body.title).not.toBe(code); // the manifest's text, not the bare code
      expectError(await create(a.admin, { kind: "chat", name: "Nova", graph }), 400, code);
    }
    // A webhook to an internal address is refused on save (the engine checks again, resolving names, at each call).
    const hook = (url: string) => graphOf([startNode(), { id: "w", type: "webhook", position: { x: 0, y: 0 }, data: { type: "webhook", name: "CRM", url, method: "POST", fields: ["name"] } }], [link("start", "w")]);
    for (const url of ["http://127.0.0.1:8080/hook", "http://localhost/hook", "http://10.1.2.3/hook", "http://[::1]/x"]) {
      expectError(await update(a.admin, { id: flow.id, graph: hook(url) }), 400, "ERR_URL_NOT_ALLOWED", { node: "CRM", field: "graph.nodes[w].data.url" });
    }
    await ok(update(a.admin, { id: flow.id, graph: hook("https://crm.example.com/hook") }));
    await ok(update(a.admin, { id: flow.id, graph: graphOf([startNode()], []) }));
    const r = await update(a.admin, { id: flow.id, graph: cases[5][0] });
    expect(r.body.message).toContain("Eco");
    // The plugin's texts in the caller's language (the manifest's four).
    const titles: Record<string, string> = {};
    for (const locale of ["pt-BR", "en", "es", "ru"]) titles[locale] = (await t.api.put("/chatbot-flows/flows", { id: flow.id, graph: cases[6][0] }, a.admin, { "X-Locale": locale })).body.title;
    expect(titles).toEqual({ "pt-BR": "Loop no fluxo", en: "Loop in the flow", es: "Bucle en el flujo", ru: "Цикл в сценарии" });
    // Nothing of it was stored.
    expect((await ok<Flow>(t.api.get(`/chatbot-flows/flows/one?id=${flow.id}`, a.admin))).graph!.nodes.map((n) => n.id)).toEqual(["start"]);
  });

  it("refuses broken steps, settings out of range and queues or users of another tenant", async () => {
    const steps = () => menuSteps(a.queueIds[0], a.agent.userId);
    const two = steps().map((s) => ({ ...s, initial: true }));
    const noMessage = steps();
    noMessage[1].message = " ";
    const noKey = steps();
    noKey[0].actions[0].key = "";
    const dupKey = steps();
    dupKey[0].actions[1].key = " 1 ";
    const lost = steps();
    lost[0].actions[1].nextStepId = "gone";
    for (const [s, code, data] of [
      [two, "ERR_AUTO_REPLY_SINGLE_INITIAL_STEP", { count: 2 }],
      [noMessage, "ERR_AUTO_REPLY_STEP_MESSAGE_REQUIRED", { step: 2 }],
      [noKey, "ERR_AUTO_REPLY_ACTION_KEY_REQUIRED", { step: 1 }],
      [dupKey, "ERR_AUTO_REPLY_ACTION_KEY_DUPLICATE", { step: 1, key: "1" }],
      [lost, "ERR_AUTO_REPLY_NEXT_STEP_NOT_FOUND", { step: 1, key: "2" }],
    ] as const) {
      expectError(await create(a.admin, { kind: "entry", name: "Passos", steps: s }), 400, code, data);
    }
    // An active auto-reply needs its initial step.
    expectError(await create(a.admin, { kind: "closure", name: "Vazia", active: true, steps: [] }), 400, "ERR_AUTO_REPLY_SINGLE_INITIAL_STEP", { count: 0 });

    for (const [settings, field] of [
      [{ maxAttempts: 0 }, "settings.maxAttempts"],
      [{ maxAttempts: 11 }, "settings.maxAttempts"],
      [{ waitMinutes: 0 }, "settings.waitMinutes"],
      [{ waitMinutes: 1441 }, "settings.waitMinutes"],
      [{ distribute: "roundRobin" }, "settings.distribute"],
    ] as const) {
      expectError(await create(a.admin, { kind: "chat", name: "Config", settings }), 400, "ERR_VALIDATION", { field });
    }
    expect((await ok<Flow>(create(a.admin, { kind: "chat", name: "Limites", settings: { maxAttempts: 10, waitMinutes: 1440, distribute: "random" } }))).settings).toMatchObject({ maxAttempts: 10, waitMinutes: 1440 });
    expectError(await create(a.admin, { kind: "chat", name: "" }), 400, "ERR_VALIDATION");
    expectError(await create(a.admin, { kind: "chat", name: "Fone", testPhone: "12" }), 400, "ERR_VALIDATION", { field: "testPhone" });
    expectError(await create(a.admin, { kind: "bot", name: "Tipo" }), 400, "ERR_VALIDATION");

    // Another tenant's queue or user, wherever the flow names it.
    expectError(await create(a.admin, { kind: "chat", name: "Q", settings: { handoffQueueId: b.queueIds[0] } }), 404, "ERR_QUEUE_NOT_FOUND", { field: "settings.handoffQueueId" });
    expectError(await create(a.admin, { kind: "chat", name: "U", settings: { handoffUserId: b.agent.userId } }), 404, "ERR_USER_NOT_FOUND");
    expectError(await create(a.admin, { kind: "chat", name: "T", graph: menuGraph(b.queueIds[0]) }), 404, "ERR_QUEUE_NOT_FOUND");
    expectError(await create(a.admin, { kind: "entry", name: "S", steps: menuSteps(a.queueIds[0], b.admin.userId) }), 404, "ERR_USER_NOT_FOUND");
  });

  it("exports a flow and imports it back as the same flow (inactive), refusing broken files with the field", async () => {
    const flow = await ok<Flow>(create(a.admin, { kind: "chat", name: "Exportável", description: "ida e volta", graph: menuGraph(a.queueIds[0]), settings: { waitMinutes: 30 } }));
    const r = await t.api.get(`/chatbot-flows/flows/export?id=${flow.id}`, a.admin);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="Exportavel.json"');
    const exported = r.body as FlowExport;
    expect(exported).toEqual({ format: "openatende-flow", version: 1, flow: { kind: "chat", name: "Exportável", description: "ida e volta", settings: flow.settings, graph: flow.graph, steps: null, testPhone: null } });

    const imported = await ok<Flow>(t.api.post("/chatbot-flows/flows/import", exported, a.admin));
    expect(imported.id).not.toBe(flow.id);
    expect(imported.active).toBe(false);
    expect((await ok(t.api.get(`/chatbot-flows/flows/export?id=${imported.id}`, a.admin))) as FlowExport).toEqual(exported);

    const auto = await ok<Flow>(create(a.admin, { kind: "entry", name: "Auto", steps: menuSteps(a.queueIds[0], a.agent.userId) }));
    const autoExport = await ok<FlowExport>(t.api.get(`/chatbot-flows/flows/export?id=${auto.id}&kind=entry,closure`, a.admin));
    expect((await ok<Flow>(t.api.post("/chatbot-flows/flows/import?kind=entry,closure", autoExport, a.admin))).steps).toEqual(auto.steps);
    // The auto-reply screen does not take a chat flow.
    expectError(await t.api.post("/chatbot-flows/flows/import?kind=entry,closure", exported, a.admin), 400, "ERR_FLOW_IMPORT_INVALID", { field: "flow.kind" });

    const broken = (change: (e: any) => void) => {
      const e = JSON.parse(JSON.stringify(exported));
      change(e);
      return t.api.post("/chatbot-flows/flows/import", e, a.admin);
    };
    expectError(await broken((e) => (e.format = "reactflow")), 400, "ERR_FLOW_IMPORT_INVALID", { field: "format" });
    for (const junk of [[], "texto", 42, null]) {
      const r = await t.api.post("/chatbot-flows/flows/import", junk, a.admin);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/^ERR_(FLOW_IMPORT_INVALID|VALIDATION|INVALID_JSON)$/);
    }
    expectError(await broken((e) => (e.version = 2)), 400, "ERR_FLOW_IMPORT_INVALID", { field: "version" });
    expectError(await broken((e) => delete e.flow.graph), 400, "ERR_FLOW_IMPORT_INVALID", { field: "flow.graph" });
    expectError(await broken((e) => (e.flow.settings.maxAttempts = 99)), 400, "ERR_FLOW_IMPORT_INVALID", { field: "flow.settings.maxAttempts" });
    // The graph's rules hold on import as on save: a self link, a loop through a menu option.
    expectError(await broken((e) => e.flow.graph.edges.push(link("hello", "hello"))), 400, "ERR_FLOW_SELF_LINK", { node: "Boas-vindas" });
    expectError(
      await broken((e) => {
        e.flow.graph.nodes = e.flow.graph.nodes.filter((n: { id: string }) => n.id !== "bye");
        e.flow.graph.edges = e.flow.graph.edges.filter((x: { target: string }) => x.target !== "bye");
        e.flow.graph.edges.push(link("menu", "hello", "suporte"));
      }),
      400,
      "ERR_FLOW_LOOP",
      { nodes: "Boas-vindas → Menu → Boas-vindas" },
    );
    expectError(await broken((e) => (e.flow.graph.nodes[4].data.close = "yes")), 400, "ERR_FLOW_NODE_INVALID", { field: "data.close" });
  });

  it("duplicates a flow as an inactive copy", async () => {
    const flow = await ok<Flow>(create(a.admin, { kind: "chat", name: "Original", active: true, graph: menuGraph(a.queueIds[0]) }));
    const copy = await ok<Flow>(t.api.post("/chatbot-flows/flows/duplicate", { id: flow.id }, a.admin));
    expect(copy).toMatchObject({ name: "Original (cópia)", active: false, kind: "chat", description: flow.description, settings: flow.settings, graph: flow.graph });
    expect(copy.id).not.toBe(flow.id);
    const long = await ok<Flow>(create(a.admin, { kind: "closure", name: "x".repeat(100), steps: [] }));
    expect((await ok<Flow>(t.api.post("/chatbot-flows/flows/duplicate", { id: long.id, kind: "entry,closure" }, a.admin))).name).toBe(`${"x".repeat(92)} (cópia)`);
  });

  it("is for admins only", async () => {
    const flow = await ok<Flow>(create(a.admin, { kind: "chat", name: "Só admin" }));
    for (const who of [a.agent, a.supervisor]) {
      for (const r of [
        await t.api.get("/chatbot-flows/flows", who),
        await t.api.get(`/chatbot-flows/flows/one?id=${flow.id}`, who),
        await create(who, { kind: "chat", name: "X" }),
        await update(who, { id: flow.id, name: "X" }),
        await t.api.del(`/chatbot-flows/flows?id=${flow.id}`, who),
        await t.api.post("/chatbot-flows/flows/duplicate", { id: flow.id }, who),
        await t.api.get(`/chatbot-flows/flows/export?id=${flow.id}`, who),
        await t.api.post("/chatbot-flows/flows/import", {}, who),
        await t.api.get(`/chatbot-flows/bindings?scope=queue&targetId=${a.queueIds[0]}`, who),
        await t.api.put("/chatbot-flows/bindings", { scope: "queue", targetId: a.queueIds[0], entryFlowId: null, closureFlowId: null }, who),
        await t.api.post("/chatbot-flows/media", { file: { fileName: "a.txt", mimeType: "text/plain", data: "YQ==" } }, who),
      ]) {
        expectError(r, 403, "ERR_NO_PERMISSION");
      }
    }
    expect((await ok<Flow>(t.api.get(`/chatbot-flows/flows/one?id=${flow.id}`, a.admin))).name).toBe("Só admin");
  });

  it("answers another tenant's flow with its family's not-found code on every route, changing nothing", async () => {
    const chat = await ok<Flow>(create(a.admin, { kind: "chat", name: "De A", active: true }));
    const auto = await ok<Flow>(create(a.admin, { kind: "entry", name: "Auto de A", active: true, steps: menuSteps(a.queueIds[0], a.agent.userId) }));
    for (const [flow, kind, code] of [
      [chat, "", "ERR_FLOW_NOT_FOUND"],
      [chat, "&kind=chat", "ERR_FLOW_NOT_FOUND"],
      [auto, "&kind=entry,closure", "ERR_AUTO_REPLY_NOT_FOUND"],
    ] as const) {
      const k = kind ? { kind: kind.split("=")[1] } : {};
      expectError(await t.api.get(`/chatbot-flows/flows/one?id=${flow.id}${kind}`, b.admin), 404, code);
      expectError(await update(b.admin, { id: flow.id, name: "Roubado", ...k }), 404, code);
      expectError(await update(b.admin, { id: flow.id, active: false, ...k }), 404, code);
      expectError(await t.api.del(`/chatbot-flows/flows?id=${flow.id}${kind}`, b.admin), 404, code);
      expectError(await t.api.post("/chatbot-flows/flows/duplicate", { id: flow.id, ...k }, b.admin), 404, code);
      expectError(await t.api.get(`/chatbot-flows/flows/export?id=${flow.id}${kind}`, b.admin), 404, code);
    }
    // Binding A's flow to B's queue, or B's flow to A's queue and connection.
    expectError(await t.api.put("/chatbot-flows/bindings", { scope: "queue", targetId: b.queueIds[0], entryFlowId: chat.id, closureFlowId: null }, b.admin), 404, "ERR_FLOW_NOT_FOUND", { field: "entryFlowId" });
    expectError(await t.api.get(`/chatbot-flows/bindings?scope=queue&targetId=${a.queueIds[0]}`, b.admin), 404, "ERR_QUEUE_NOT_FOUND");
    expectError(await t.api.put("/chatbot-flows/bindings", { scope: "queue", targetId: a.queueIds[0], entryFlowId: null, closureFlowId: null }, b.admin), 404, "ERR_QUEUE_NOT_FOUND");
    const conn = await ok(t.api.post("/connections", { name: "Site A", type: "channel-webchat", settings: {} }, a.admin), 201);
    const viaConn = await t.api.get(`/chatbot-flows/bindings?scope=connection&targetId=${conn.id}`, b.admin);
    expect(viaConn.status).toBe(404);
    expect(viaConn.body.error).toMatch(/NOT_FOUND$/);
    const putConn = await t.api.put("/chatbot-flows/bindings", { scope: "connection", targetId: conn.id, entryFlowId: null, closureFlowId: null }, b.admin);
    expect([putConn.status, putConn.body.error]).toEqual([404, viaConn.body.error]);
    // A's flows are untouched.
    expect(await ok<Flow>(t.api.get(`/chatbot-flows/flows/one?id=${chat.id}`, a.admin))).toEqual(chat);
    expect(await ok<Flow>(t.api.get(`/chatbot-flows/flows/one?id=${auto.id}`, a.admin))).toEqual(auto);
  });
});
