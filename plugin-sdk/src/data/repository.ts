/**
 * The tenant-scoped repository: every statement it writes starts its WHERE with
 * `tenantId = <the scope's>` and every row it inserts carries it, so a plugin cannot reach
 * another tenant's rows, whatever `where` it passes (an empty one means "all of this tenant's").
 * Table and column names are checked against the table's definition before they reach SQL;
 * values are always bound parameters.
 */
import type { Transaction } from "sequelize";
import { AggregateQuery, AggregateRow, ColumnDef, DuplicateRowError, FindOptions, TenantData, TenantTable, Where } from "./contract";
import type { SqlPluginData, TableInfo } from "./database";
import { aggregateSql } from "./aggregate";
import { conditionParts, MAX_PARAMS, Params, type Value } from "./conditions";
import { PluginDataError } from "./errors";
import { checkIdentifier, checkTableName, decodeValue, encodeValue, q, TENANT_COLUMN } from "./sql";

const MAX_ROWS_PER_STATEMENT = 1000;

const isUniqueClash = (err: unknown) => (err as { name?: string })?.name === "SequelizeUniqueConstraintError";
/** MySQL's "column cannot be null" (1048) on tenantId: only the upsert guard writes NULL there. */
const isGuardTripped = (err: unknown) => {
  const e = err as { parent?: { errno?: number; message?: string } };
  return e?.parent?.errno === 1048 && /tenantId/.test(e.parent.message ?? "");
};

export class ScopedData implements TenantData {
  constructor(
    private readonly data: SqlPluginData,
    readonly tenantId: number,
    private readonly tx?: Transaction,
  ) {}

  table<Row extends Record<string, unknown>>(name: string): TenantTable<Row> {
    return new ScopedTable<Row>(this.data, this.tenantId, checkTableName(name), this.tx);
  }

  /** A transaction inside another joins it (no savepoints): the outer one commits or rolls back both. */
  transaction<T>(fn: (tx: TenantData) => Promise<T>): Promise<T> {
    if (this.tx) return fn(this);
    return this.data.inTransaction((tx) => fn(new ScopedData(this.data, this.tenantId, tx)));
  }
}

class ScopedTable<Row extends Record<string, unknown>> implements TenantTable<Row> {
  constructor(
    private readonly data: SqlPluginData,
    private readonly tenantId: number,
    private readonly name: string,
    private readonly tx?: Transaction,
  ) {}

  private q(id: string): string {
    return q(this.data.dialect, id);
  }

  private column(info: TableInfo, col: string): ColumnDef {
    checkIdentifier(col, "column");
    if (col.toLowerCase() === TENANT_COLUMN.toLowerCase()) {
      throw new PluginDataError("ERR_PLUGIN_DATA_IDENTIFIER", `${TENANT_COLUMN} is the tenant scope's: leave it out of rows and where`, { table: this.name, column: col });
    }
    const def = Object.prototype.hasOwnProperty.call(info.columns, col) ? info.columns[col] : undefined;
    if (!def) throw new PluginDataError("ERR_PLUGIN_DATA_UNKNOWN_COLUMN", `table ${this.name} has no column ${col}`, { table: this.name, column: col });
    return def;
  }

  private encode(info: TableInfo, col: string, value: unknown): Value {
    return encodeValue(this.name, col, this.column(info, col), value, this.data.dialect);
  }

  private whereSql(info: TableInfo, where: Where | undefined, p: Params): string {
    const parts = [`${this.q(TENANT_COLUMN)} = ${p.add(this.tenantId)}`];
    if (where !== undefined) parts.push(...conditionParts(this.checked(info), where, p));
    return ` WHERE ${parts.join(" AND ")}`;
  }

  /** The table as conditions and measures check their columns against it. */
  private checked(info: TableInfo) {
    return { name: this.name, dialect: this.data.dialect, column: (col: string) => this.column(info, col) };
  }

