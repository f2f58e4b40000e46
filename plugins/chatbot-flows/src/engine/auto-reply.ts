/**
 * Auto-reply flows (entry and closure): steps, each a message and actions. The initial step's
 * message opens the conversation; an answer equal to an action's key (trimmed, case- and
 * accent-insensitive) sends the action's return message, then the next step's message (and
 * waits again), or hands the ticket to the action's queue or user. An action with neither
 * leaves the conversation to the hand-off the settings name. Wrong answers are retried as at a
 * chat flow's question (nodes/ask.ts invalidAnswer).
 */
import type { AutoReplyStep } from "../model";
import { invalidAnswer } from "./nodes/ask";
import { keyMatches } from "./text";
import type { Turn } from "./turn";

function stepOf(turn: Turn, id: string | null): AutoReplyStep | undefined {
  return turn.flow.steps?.find((s) => s.id === id);
}

/** Sends a step's message and waits for the answer (its options are the keys the message names). */
async function ask(turn: Turn, step: AutoReplyStep): Promise<void> {
  turn.s.at = step.id;
  turn.open(step.id);
  await Promise.all([turn.send(step.message), turn.waitAnswer(step.id)]);
}

/** A new conversation: the initial step. */
export async function startAutoReply(turn: Turn): Promise<void> {
  const initial = turn.flow.steps?.find((s) => s.initial);
  if (!initial) {
    turn.step("initial", "error", "the flow has no initial step");
    await turn.handoffBySettings("flow");
    return;
  }
  await ask(turn, initial);
}

/** The customer's answer to the step the session waits at. */
export async function answerAutoReply(turn: Turn, text: string): Promise<void> {
  const step = stepOf(turn, turn.s.at);
  if (!step) {
    turn.step(turn.s.at ?? "?", "error", "the step this conversation waited at is no longer in the flow");
    await turn.handoffBySettings("flow");
    return;
  }
  turn.s.wait = null;
  const action = step.actions.find((a) => keyMatches(a.key, text));
  if (!action) {
    await invalidAnswer(turn, step.id, "invalid option", null, () => step.message);
    return;
  }
  turn.finishOpen("success", action.key);
  turn.s.attempts = 0;
  if (action.returnMessage) await turn.send(action.returnMessage);
  if (action.nextStepId) {
    const next = stepOf(turn, action.nextStepId);
    if (next) return ask(turn, next);
    turn.step(action.nextStepId, "error", "the action's next step is no longer in the flow");
    await turn.handoffBySettings("flow");
    return;
  }
  if (action.queueId || action.userId) await turn.handoff({ queueId: action.queueId, userId: action.userId }, "flow");
  else await turn.handoffBySettings("flow");
}
