/**
 * A question's answer check, and a condition node's tests on the customer's latest message and
 * the contact (unit-tested in ./conditions.test.ts). Business hours need the core, so the node
 * runner hands their answer in (`open`).
 *
 * A regex comes from a tenant's admin and runs on a customer's text: JavaScript's engine
 * backtracks, so a pattern like `(a+)+$` can take seconds on a crafted message. A pattern is
 * therefore refused (the condition is false, recorded as an error) when it is longer than
 * REGEX_MAX, uses flags other than i/m/s/u, back-references, or repeats a group that itself
 * holds a repetition (the nested quantifiers behind catastrophic backtracking); and it only ever
 * sees the first TEXT_MAX characters of the message.
 */
import type { Condition } from "../model";
import { normalise } from "./text";

export const REGEX_MAX = 200;
export const TEXT_MAX = 1000;

/** A question's answer after its check: the value to save, or why it is refused. */
export type Checked = { ok: true; value: string } | { ok: false; reason: "empty" | "email" | "number" };

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,189}\.[^\s@.]{2,63}$/;

/** Checks a question's answer: any (not empty), email, or number (digits with an optional sign, decimal comma or point). */
export function checkAnswer(validate: "any" | "email" | "number", raw: string): Checked {
  const value = raw.trim();
  if (!value) return { ok: false, reason: "empty" };
  if (validate === "email") return EMAIL.test(value) ? { ok: true, value: value.toLowerCase() } : { ok: false, reason: "email" };
  if (validate === "number") {
    const compact = value.replace(/\s/g, "");
    return /^[-+]?\d+([.,]\d+)?$/.test(compact) ? { ok: true, value: compact.replace(",", ".") } : { ok: false, reason: "number" };
  }
  return { ok: true, value };
}

export type SafeRegex = { ok: true; re: RegExp } | { ok: false; reason: string };

/**
 * True when a repeated group (`*`, `+`, `{n,}`) holds a repetition or an alternation of its own:
 * `(a+)+`, `(a|aa)*`, `(x{2,})+`. The scan tracks, for each open group, whether anything
 * repeated or alternated is inside it; character classes and escapes are skipped.
 */
function hasNestedQuantifier(p: string): boolean {
  const stack: boolean[] = [];
  const mark = () => {
    if (stack.length) stack[stack.length - 1] = true;
  };
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "[") {
      for (i++; i < p.length && p[i] !== "]"; i++) if (p[i] === "\\") i++;
    } else if (c === "(") stack.push(false);
    else if (c === ")") {
      const inner = stack.pop() ?? false;
      const next = p[i + 1];
      const repeated = next === "*" || next === "+" || next === "{";
      if (inner && repeated) return true;
      if (inner || repeated || next === "?") mark();
    } else if (c === "*" || c === "+" || c === "{" || c === "|" || (c === "?" && p[i - 1] !== "(")) mark();
  }
  return false;
}

/** Compiles an admin's pattern under the limits above. */
export function compileSafeRegex(pattern: string, flags = ""): SafeRegex {
  if (typeof pattern !== "string" || !pattern) return { ok: false, reason: "empty pattern" };
  if (pattern.length > REGEX_MAX) return { ok: false, reason: `pattern longer than ${REGEX_MAX} characters` };
  if (!/^[imsu]*$/.test(flags)) return { ok: false, reason: `flags other than i, m, s, u (${flags})` };
  if (/\\[1-9]|\\k</.test(pattern)) return { ok: false, reason: "back-references are not allowed" };
  if (hasNestedQuantifier(pattern)) return { ok: false, reason: "a repeated group holding a repetition (catastrophic backtracking)" };
  try {
    return { ok: true, re: new RegExp(pattern, flags) };
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
}

/** What the conditions are evaluated against. */
export interface ConditionInput {
  /** The customer's latest message ("" when none). */
  text: string;
  contact: { name: string; number: string | null; email: string | null };
  /** Is it open for the ticket now (asked of the core only when a condition needs it). */
  open: () => Promise<boolean>;
}

export interface ConditionResult {
  value: boolean;
  /** Why a condition could not be evaluated (an unsafe regex), for the run step. */
  error?: string;
}

function keyword(c: Extract<Condition, { type: "keyword" }>, text: string): boolean {
  const t = normalise(text.slice(0, TEXT_MAX));
  const words = c.values.map(normalise).filter(Boolean);
  if (c.exact) return words.includes(t);
  // A keyword is found as a whole word or phrase, not inside another word ("oi" is not in "noite").
  return words.some((w) => ` ${t.replace(/[^\p{L}\p{N}]+/gu, " ")} `.includes(` ${w.replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `));
}

function contactField(c: Extract<Condition, { type: "contactField" }>, contact: ConditionInput["contact"]): boolean {
  const value = normalise(contact[c.field] ?? "");
  const wanted = normalise(c.value ?? "");
  switch (c.operator) {
    case "empty":
      return value === "";
    case "notEmpty":
      return value !== "";
    case "equals":
      return c.field === "number" ? value.replace(/\D/g, "") === wanted.replace(/\D/g, "") : value === wanted;
    case "contains":
      return wanted !== "" && value.includes(wanted);
  }
}

/** One condition. */
export async function evaluateCondition(c: Condition, input: ConditionInput): Promise<ConditionResult> {
  switch (c.type) {
    case "keyword":
      return { value: keyword(c, input.text) };
    case "regex": {
      const r = compileSafeRegex(c.pattern, c.flags ?? "");
      if (!r.ok) return { value: false, error: `regex refused: ${r.reason}` };
      return { value: r.re.test(input.text.slice(0, TEXT_MAX)) };
    }
    case "businessHours":
      return { value: (await input.open()) === c.open };
    case "contactField":
      return { value: contactField(c, input.contact) };
  }
}

/**
 * A condition node's answer: all of its conditions, or any; an empty list is true for "all" and
 * false for "any" (as the words say). Evaluation stops as soon as the answer is known, so the
 * core is asked about business hours only when it matters. The first error is reported.
 */
export async function evaluateConditions(match: "all" | "any", conditions: Condition[], input: ConditionInput): Promise<ConditionResult> {
  let error: string | undefined;
  for (const c of conditions) {
    const r = await evaluateCondition(c, input);
    error ??= r.error;
    if (match === "all" && !r.value) return { value: false, error };
    if (match === "any" && r.value) return { value: true, error };
  }
  return { value: match === "all", error };
}
