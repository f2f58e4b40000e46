/**
 * A flow's fields besides its graph or steps, and its JSON export and import (model.ts
 * FlowExport). PURE: the screens may check a file before sending it.
 *
 * - settings (spec §3 Flow bot settings): maxAttempts 1–10, waitMinutes 1–1440, distribute
 *   none/balance/random, hand-off queue and user (ids; the server checks they are the tenant's),
 *   invalid message; a partial change is merged over what the flow has;
 * - test phone: digits only (spaces, +, dashes and brackets dropped), 8 to 20 of them, or none;
 * - import: `format` "openatende-flow", `version` 1, a known kind, name, then the kind's graph
 *   or steps under their own rules; a wrong envelope is ERR_FLOW_IMPORT_INVALID naming the field.
 */
import { DEFAULT_BOT_SETTINGS, DISTRIBUTIONS, FLOW_KINDS, type BotSettings, type Distribution, type Flow, type FlowExport, type FlowGraph, type FlowKind, type AutoReplyStep } from "../model";
import { checkGraph } from "./graph";
import { checkSteps } from "./steps";
import { invalid, isId, isObject, isString, isText, NAME_MAX, problem, TEXT_MAX, type Problem } from "./problem";

export const EXPORT_FORMAT = "openatende-flow";
export const EXPORT_VERSION = 1;
export const DESCRIPTION_MAX = 1000;
export const SETTINGS_RANGES = { maxAttempts: [1, 10], waitMinutes: [1, 1440] } as const;

const inRange = (v: unknown, [min, max]: readonly [number, number]) => typeof v === "number" && Number.isInteger(v) && v >= min && v <= max;

/** `change` (a partial BotSettings) over `base`; the first wrong field is ERR_VALIDATION naming it. */
export function mergeSettings(base: BotSettings, change: unknown): { settings: BotSettings } | { problem: Problem } {
  if (change === undefined || change === null) return { settings: base };
  if (!isObject(change)) return { problem: invalid("settings") };
  const s: BotSettings = { ...base };
  const c = change;
  if (c.maxAttempts !== undefined) {
    if (!inRange(c.maxAttempts, SETTINGS_RANGES.maxAttempts)) return { problem: invalid("settings.maxAttempts", { min: 1, max: 10 }) };
    s.maxAttempts = c.maxAttempts as number;
  }
  if (c.waitMinutes !== undefined) {
    if (!inRange(c.waitMinutes, SETTINGS_RANGES.waitMinutes)) return { problem: invalid("settings.waitMinutes", { min: 1, max: 1440 }) };
    s.waitMinutes = c.waitMinutes as number;
  }
  if (c.distribute !== undefined) {
    if (!DISTRIBUTIONS.includes(c.distribute as Distribution)) return { problem: invalid("settings.distribute") };
    s.distribute = c.distribute as Distribution;
  }
  for (const key of ["handoffQueueId", "handoffUserId"] as const) {
    if (c[key] === undefined) continue;
    if (c[key] !== null && !isId(c[key])) return { problem: invalid(`settings.${key}`) };
    s[key] = c[key] as number | null;
  }
  if (c.invalidMessage !== undefined) {
    if (!isString(c.invalidMessage ?? "", TEXT_MAX)) return { problem: invalid("settings.invalidMessage", { max: TEXT_MAX }) };
    s.invalidMessage = (c.invalidMessage as string | null) ?? "";
  }
  return { settings: s };
}

/** A test phone as stored: its digits, or null; undefined when it is not a phone number. */
export function normalizeTestPhone(v: unknown): string | null | undefined {
  if (v === null || v === undefined || v === "") return null;
  if (typeof v !== "string" || v.length > 40 || !/^[\d\s+().-]+$/.test(v)) return undefined;
  const digits = v.replace(/\D/g, "");
  if (!digits) return null;
  return digits.length >= 8 && digits.length <= 20 ? digits : undefined;
}

/** What import and create hand the store: the flow's own fields, checked. */
export interface FlowDraft {
  kind: FlowKind;
  name: string;
  description: string;
  testPhone: string | null;
  settings: BotSettings;
  graph: FlowGraph | null;
  steps: AutoReplyStep[] | null;
}

/** The first problem of a kind's body (graph for chat, steps for entry/closure), or the checked body. */
export function checkBody(kind: FlowKind, graph: unknown, steps: unknown): { graph: FlowGraph | null; steps: AutoReplyStep[] | null } | { problem: Problem } {
  if (kind === "chat") {
    if (steps !== undefined && steps !== null) return { problem: invalid("steps") };
    const r = checkGraph(graph);
    return r.problems.length ? { problem: r.problems[0] } : { graph: r.graph, steps: null };
  }
  if (graph !== undefined && graph !== null) return { problem: invalid("graph") };
  const r = checkSteps(steps ?? []);
  return r.problems.length ? { problem: r.problems[0] } : { graph: null, steps: r.steps };
}

export function toExport(flow: Flow): FlowExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    flow: { kind: flow.kind, name: flow.name, description: flow.description, settings: flow.settings, graph: flow.graph, steps: flow.steps, testPhone: flow.testPhone },
  };
}

const importInvalid = (field: string) => problem("ERR_FLOW_IMPORT_INVALID", { field });

/**
 * A FlowExport read back: envelope, kind (one of `kinds`), name, description, settings, test
 * phone, then the graph or steps under their own rules (those problems keep their own codes:
 * ERR_FLOW_LOOP, ERR_FLOW_SELF_LINK, ERR_AUTO_REPLY_SINGLE_INITIAL_STEP…).
 */
export function parseExport(input: unknown, kinds: readonly FlowKind[] = FLOW_KINDS): { draft: FlowDraft } | { problem: Problem } {
  if (!isObject(input)) return { problem: importInvalid("format") };
  if (input.format !== EXPORT_FORMAT) return { problem: importInvalid("format") };
  if (input.version !== EXPORT_VERSION) return { problem: importInvalid("version") };
  const f = input.flow;
  if (!isObject(f)) return { problem: importInvalid("flow") };
  if (!FLOW_KINDS.includes(f.kind as FlowKind) || !kinds.includes(f.kind as FlowKind)) return { problem: importInvalid("flow.kind") };
  const kind = f.kind as FlowKind;
  if (!isText(f.name, NAME_MAX)) return { problem: importInvalid("flow.name") };
  const description = f.description ?? "";
  if (!isString(description, DESCRIPTION_MAX)) return { problem: importInvalid("flow.description") };
  const settings = mergeSettings(DEFAULT_BOT_SETTINGS, f.settings);
  if ("problem" in settings) return { problem: importInvalid(`flow.${String(settings.problem.data.field)}`) };
  const testPhone = normalizeTestPhone(f.testPhone);
  if (testPhone === undefined) return { problem: importInvalid("flow.testPhone") };
  if (kind === "chat" && (f.graph === undefined || f.graph === null)) return { problem: importInvalid("flow.graph") };
  if (kind !== "chat" && !Array.isArray(f.steps)) return { problem: importInvalid("flow.steps") };
  const body = checkBody(kind, f.graph, f.steps);
  if ("problem" in body) return { problem: body.problem };
  return { draft: { kind, name: (f.name as string).trim(), description: description as string, testPhone, settings: settings.settings, ...body } };
}
