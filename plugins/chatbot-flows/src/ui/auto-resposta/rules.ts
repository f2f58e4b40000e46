/**
 * The auto-reply editor's rules, without React: a draft from a flow and back, steps added and
 * removed (references to a removed step cleared, the initial step kept), exactly one initial
 * step, and the form's validation (messages are text keys, so the screen translates them).
 */
import { DEFAULT_BOT_SETTINGS, type AutoReplyAction, type AutoReplyStep, type BotSettings, type Flow } from "../../model";
import { NAME_MAX, TEXT_MAX } from "../../flows/problem";
import { DESCRIPTION_MAX, SETTINGS_RANGES } from "../../flows/shape";
import { KEY_MAX, normalizeKey } from "../../flows/steps";
import type { TextKey } from "../texts";

export type AutoReplyKind = "entry" | "closure";

export interface Draft {
  name: string;
  description: string;
  kind: AutoReplyKind;
  active: boolean;
  testPhone: string;
  settings: BotSettings;
  steps: AutoReplyStep[];
}

/** What a save sends (POST or PUT of a flow). */
export interface FlowBody {
  kind: AutoReplyKind;
  name: string;
  description: string;
  active: boolean;
  testPhone: string | null;
  settings: BotSettings;
  steps: AutoReplyStep[];
}

// The server's limits (src/flows/), so the form refuses what the server would and nothing more.
export { DESCRIPTION_MAX, KEY_MAX, NAME_MAX };
export const MESSAGE_MAX = TEXT_MAX;
export const LIMITS = SETTINGS_RANGES;
export const TEST_PHONE = /^\d{8,20}$/;

