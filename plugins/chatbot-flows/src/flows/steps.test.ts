import type { AutoReplyStep, FlowExport } from "../model";
import { DEFAULT_BOT_SETTINGS } from "../model";
import { mergeSettings, normalizeTestPhone, parseExport } from "./shape";
import { checkSteps, normalizeKey, stepTargets, validateSteps } from "./steps";

const action = (id: string, key: string, more: Partial<AutoReplyStep["actions"][number]> = {}) => ({ id, key, nextStepId: null, queueId: null, userId: null, returnMessage: null, ...more });
const steps = (): AutoReplyStep[] => [
  { id: "s1", initial: true, message: "1 - Vendas, 2 - Suporte", actions: [action("a1", "1", { queueId: 4 }), action("a2", "2", { nextStepId: "s2" })] },
  { id: "s2", initial: false, message: "Suporte: 1 - Técnico", actions: [action("a3", "1", { userId: 9, returnMessage: "Um técnico já vem" })] },
];
const codes = (x: unknown) => validateSteps(x).map((p) => p.code);

describe("auto-reply steps", () => {
  it("accepts valid steps and copies them", () => {
    expect(checkSteps(steps())).toEqual({ steps: steps(), problems: [] });
    expect(stepTargets(steps())).toEqual({ queueIds: [4], userIds: [9] });
  });

  it("exactly one initial step", () => {
    const two = steps();
    two[1].initial = true;
    expect(validateSteps(two)).toEqual([{ code: "ERR_AUTO_REPLY_SINGLE_INITIAL_STEP", data: { count: 2 } }]);
    const none = steps();
    none[0].initial = false;
    expect(validateSteps(none)).toEqual([{ code: "ERR_AUTO_REPLY_SINGLE_INITIAL_STEP", data: { count: 0 } }]);
    expect(validateSteps([])).toEqual([]);
  });

  it("a step's message is required", () => {
    const s = steps();
    s[1].message = "   ";
    expect(validateSteps(s)).toEqual([{ code: "ERR_AUTO_REPLY_STEP_MESSAGE_REQUIRED", data: { step: 2, stepId: "s2" } }]);
  });

  it("keys are required and unique per step as the customer types them", () => {
    const empty = steps();
    empty[0].actions[0].key = " ";
    expect(codes(empty)).toEqual(["ERR_AUTO_REPLY_ACTION_KEY_REQUIRED"]);
    const dup = steps();
    dup[0].actions = [action("a1", "Sim"), action("a2", " SIM ")];
    expect(validateSteps(dup)).toEqual([{ code: "ERR_AUTO_REPLY_ACTION_KEY_DUPLICATE", data: { step: 1, stepId: "s1", actionId: "a2", key: "SIM" } }]);
    const accents = steps();
    accents[0].actions = [action("a1", "não"), action("a2", "NAO")];
    expect(codes(accents)).toEqual(["ERR_AUTO_REPLY_ACTION_KEY_DUPLICATE"]);
    // The same key in two steps is fine.
    const across = steps();
    across[1].actions = [action("a3", "1")];
    expect(validateSteps(across)).toEqual([]);
    expect(normalizeKey(" Olá ")).toBe("ola");
  });

  it("the next step must exist", () => {
    const s = steps();
    s[0].actions[1].nextStepId = "gone";
    expect(validateSteps(s)).toEqual([{ code: "ERR_AUTO_REPLY_NEXT_STEP_NOT_FOUND", data: { step: 1, stepId: "s1", key: "2" } }]);
  });

  it("refuses broken shapes with the field", () => {
    expect(validateSteps("x")).toEqual([{ code: "ERR_VALIDATION", data: { field: "steps", max: 200 } }]);
    expect(validateSteps([{ id: "s1", initial: true, message: "m", actions: [{ id: "a", key: "1", queueId: -3 }] }])).toEqual([{ code: "ERR_VALIDATION", data: { field: "steps[0].actions[0].queueId" } }]);
  });
});

describe("settings, test phone and import", () => {
  it("settings ranges", () => {
    expect(mergeSettings(DEFAULT_BOT_SETTINGS, { maxAttempts: 5, distribute: "balance" })).toEqual({ settings: { ...DEFAULT_BOT_SETTINGS, maxAttempts: 5, distribute: "balance" } });
    for (const [k, v] of [
      ["maxAttempts", 0],
      ["maxAttempts", 11],
      ["maxAttempts", 2.5],
      ["waitMinutes", 0],
      ["waitMinutes", 1441],
      ["distribute", "round"],
      ["handoffQueueId", -1],
    ] as const) {
      const r = mergeSettings(DEFAULT_BOT_SETTINGS, { [k]: v });
      expect("problem" in r && r.problem.data.field).toBe(`settings.${k}`);
    }
  });

  it("test phone keeps digits", () => {
    expect(normalizeTestPhone("+55 (11) 98765-4321")).toBe("5511987654321");
    expect(normalizeTestPhone("")).toBeNull();
    expect(normalizeTestPhone("abc")).toBeUndefined();
    expect(normalizeTestPhone("123")).toBeUndefined();
  });

  const exp = (flow: Partial<FlowExport["flow"]>, more: Record<string, unknown> = {}) => ({
    format: "openatende-flow",
    version: 1,
    flow: { kind: "entry", name: "Menu", description: "", settings: DEFAULT_BOT_SETTINGS, graph: null, steps: steps(), testPhone: null, ...flow },
    ...more,
  });
  const importCode = (x: unknown) => {
    const r = parseExport(x);
    return "problem" in r ? [r.problem.code, r.problem.data.field] : ["ok"];
  };

  it("import checks the envelope, naming the field", () => {
    expect(importCode(exp({}))).toEqual(["ok"]);
    expect(importCode([])).toEqual(["ERR_FLOW_IMPORT_INVALID", "format"]);
    expect(importCode(exp({}, { format: "other" }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "format"]);
    expect(importCode(exp({}, { version: 2 }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "version"]);
    expect(importCode(exp({ kind: "x" as "chat" }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "flow.kind"]);
    expect(importCode(exp({ name: "" }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "flow.name"]);
    expect(importCode(exp({ settings: { ...DEFAULT_BOT_SETTINGS, waitMinutes: 0 } }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "flow.settings.waitMinutes"]);
    expect(importCode(exp({ steps: undefined }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "flow.steps"]);
    expect(importCode(exp({ kind: "chat", steps: null }))).toEqual(["ERR_FLOW_IMPORT_INVALID", "flow.graph"]);
    const r = parseExport(exp({}), ["chat"]);
    expect("problem" in r && r.problem.data.field).toBe("flow.kind");
  });

  it("import keeps the body's own codes (loops, initial step)", () => {
    const loop = { nodes: [{ id: "s", type: "start", position: { x: 0, y: 0 }, data: { type: "start", name: "S" } }], edges: [{ id: "e", source: "s", target: "s", sourceHandle: null }] };
    expect(importCode(exp({ kind: "chat", steps: null, graph: loop as never }))[0]).toBe("ERR_FLOW_SELF_LINK");
    const two = steps().map((s) => ({ ...s, initial: true }));
    expect(importCode(exp({ steps: two }))[0]).toBe("ERR_AUTO_REPLY_SINGLE_INITIAL_STEP");
  });
});
