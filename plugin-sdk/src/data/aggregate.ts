/**
 * A table's grouped figures as one SELECT … GROUP BY: the measures' columns checked against the
 * table (integer or bigint where a number is taken), every value bound, and the answer's names
 * (groupBy columns, measure names) given back in JS: the SQL uses its own aliases.
 */
import type { AggregateQuery, AggregateRow, ColumnDef, Measure, Operand } from "./contract";
import { conditionParts, rangeBounds, RANGE_OPS, type CheckedTable, type Params } from "./conditions";
import { PluginDataError } from "./errors";
import { decodeValue, q } from "./sql";

const KINDS = ["count", "sum", "min", "max"] as const;
type Kind = (typeof KINDS)[number];
const NUMERIC: ReadonlyArray<ColumnDef["type"]> = ["integer", "bigint"];

export interface AggregateSql {
  sql: string;
  /** Decodes one raw row of the answer. */
  decode(raw: Record<string, unknown>): AggregateRow;
}

function fail(t: CheckedTable, message: string, column?: string): never {
  throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", message, { table: t.name, ...(column ? { column } : {}) });
}

function operandSql(t: CheckedTable, name: string, operand: Operand): string {
  const numeric = (col: unknown) => {
    if (typeof col !== "string") fail(t, `measure ${name}: an operand is a column name or { diff: [a, b] }`);
    const def = t.column(col);
    if (!NUMERIC.includes(def.type)) fail(t, `measure ${name}: ${t.name}.${col} is ${def.type}, a measure takes integer or bigint columns`, col);
    return q(t.dialect, col);
  };
  if (typeof operand === "string") return numeric(operand);
  const diff = operand && typeof operand === "object" ? (operand as { diff?: unknown }).diff : undefined;
  if (!Array.isArray(diff) || diff.length !== 2 || Object.keys(operand).length !== 1) fail(t, `measure ${name}: an operand is a column name or { diff: [a, b] }`);
  return `(${numeric(diff[0])} - ${numeric(diff[1])})`;
}

function measureSql(t: CheckedTable, name: string, m: Measure, p: Params): string {
  if (!m || typeof m !== "object" || Array.isArray(m)) fail(t, `measure ${name} must be an object`);
  const unknown = Object.keys(m).find((k) => !(KINDS as readonly string[]).includes(k) && k !== "where" && k !== "range");
  if (unknown) fail(t, `measure ${name}: ${JSON.stringify(unknown)} is not count, sum, min, max, where or range`);
  const kinds = KINDS.filter((k) => m[k] !== undefined);
  if (kinds.length !== 1) fail(t, `measure ${name} takes exactly one of count, sum, min, max`);
  const kind: Kind = kinds[0];
  const raw = m[kind];
  const operand = kind === "count" && raw === true ? null : operandSql(t, name, raw as Operand);
  const conds = m.where === undefined ? [] : conditionParts(t, m.where, p, `measure ${name}.where`);
  if (m.range !== undefined) {
    if (!operand) fail(t, `measure ${name}: a range needs an operand (count: column or diff)`);
    if (m.range === null || typeof m.range !== "object" || Array.isArray(m.range)) fail(t, `measure ${name}.range must be an object`);
    for (const [op, bound] of rangeBounds(t, `measure ${name}.range`, m.range as Record<string, unknown>)) {
      if (typeof bound !== "number" || !Number.isFinite(bound)) fail(t, `measure ${name}.range.${op} must be a finite number`);
      conds.push(`${operand} ${RANGE_OPS[op]} ${p.add(bound)}`);
    }
  }
  const value = operand ?? "1";
  const arg = conds.length ? `CASE WHEN ${conds.join(" AND ")} THEN ${value} END` : kind === "count" && !operand ? "*" : value;
  return `${kind.toUpperCase()}(${arg})`;
}

/** SELECT <groups>, <measures> FROM t <whereSql> GROUP BY … ORDER BY …; `whereSql` is the tenant-scoped WHERE, already bound into `p`. */
export function aggregateSql(t: CheckedTable, query: AggregateQuery, whereSql: (p: Params) => string, p: Params): AggregateSql {
  if (!query || typeof query !== "object") fail(t, "aggregate takes { where?, groupBy?, measures }");
  const groupBy = query.groupBy ?? [];
  if (!Array.isArray(groupBy)) fail(t, "aggregate groupBy takes a list of columns");
  const groups = groupBy.map((col) => {
    const def = t.column(col);
    if (def.type === "json" || def.type === "text" || def.type === "blob") fail(t, `${t.name}.${col} is ${def.type}: it cannot be grouped by`, col);
    return { col, def };
  });
  if (new Set(groupBy).size !== groupBy.length) fail(t, "aggregate groupBy names a column twice");
  const measures = query.measures;
  if (!measures || typeof measures !== "object" || Array.isArray(measures) || !Object.keys(measures).length) fail(t, "aggregate takes at least one measure");
  const names = Object.keys(measures);
  const clash = names.find((n) => n === "__proto__" || groupBy.includes(n));
  if (clash) fail(t, `measure name ${JSON.stringify(clash)} is taken (a groupBy column, or not allowed)`);
  const select = groups.map((g, i) => `${q(t.dialect, g.col)} AS g${i}`);
  names.forEach((n, i) => select.push(`${measureSql(t, n, measures[n], p)} AS m${i}`));
  let sql = `SELECT ${select.join(", ")} FROM ${q(t.dialect, t.name)}${whereSql(p)}`;
  if (groups.length) {
    const cols = groups.map((g) => q(t.dialect, g.col)).join(", ");
    sql += ` GROUP BY ${cols} ORDER BY ${cols}`;
  }
  return {
    sql,
    decode(raw) {
      const row: AggregateRow = {};
      groups.forEach((g, i) => (row[g.col] = decodeValue(g.def, raw[`g${i}`])));
      names.forEach((n, i) => {
        const v = raw[`m${i}`];
        row[n] = v === null || v === undefined ? null : Number(v);
      });
      return row;
    },
  };
}
