import type { FormInstance } from "antd";
import type { TFunction } from "i18next";
import { ApiError } from "../api/client";

/** One entry of the API's validation list (`data.errors`). */
interface RuleError {
  field?: string;
  rule?: string;
  expected?: unknown;
}

/**
 * Field → translated message of an API error that names fields: `ERR_VALIDATION` (one entry
 * per field of `data.errors`) or a business code with `data.field` (name taken, number
 * invalid…). `prefix` keeps only the fields under it ("settings.") and strips it.
 */
export function fieldErrorsOf(e: unknown, t: TFunction, prefix = ""): Record<string, string> {
  if (!(e instanceof ApiError)) return {};
  const out: Record<string, string> = {};
  const put = (field: unknown, msg: string) => {
    if (typeof field !== "string" || !field) return;
    if (prefix && !field.startsWith(prefix)) return;
    if (!prefix && field.includes(".")) return;
    const k = prefix ? field.slice(prefix.length) : field;
    if (k && !out[k]) out[k] = msg;
  };
  if (e.code === "ERR_VALIDATION") {
    const list = (Array.isArray(e.data.errors) ? e.data.errors : [{ field: e.data.field, rule: e.data.rule }]) as RuleError[];
    for (const r of list) put(r.field, ruleMessage(t, r.rule, r.expected));
  } else if (typeof e.data.field === "string") {
    put(e.data.field, e.detail || e.title);
  }
  return out;
}

/** A short message for a validation rule of the API (fastest-validator's names and ours). */
export function ruleMessage(t: TFunction, rule: string | undefined, expected?: unknown): string {
  const key = `configuracoes.rules.${rule ?? "any"}`;
  const msg = t(key, { expected });
  return msg === key ? t("configuracoes.rules.any") : msg;
}

/**
 * Shows the fields an API error names on an antd form; true when at least one field of the
 * form got its message (the caller then shows no toast of its own).
 */
export function applyFieldErrors(form: FormInstance, e: unknown, t: TFunction, known: readonly string[]): boolean {
  const errs = fieldErrorsOf(e, t);
  const hits = Object.entries(errs).filter(([f]) => known.includes(f));
  if (!hits.length) return false;
  form.setFields(hits.map(([name, msg]) => ({ name, errors: [msg] })));
  return true;
}
