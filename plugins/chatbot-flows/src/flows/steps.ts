/**
 * The rules of an auto-reply flow's steps (spec §3 Auto-reply flow, §5 "only one initial step
 * per flow"). PURE (the /auto-resposta screen can check before saving):
 *
 * - exactly one initial step when there are steps (ERR_AUTO_REPLY_SINGLE_INITIAL_STEP, with the
 *   count); an active flow needs steps (the same code, count 0);
 * - each step's message is required (ERR_AUTO_REPLY_STEP_MESSAGE_REQUIRED);
 * - each action's key is required (ERR_AUTO_REPLY_ACTION_KEY_REQUIRED) and unique within its
 *   step as the customer types it: trimmed, case- and accent-insensitive
 *   (ERR_AUTO_REPLY_ACTION_KEY_DUPLICATE);
 * - an action's next step exists in the flow (ERR_AUTO_REPLY_NEXT_STEP_NOT_FOUND).
 *
 * Whether an action's queue and user are the tenant's is the server's part (the core's lists).
 */
import type { AutoReplyAction, AutoReplyStep } from "../model";
import { invalid, isId, isKey, isObject, isString, problem, TEXT_MAX, type Problem } from "./problem";

export const MAX_STEPS = 200;
export const MAX_ACTIONS = 50;
export const KEY_MAX = 100;

/** How a key compares with what the customer types (the engine matches the same way). */
export function normalizeKey(key: string): string {
  return key.trim().normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** The steps checked and copied (known fields only), with every problem found; null when not a list. */
export function checkSteps(input: unknown): { steps: AutoReplyStep[] | null; problems: Problem[] } {
  if (!Array.isArray(input) || input.length > MAX_STEPS) return { steps: null, problems: [invalid("steps", { max: MAX_STEPS })] };
  const problems: Problem[] = [];
  const steps: AutoReplyStep[] = [];
  const ids = new Set<string>();
  input.forEach((raw: unknown, i: number) => {
    if (!isObject(raw) || !isKey(raw.id) || ids.has(raw.id)) return problems.push(invalid(`steps[${i}].id`));
    ids.add(raw.id);
    const step = i + 1;
    if (typeof raw.initial !== "boolean") problems.push(invalid(`steps[${i}].initial`));
    if (typeof raw.message !== "string" || !raw.message.trim()) problems.push(problem("ERR_AUTO_REPLY_STEP_MESSAGE_REQUIRED", { step, stepId: raw.id }));
    else if (!isString(raw.message, TEXT_MAX)) problems.push(invalid(`steps[${i}].message`, { max: TEXT_MAX }));
    const rawActions = raw.actions ?? [];
    if (!Array.isArray(rawActions) || rawActions.length > MAX_ACTIONS) return problems.push(invalid(`steps[${i}].actions`, { max: MAX_ACTIONS }));
    const actions: AutoReplyAction[] = [];
    const actionIds = new Set<string>();
    const keys = new Set<string>();
    rawActions.forEach((a: unknown, j: number) => {
      const field = `steps[${i}].actions[${j}]`;
      if (!isObject(a) || !isKey(a.id) || actionIds.has(a.id)) return problems.push(invalid(`${field}.id`));
      actionIds.add(a.id);
      if (typeof a.key !== "string" || !a.key.trim()) return problems.push(problem("ERR_AUTO_REPLY_ACTION_KEY_REQUIRED", { step, stepId: raw.id, actionId: a.id }));
      if (a.key.length > KEY_MAX) return problems.push(invalid(`${field}.key`, { max: KEY_MAX }));
      const norm = normalizeKey(a.key);
      if (keys.has(norm)) return problems.push(problem("ERR_AUTO_REPLY_ACTION_KEY_DUPLICATE", { step, stepId: raw.id, actionId: a.id, key: a.key.trim() }));
      keys.add(norm);
      const nextStepId = a.nextStepId ?? null;
      const queueId = a.queueId ?? null;
      const userId = a.userId ?? null;
      const returnMessage = a.returnMessage === undefined || a.returnMessage === "" ? null : a.returnMessage;
      if (nextStepId !== null && !isKey(nextStepId)) return problems.push(invalid(`${field}.nextStepId`));
      if (queueId !== null && !isId(queueId)) return problems.push(invalid(`${field}.queueId`));
      if (userId !== null && !isId(userId)) return problems.push(invalid(`${field}.userId`));
      if (returnMessage !== null && !isString(returnMessage, TEXT_MAX)) return problems.push(invalid(`${field}.returnMessage`));
      actions.push({ id: a.id, key: a.key.trim(), nextStepId: nextStepId as string | null, queueId: queueId as number | null, userId: userId as number | null, returnMessage: returnMessage as string | null });
    });
    steps.push({ id: raw.id, initial: raw.initial === true, message: typeof raw.message === "string" ? raw.message : "", actions });
  });
  for (const [i, s] of steps.entries()) {
    for (const a of s.actions) {
      if (a.nextStepId !== null && !ids.has(a.nextStepId)) problems.push(problem("ERR_AUTO_REPLY_NEXT_STEP_NOT_FOUND", { step: i + 1, stepId: s.id, key: a.key }));
    }
  }
  const initial = steps.filter((s) => s.initial).length;
  if (steps.length > 0 && initial !== 1) problems.push(problem("ERR_AUTO_REPLY_SINGLE_INITIAL_STEP", { count: initial }));
  return { steps, problems };
}

/** Every problem of a list of steps (empty: it may be saved). */
export function validateSteps(steps: unknown): Problem[] {
  return checkSteps(steps).problems;
}

/** The queue and user ids the steps' actions name (the server checks them against the tenant's). */
export function stepTargets(steps: AutoReplyStep[]): { queueIds: number[]; userIds: number[] } {
  const actions = steps.flatMap((s) => s.actions);
  return {
    queueIds: [...new Set(actions.map((a) => a.queueId).filter((x): x is number => x !== null))],
    userIds: [...new Set(actions.map((a) => a.userId).filter((x): x is number => x !== null))],
  };
}
