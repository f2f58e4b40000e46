/**
 * The conditions of a Where as SQL, for the repository's statements and the aggregate's
 * measures: every column checked against the table, every value a bound parameter.
 */
import type { ColumnDef, Where, WhereRange } from "./contract";
import { PluginDataError } from "./errors";
import { encodeValue, q, type Dialect } from "./sql";

export type Value = string | number | Buffer | null;

/** Below SQLite's 32766 and MySQL's 65535 bound parameters per statement. */
export const MAX_PARAMS = 30_000;

export class Params {
  readonly values: Value[] = [];
  add(v: Value): string {
    this.values.push(v);
    if (this.values.length > MAX_PARAMS) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `a statement may hold at most ${MAX_PARAMS} values: split the where`);
    return `$${this.values.length}`;
  }
}

/** What conditions need of a table: its name, engine, and its columns (unknown or tenantId ones refused). */
export interface CheckedTable {
  readonly name: string;
  readonly dialect: Dialect;
  column(col: string): ColumnDef;
}

export const RANGE_OPS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;
type RangeOp = keyof typeof RANGE_OPS;

/** A plain object whose keys are range bounds only (a Date or an array is a value, not a range). */
export function isRange(value: unknown): value is WhereRange {
  if (value === null || typeof value !== "object" || Array.isArray(value) || value instanceof Date || Buffer.isBuffer(value)) return false;
  return Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null;
}

/** The range's bounds, checked: at least one, and none but gt, gte, lt, lte. */
export function rangeBounds(t: CheckedTable, what: string, range: Record<string, unknown>): Array<[RangeOp, unknown]> {
  const entries = Object.entries(range).filter(([, v]) => v !== undefined);
  const bad = entries.find(([k]) => !Object.prototype.hasOwnProperty.call(RANGE_OPS, k));
  if (bad || !entries.length) {
    throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${what}: a range takes gt, gte, lt or lte${bad ? `, not ${JSON.stringify(bad[0])}` : ""}`, { table: t.name });
  }
  return entries as Array<[RangeOp, unknown]>;
}

/** `where`'s conditions, ANDed by the caller (the tenant's is not among them). */
export function conditionParts(t: CheckedTable, where: Where, p: Params, what = "where"): string[] {
  if (where === null || typeof where !== "object" || Array.isArray(where)) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${what} must be an object of column → value`, { table: t.name });
  const parts: string[] = [];
  for (const [col, value] of Object.entries(where)) {
    const def = t.column(col);
    if (value === undefined) {
      // Dropping it would widen the match (a delete of one row becoming all of them).
      throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${what}.${col} is undefined: leave the column out to match any value`, { table: t.name, column: col });
    }
    if (def.type === "json") throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${t.name}.${col} is json: it cannot be compared in a where`, { table: t.name, column: col });
    const strict = { ...def, nullable: false };
    const bind = (v: unknown) => p.add(encodeValue(t.name, col, strict, v, t.dialect));
    const c = q(t.dialect, col);
    if (value === null) parts.push(`${c} IS NULL`);
    else if (Array.isArray(value)) parts.push(value.length ? `${c} IN (${value.map(bind).join(", ")})` : "1 = 0");
    else if (isRange(value)) {
      if (def.type === "boolean" || def.type === "blob") throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${t.name}.${col} is ${def.type}: it takes no range`, { table: t.name, column: col });
      for (const [op, bound] of rangeBounds(t, `${what}.${col}`, value as Record<string, unknown>)) parts.push(`${c} ${RANGE_OPS[op]} ${bind(bound)}`);
    } else parts.push(`${c} = ${bind(value)}`);
  }
  return parts;
}