  /** The row's columns (undefined ones left out) as bound values, checked against the table. */
  private encodeRow(info: TableInfo, row: Record<string, unknown>, what: string): Map<string, Value> {
    if (!row || typeof row !== "object" || Array.isArray(row)) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${what} takes a row object`, { table: this.name });
    const out = new Map<string, Value>();
    for (const [col, value] of Object.entries(row)) if (value !== undefined) out.set(col, this.encode(info, col, value));
    return out;
  }

  /** Insert and upsert take whole rows: every NOT NULL column without a default. */
  private assertComplete(info: TableInfo, row: Map<string, Value>, what: string): void {
    for (const [col, def] of Object.entries(info.columns)) {
      if (!row.has(col) && !def.nullable && def.default === undefined) {
        throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${what} into ${this.name} needs column ${col} (NOT NULL, no default)`, { table: this.name, column: col });
      }
    }
  }

  private decode(info: TableInfo, raw: Record<string, unknown>): Row {
    const row: Record<string, unknown> = {};
    for (const [col, def] of Object.entries(info.columns)) row[col] = decodeValue(def, raw[col]);
    return row as Row;
  }

  private async info(): Promise<TableInfo> {
    return this.data.tableInfo(this.name, this.tx, true);
  }

  async get(where: Where): Promise<Row | null> {
    const rows = await this.find(where, { limit: 1 });
    return rows[0] ?? null;
  }

  async find(where?: Where, opts: FindOptions = {}): Promise<Row[]> {
    const info = await this.info();
    const p = new Params();
    const cols = Object.keys(info.columns);
    let sql = `SELECT ${cols.map((c) => this.q(c)).join(", ")} FROM ${this.q(this.name)}${this.whereSql(info, where, p)}`;
    if (opts.orderBy !== undefined) {
      if (!Array.isArray(opts.orderBy)) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", "orderBy takes [column, \"asc\" | \"desc\"] pairs", { table: this.name });
      const order = opts.orderBy.map((pair) => {
        const [col, dir] = Array.isArray(pair) ? pair : [];
        this.column(info, col as string);
        if (dir !== "asc" && dir !== "desc") throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `orderBy ${String(col)}: direction must be "asc" or "desc"`, { table: this.name });
        return `${this.q(col as string)} ${dir.toUpperCase()}`;
      });
      if (order.length) sql += ` ORDER BY ${order.join(", ")}`;
    }
    const count = (n: unknown, what: string) => {
      if (!Number.isSafeInteger(n) || (n as number) < 0) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${what} must be a whole number ≥ 0`, { table: this.name });
      return n as number;
    };
    // Checked integers, written in: MySQL's prepared statements are picky about LIMIT parameters.
    if (opts.limit !== undefined) sql += ` LIMIT ${count(opts.limit, "limit")}`;
    if (opts.offset !== undefined) {
      if (opts.limit === undefined) sql += this.data.dialect === "mysql" ? " LIMIT 18446744073709551615" : " LIMIT -1";
      sql += ` OFFSET ${count(opts.offset, "offset")}`;
    }
    const rows = await this.data.select<Record<string, unknown>>(sql, p.values, this.tx);
    return rows.map((r) => this.decode(info, r));
  }

  async count(where?: Where): Promise<number> {
    const info = await this.info();
    const p = new Params();
    const rows = await this.data.select<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${this.q(this.name)}${this.whereSql(info, where, p)}`, p.values, this.tx);
    return Number(rows[0]?.n ?? 0);
  }

  async aggregate(query: AggregateQuery): Promise<AggregateRow[]> {
    const info = await this.info();
    const p = new Params();
    const a = aggregateSql(this.checked(info), query, (params) => this.whereSql(info, query?.where, params), p);
    const rows = await this.data.select<Record<string, unknown>>(a.sql, p.values, this.tx);
    return rows.map((r) => a.decode(r));
  }

  async insert(row: Row): Promise<void> {
    const info = await this.info();
    const values = this.encodeRow(info, row, "insert");
    this.assertComplete(info, values, "insert");
    const p = new Params();
    const cols = [TENANT_COLUMN, ...values.keys()];
    const placeholders = [p.add(this.tenantId), ...[...values.values()].map((v) => p.add(v))];
    try {
      await this.data.run(`INSERT INTO ${this.q(this.name)} (${cols.map((c) => this.q(c)).join(", ")}) VALUES (${placeholders.join(", ")})`, p.values, this.tx);
    } catch (err) {
      if (isUniqueClash(err)) throw new DuplicateRowError(this.name);
      throw err;
    }
  }

  upsert(row: Row): Promise<void> {
    return this.upsertMany([row]);
  }

  async upsertMany(rows: Row[]): Promise<void> {
    if (!Array.isArray(rows)) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", "upsertMany takes an array of rows", { table: this.name });
    if (!rows.length) return;
    const info = await this.info();
    const pk = info.primaryKey;
    // Rows with the same key merge, the later one's columns winning: what upserting them one by
    // one would leave, in one statement (a statement cannot touch a row twice on every engine).
    const byKey = new Map<string, Map<string, Value>>();
    for (const row of rows) {
      const values = this.encodeRow(info, row, "upsert");
      for (const col of pk) {
        if (values.get(col) === undefined || values.get(col) === null) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `upsert into ${this.name} needs the primary key column ${col}`, { table: this.name, column: col });
      }
      const key = JSON.stringify(pk.map((c) => values.get(c)));
      const prev = byKey.get(key);
      byKey.set(key, prev ? new Map([...prev, ...values]) : values);
    }
    // Same columns → one multi-row statement; rows in key order, so concurrent upserts lock alike.
    const groups = new Map<string, Array<[string, Map<string, Value>]>>();
    for (const entry of byKey) {
      this.assertComplete(info, entry[1], "upsert");
      const shape = [...entry[1].keys()].sort().join(",");
      const g = groups.get(shape) ?? [];
      g.push(entry);
      groups.set(shape, g);
    }
    const unique = (info.indexes ?? []).some((i) => i.unique);
    const statements: Array<{ sql: string; bind: Value[] }> = [];
    for (const group of groups.values()) {
      group.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      const cols = [...group[0][1].keys()].sort();
      const perStatement = Math.max(1, Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_PARAMS / (cols.length + 1))));
      for (let i = 0; i < group.length; i += perStatement) statements.push(this.upsertSql(pk, cols, group.slice(i, i + perStatement).map((e) => e[1]), unique));
    }
    const runAll = async (tx?: Transaction) => {
      for (const s of statements) await this.data.run(s.sql, s.bind, tx);
    };
    try {
      if (this.tx) return await runAll(this.tx);
      // One statement is atomic by itself (and skips opening a transaction); more need one.
      if (statements.length === 1) return await this.data.retryingDeadlocks(() => runAll());
      await this.data.inTransaction(runAll, { retryDeadlocks: true });
    } catch (err) {
      if (isUniqueClash(err) || isGuardTripped(err)) throw new DuplicateRowError(this.name);
      throw err;
    }
  }

  private upsertSql(pk: string[], cols: string[], rows: Array<Map<string, Value>>, unique: boolean): { sql: string; bind: Value[] } {
    const p = new Params();
    const tuples = rows.map((r) => `(${[p.add(this.tenantId), ...cols.map((c) => p.add(r.get(c) ?? null))].join(", ")})`);
    const rest = cols.filter((c) => !pk.includes(c));
    let sql = `INSERT INTO ${this.q(this.name)} (${[TENANT_COLUMN, ...cols].map((c) => this.q(c)).join(", ")}) VALUES ${tuples.join(", ")}`;
    if (this.data.dialect === "mysql") {
      // MySQL takes any unique key's clash as "the row exists"; SQLite only the primary key's.
      // With unique indexes, the first assignment fails (NULL into NOT NULL, strict mode) when
      // the row found is not the one with this primary key: a DuplicateRowError on both.
      const t = this.q(TENANT_COLUMN);
      const guard = unique ? [`${t} = IF(${pk.map((c) => `${this.q(c)} <=> VALUES(${this.q(c)})`).join(" AND ")}, ${t}, NULL)`] : [];
      const sets = [...guard, ...rest.map((c) => `${this.q(c)} = VALUES(${this.q(c)})`)];
      sql += ` ON DUPLICATE KEY UPDATE ${sets.length ? sets.join(", ") : `${t} = ${t}`}`;
    } else {
      const target = [TENANT_COLUMN, ...pk].map((c) => this.q(c)).join(", ");
      sql += ` ON CONFLICT (${target}) ${rest.length ? `DO UPDATE SET ${rest.map((c) => `${this.q(c)} = excluded.${this.q(c)}`).join(", ")}` : "DO NOTHING"}`;
    }
    return { sql, bind: p.values };
  }

  async update(where: Where, values: Partial<Row>): Promise<number> {
    const info = await this.info();
    const set = this.encodeRow(info, values as Record<string, unknown>, "update");
    if (!set.size) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `update of ${this.name} names no column to change`, { table: this.name });
    const p = new Params();
    const assignments = [...set].map(([c, v]) => `${this.q(c)} = ${p.add(v)}`).join(", ");
    try {
      return await this.data.run(`UPDATE ${this.q(this.name)} SET ${assignments}${this.whereSql(info, where, p)}`, p.values, this.tx, "update");
    } catch (err) {
      if (isUniqueClash(err)) throw new DuplicateRowError(this.name);
      throw err;
    }
  }

  async delete(where: Where): Promise<number> {
    const info = await this.info();
    const p = new Params();
    return this.data.run(`DELETE FROM ${this.q(this.name)}${this.whereSql(info, where, p)}`, p.values, this.tx, "delete");
  }
}
