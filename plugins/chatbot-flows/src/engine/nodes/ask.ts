/**
 * Nodes that ask and wait: a question (a free answer, checked and saved to the contact or a
 * variable) and a menu (a numbered text menu: the channels here have no buttons or lists; the
 * customer answers with the number or the option's title). A wrong answer gets a retry (see
 * invalidAnswer); the answer's wait time is the flow's (timers.ts).
 */
import { checkAnswer } from "../conditions";
import { menuOptions, pickOption, renderMenu } from "../text";
import type { Turn } from "../turn";
import { go, type Next, type NodeOf } from "./types";

export const questionText = (turn: Turn, node: NodeOf<"question">) => turn.fill(node.data.text);
export const menuText = (turn: Turn, node: NodeOf<"menu">) => renderMenu(node.data, (s) => turn.fill(s));

/**
 * Sends the question and sets its wait at once (a turn that fails after is written nowhere, so
 * its timer finds the session not waiting for it and does nothing).
 */
async function ask(turn: Turn, nodeId: string, text: string): Promise<Next> {
  turn.s.at = nodeId;
  turn.open(nodeId);
  await Promise.all([turn.send(text), turn.waitAnswer(nodeId)]);
  return "wait";
}

export const askQuestion = (turn: Turn, node: NodeOf<"question">): Promise<Next> => ask(turn, node.id, questionText(turn, node));
export const askMenu = (turn: Turn, node: NodeOf<"menu">): Promise<Next> => ask(turn, node.id, menuText(turn, node));

/**
 * A wrong answer at a question, menu or auto-reply step: a warning step; after the flow's
 * maxAttempts wrong answers the hand-off its settings name (reason "attempts"); before that the
 * retry text (the node's own, else the flow's invalid message, else the question again) and a
 * new wait.
 */
export async function invalidAnswer(turn: Turn, nodeId: string, why: string, retry: string | null | undefined, again: () => string): Promise<Next> {
  turn.s.attempts++;
  const max = turn.settings.maxAttempts;
  if (turn.s.attempts >= max) {
    turn.finishOpen("warning", `${why} (${turn.s.attempts}/${max}): attempts ran out`);
    await turn.handoffBySettings("attempts");
    return "ended";
  }
  turn.step(nodeId, "warning", `${why} (${turn.s.attempts}/${max})`);
  const text = retry?.trim() ? retry : turn.settings.invalidMessage.trim() ? turn.settings.invalidMessage : again();
  await Promise.all([turn.send(text), turn.waitAnswer(nodeId)]);
  return "wait";
}

export async function answerQuestion(turn: Turn, node: NodeOf<"question">, text: string): Promise<Next> {
  const d = node.data;
  const checked = checkAnswer(d.validate, text);
  if (!checked.ok) return invalidAnswer(turn, node.id, `invalid answer (${checked.reason})`, d.retryMessage, () => questionText(turn, node));
  if (d.saveTo === "contact.name") await turn.saveContact("name", checked.value.slice(0, 100));
  else if (d.saveTo === "contact.email") {
    if (!/@/.test(checked.value)) return invalidAnswer(turn, node.id, "invalid answer (email)", d.retryMessage, () => questionText(turn, node));
    await turn.saveContact("email", checked.value);
  } else turn.s.vars = { ...turn.s.vars, [d.saveTo.slice("var.".length)]: checked.value.slice(0, 500) };
  turn.finishOpen("success", `saved to ${d.saveTo}`);
  turn.s.attempts = 0;
  return go();
}

export async function answerMenu(turn: Turn, node: NodeOf<"menu">, text: string): Promise<Next> {
  const option = pickOption(menuOptions(node.data), text);
  if (!option) return invalidAnswer(turn, node.id, "invalid option", node.data.retryMessage, () => menuText(turn, node));
  turn.finishOpen("success", option.title);
  turn.s.attempts = 0;
  return go(option.id);
}