let seq = 0;
/** An id for a new step or action, unique within the page (the server keeps the ids it gets). */
export function newId(prefix: "s" | "a"): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36)}${seq.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export function newAction(): AutoReplyAction {
  return { id: newId("a"), key: "", nextStepId: null, queueId: null, userId: null, returnMessage: null };
}

export function newStep(initial: boolean): AutoReplyStep {
  return { id: newId("s"), initial, message: "", actions: [] };
}

export function emptyDraft(kind: AutoReplyKind = "entry"): Draft {
  return { name: "", description: "", kind, active: true, testPhone: "", settings: { ...DEFAULT_BOT_SETTINGS }, steps: [newStep(true)] };
}

export function draftFromFlow(f: Flow): Draft {
  return {
    name: f.name,
    description: f.description ?? "",
    kind: f.kind === "closure" ? "closure" : "entry",
    active: f.active,
    testPhone: f.testPhone ?? "",
    settings: { ...DEFAULT_BOT_SETTINGS, ...(f.settings ?? {}) },
    steps: (f.steps ?? []).map((s) => ({ ...s, actions: s.actions.map((a) => ({ ...a })) })),
  };
}

const orNull = (s: string | null | undefined) => (s && s.trim() ? s : null);

export function toBody(d: Draft): FlowBody {
  return {
    kind: d.kind,
    name: d.name.trim(),
    description: d.description.trim(),
    active: d.active,
    testPhone: orNull(d.testPhone.trim()),
    settings: { ...d.settings, invalidMessage: d.settings.invalidMessage ?? "" },
    steps: d.steps.map((s) => ({
      id: s.id,
      initial: s.initial,
      message: s.message,
      actions: s.actions.map((a) => ({ ...a, key: a.key.trim(), returnMessage: orNull(a.returnMessage) })),
    })),
  };
}

/** Makes `id` the only initial step (the radio: choosing one unmarks the other). */
export function setInitial(steps: AutoReplyStep[], id: string): AutoReplyStep[] {
  return steps.map((s) => ({ ...s, initial: s.id === id }));
}

export function addStep(steps: AutoReplyStep[]): AutoReplyStep[] {
  return [...steps, newStep(steps.length === 0)];
}

/** Removes a step; actions that led to it lead nowhere now, and the first step left becomes initial if it was. */
export function removeStep(steps: AutoReplyStep[], id: string): AutoReplyStep[] {
  const removed = steps.find((s) => s.id === id);
  const rest = steps
    .filter((s) => s.id !== id)
    .map((s) => ({ ...s, actions: s.actions.map((a) => (a.nextStepId === id ? { ...a, nextStepId: null } : a)) }));
  if (removed?.initial && rest.length && !rest.some((s) => s.initial)) rest[0] = { ...rest[0], initial: true };
  return rest;
}

export function updateStep(steps: AutoReplyStep[], id: string, patch: Partial<AutoReplyStep>): AutoReplyStep[] {
  return steps.map((s) => (s.id === id ? { ...s, ...patch } : s));
}

export function updateAction(step: AutoReplyStep, actionId: string, patch: Partial<AutoReplyAction>): AutoReplyStep {
  return { ...step, actions: step.actions.map((a) => (a.id === actionId ? { ...a, ...patch } : a)) };
}

/** A problem: the text key and its values. */
export interface Problem {
  key: TextKey;
  vars?: Record<string, unknown>;
}
/**
 * Field → problem. Fields: name, description, testPhone, maxAttempts, waitMinutes, steps,
 * `step:<id>:message`, `action:<id>:key`. An action with no next step, queue nor user hands
 * the ticket over as the bot settings say (the engine's rule), so it is not a problem.
 */
export type Problems = Record<string, Problem>;

/** Compared as the engine compares what the customer types: trimmed, case- and accent-insensitive. */
const keyOf = normalizeKey;

export function validate(d: Draft): Problems {
  const p: Problems = {};
  if (!d.name.trim()) p.name = { key: "errRequired" };
  else if (d.name.trim().length > NAME_MAX) p.name = { key: "errMax", vars: { max: NAME_MAX } };
  if (d.description.length > DESCRIPTION_MAX) p.description = { key: "errMax", vars: { max: DESCRIPTION_MAX } };
  if (d.testPhone.trim() && !TEST_PHONE.test(d.testPhone.trim())) p.testPhone = { key: "errTestPhone" };
  for (const f of ["maxAttempts", "waitMinutes"] as const) {
    const [min, max] = LIMITS[f];
    const v = d.settings[f];
    if (!Number.isInteger(v) || v < min || v > max) p[f] = { key: "errRange", vars: { min, max } };
  }
  if (!d.steps.length) p.steps = { key: "errNoSteps" };
  else if (d.steps.filter((s) => s.initial).length !== 1) p.steps = { key: "errInitial" };
  for (const s of d.steps) {
    if (!s.message.trim()) p[`step:${s.id}:message`] = { key: "errRequired" };
    else if (s.message.length > MESSAGE_MAX) p[`step:${s.id}:message`] = { key: "errMax", vars: { max: MESSAGE_MAX } };
    const seen = new Set<string>();
    for (const a of s.actions) {
      const k = keyOf(a.key);
      if (!k) p[`action:${a.id}:key`] = { key: "errRequired" };
      else if (a.key.trim().length > KEY_MAX) p[`action:${a.id}:key`] = { key: "errMax", vars: { max: KEY_MAX } };
      else if (seen.has(k)) p[`action:${a.id}:key`] = { key: "errKeyDup" };
      seen.add(k);
    }
  }
  return p;
}

/** The step's label in lists and selects: "Etapa 2 — Olá! Digite…". */
export function stepLabel(steps: AutoReplyStep[], id: string, t: (k: string, v?: Record<string, unknown>) => string): string {
  const i = steps.findIndex((s) => s.id === id);
  if (i < 0) return "";
  const msg = steps[i].message.trim().replace(/\s+/g, " ");
  const head = t("step", { n: i + 1 });
  return msg ? `${head} — ${msg.length > 40 ? `${msg.slice(0, 40)}…` : msg}` : head;
}
