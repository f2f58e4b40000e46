/**
 * The chat-flow screens' texts: the four languages have the same keys, none empty, the same
 * {{placeholders}} as pt-BR, and every key the screens ask for (literal or built from a list
 * of the model) exists.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DISTRIBUTIONS, NODE_TYPES, RUN_STATES, WEBHOOK_FIELDS } from "../../model";
import { LAYOUTS } from "./layout";
import { chatFlowTexts } from "./texts";

type Tree = { [k: string]: string | Tree };

function flatten(t: Tree, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(t)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out[key] = v;
    else Object.assign(out, flatten(v, key));
  }
  return out;
}

const flat = Object.fromEntries(Object.entries(chatFlowTexts).map(([lng, r]) => [lng, flatten(r.chatFlow as unknown as Tree)]));
const base = flat["pt-BR"];
const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

test("the four languages have the same keys, none empty, with the same placeholders", () => {
  for (const lng of ["en", "es", "ru"]) {
    expect(Object.keys(flat[lng]).sort()).toEqual(Object.keys(base).sort());
    for (const [k, v] of Object.entries(flat[lng])) {
      expect([lng, k, v.trim().length > 0]).toEqual([lng, k, true]);
      expect([lng, k, vars(v)]).toEqual([lng, k, vars(base[k])]);
    }
  }
});

test("every key the screens ask for exists", () => {
  const dir = __dirname;
  const used = new Set<string>();
  for (const f of fs.readdirSync(dir).filter((x) => /\.tsx?$/.test(x) && !x.includes(".test."))) {
    const src = fs.readFileSync(path.join(dir, f), "utf8");
    for (const m of src.matchAll(/\btr\(\s*"([^"]+)"/g)) used.add(m[1]);
    // tr(cond ? "a" : "b")
    for (const m of src.matchAll(/\btr\(\s*[^"`)]+\?\s*"([^"]+)"\s*:\s*"([^"]+)"/g)) (used.add(m[1]), used.add(m[2]));
  }
  // Keys built from lists: each list's every value.
  const lists: Record<string, readonly string[]> = {
    type: NODE_TYPES,
    nodeHelp: NODE_TYPES,
    run: RUN_STATES,
    whField: WEBHOOK_FIELDS,
    layout: LAYOUTS,
    cond: ["keyword", "regex", "businessHours", "contactField"],
    field: ["name", "number", "email"],
    op: ["equals", "contains", "empty", "notEmpty"],
    interaction: ["text", "media", "delay"],
    runStatus: ["running", "handedOff", "closed", "expired", "cancelled"],
    notice: ["ERR_FLOW_SELF_LINK", "ERR_FLOW_LOOP"],
    problem: ["ERR_FLOW_START_NODE", "ERR_FLOW_NODE_INVALID", "ERR_FLOW_EDGE_DANGLING", "ERR_FLOW_EDGE_HANDLE", "ERR_FLOW_EDGE_DUPLICATE", "ERR_FLOW_SELF_LINK", "ERR_FLOW_LOOP", "ERR_VALIDATION"],
  };
  for (const [prefix, values] of Object.entries(lists)) for (const v of values) used.add(`${prefix}.${v}`);
  for (const d of DISTRIBUTIONS) (used.add(`distribute_${d}`), used.add(`distributeHint_${d}`));
  for (const v of ["any", "email", "number"]) used.add(`validate_${v}`);
  // The outputs' labels ("#handleTrue"…, convert.ts).
  for (const h of ["handleTrue", "handleFalse", "handleSuccess", "handleError"]) used.add(h);
  expect(used.size).toBeGreaterThan(150);
  expect([...used].filter((k) => !(k in base)).sort()).toEqual([]);
});
