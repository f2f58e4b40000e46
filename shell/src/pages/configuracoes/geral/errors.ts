import type { TFunction } from "i18next";
import { ApiError } from "../../../api/client";
import { ruleMessage } from "../../../ui/api-errors";

/**
 * The messages of a setting's refused value by the part the core names: "" for the value
 * itself (`value`), "green" for `value.green`. The page's own rules (slaOrder, the numbers'
 * bounds) have their texts under geral.rules; the others are the settings' common ones.
 */
export function valueErrors(e: ApiError | null, t: TFunction): Record<string, string> {
  if (!(e instanceof ApiError) || e.code !== "ERR_VALIDATION") return {};
  const list = (Array.isArray(e.data.errors) ? e.data.errors : [{ field: e.data.field, rule: e.data.rule, expected: e.data.expected }]) as Array<{ field?: string; rule?: string; expected?: unknown }>;
  const out: Record<string, string> = {};
  for (const r of list) {
    if (typeof r.field !== "string" || !/^value(\.|$)/.test(r.field)) continue;
    const part = r.field.replace(/^value\.?/, "");
    if (!(part in out)) out[part] = ruleText(t, r.rule, r.expected);
  }
  return out;
}

export function ruleText(t: TFunction, rule: string | undefined, expected?: unknown): string {
  const own = `geral.rules.${rule ?? "any"}`;
  const msg = t(own, { expected });
  return msg === own ? ruleMessage(t, rule, expected) : msg;
}
