/**
 * Builds a request that passes a route's parameter validation, from the action's own
 * fastest-validator schema, so tests can walk every route of the gateway — including routes
 * that later features add — without a hand-written body for each.
 */
export interface AliasInfo {
  actionName: string;
  fullPath: string;
  methods: string;
  action?: { params?: Record<string, unknown>; access?: string; resource?: string; tier?: string };
}

type Rule = { type?: string; min?: number; values?: unknown[]; optional?: boolean; items?: unknown; props?: Record<string, unknown> } | string;

function normalise(rule: unknown): { type: string; optional: boolean; min?: number; values?: unknown[]; props?: Record<string, unknown> } {
  if (typeof rule === "string") {
    const [type, ...mods] = rule.split("|");
    const min = mods.find((m) => m.startsWith("min:"));
    return { type, optional: mods.includes("optional"), min: min ? Number(min.slice(4)) : undefined };
  }
  if (Array.isArray(rule)) return normalise(rule[0]);
  const r = (rule ?? {}) as Exclude<Rule, string>;
  return { type: r.type ?? "any", optional: !!r.optional, min: r.min, values: r.values, props: r.props };
}

export function sampleValue(rule: unknown, field: string): unknown {
  const r = normalise(rule);
  switch (r.type) {
    case "string":
      return field.toLowerCase().includes("password") ? "Probe1234" : "probe".padEnd(Math.max(5, r.min ?? 0), "x");
    case "email":
      return `probe-${Date.now()}@probe.test`;
    case "number":
      return Math.max(1, r.min ?? 1);
    case "boolean":
      return true;
    case "enum":
      return r.values?.[0];
    case "array":
      return [];
    case "object":
      if (r.props) return sampleBody(r.props as Record<string, unknown>, true);
      return {};
    case "date":
      return new Date().toISOString();
    case "uuid":
      return "00000000-0000-4000-8000-000000000000";
    default:
      return "probe";
  }
}

/** Required fields only (plus every field when `all`), path params excluded. */
export function sampleBody(params: Record<string, unknown> | undefined, all = false, skip: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(params ?? {})) {
    if (field.startsWith("$$") || skip.includes(field)) continue;
    if (!all && normalise(rule).optional) continue;
    out[field] = sampleValue(rule, field);
  }
  return out;
}

export function pathParams(fullPath: string): string[] {
  return [...fullPath.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
}

/** Fills the path and splits the sample into query string or JSON body by method. */
export function buildRequest(alias: AliasInfo, ids: Record<string, number | string>): { method: string; path: string; body?: Record<string, unknown> } {
  const method = alias.methods.toUpperCase();
  const names = pathParams(alias.fullPath);
  let p = alias.fullPath.replace(/^\/api/, "");
  for (const n of names) {
    const open = alias.action?.resource === "own" || alias.action?.resource === "public";
    const v = open ? sampleValue(alias.action!.params?.[n], n) : ids[n];
    p = p.replace(`:${n}`, encodeURIComponent(String(v)));
  }
  const sample = sampleBody(alias.action?.params, false, names);
  if (method === "GET" || method === "DELETE") {
    const qs = new URLSearchParams(Object.entries(sample).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return { method, path: qs ? `${p}?${qs}` : p };
  }
  return { method, path: p, body: sample };
}
