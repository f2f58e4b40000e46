/**
 * The SchemaBuilder a migration gets. Every table starts with `tenantId INTEGER NOT NULL`,
 * which also leads its primary key and every index; each change is written to `_schema` too,
 * so the repository knows each column's type (json and datetime look like text to the engine).
 *
 * On SQLite a migration runs inside one transaction (DDL included), so a failing one leaves
 * nothing behind. MySQL commits each DDL statement by itself: there the builder keeps an undo
 * list (drop what was created, put back what was dropped — a dropped table is only renamed
 * until the migration succeeds) and the runner plays it back when the migration throws.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Transaction } from "sequelize";
import type { ColumnDef, IndexDef, SchemaBuilder, TableDef } from "./contract";
import type { SqlPluginData } from "./database";
import { PluginDataError } from "./errors";
import { checkIdentifier, checkTableName, columnSql, normaliseColumn, q, tenantColumnSql, UNINDEXABLE } from "./sql";

type Step = () => Promise<void>;

const schemaError = (message: string, detail: Record<string, unknown>) => new PluginDataError("ERR_PLUGIN_DATA_SCHEMA", message, detail);

export class SqlSchemaBuilder implements SchemaBuilder {
  readonly dialect: "sqlite" | "mysql";
  /** MySQL: how to take back what this migration did, newest first. */
  private readonly undo: Step[] = [];
  /** MySQL: what to finish once the migration succeeded (dropping renamed tables). */
  private readonly finish: Step[] = [];

  constructor(
    private readonly data: SqlPluginData,
    private readonly tx?: Transaction,
  ) {
    this.dialect = data.dialect;
  }

  private q(id: string): string {
    return q(this.dialect, id);
  }

  private run(sql: string, bind: Array<string | number | null> = []): Promise<number> {
    return this.data.run(sql, bind, this.tx);
  }

  private async definition(table: string): Promise<TableDef | null> {
    const rows = await this.data.select<{ definition: string }>(`SELECT ${this.q("definition")} FROM ${this.q("_schema")} WHERE ${this.q("tableName")} = $1`, [table], this.tx);
    return rows.length ? (JSON.parse(rows[0].definition) as TableDef) : null;
  }

  private async existing(table: string): Promise<TableDef> {
    checkTableName(table);
    const def = await this.definition(table);
    if (!def) throw new PluginDataError("ERR_PLUGIN_DATA_UNKNOWN_TABLE", `table ${table} does not exist`, { table });
    return def;
  }

  /** Writes (or with null removes) a table's definition; the undo puts the old one back. */
  private async saveDefinition(table: string, def: TableDef | null, previous: TableDef | null): Promise<void> {
    const write = async (d: TableDef | null) => {
      await this.run(`DELETE FROM ${this.q("_schema")} WHERE ${this.q("tableName")} = $1`, [table]);
      if (d) await this.run(`INSERT INTO ${this.q("_schema")} (${this.q("tableName")}, ${this.q("definition")}) VALUES ($1, $2)`, [table, JSON.stringify(d)]);
    };
    await write(def);
    this.undo.push(() => write(previous));
  }

  private indexOf(table: string, def: TableDef, index: IndexDef): IndexDef {
    if (!index || !Array.isArray(index.columns) || !index.columns.length) throw schemaError(`${table}: an index needs columns`, { table });
    for (const col of index.columns) {
      checkIdentifier(col, "column");
      const c = Object.prototype.hasOwnProperty.call(def.columns, col) ? def.columns[col] : undefined;
      if (!c) throw new PluginDataError("ERR_PLUGIN_DATA_UNKNOWN_COLUMN", `${table}: the index names column ${col}, which the table does not have`, { table, column: col });
      if (UNINDEXABLE.includes(c.type)) throw schemaError(`${table}.${col} is ${c.type}: text, json and blob columns cannot be indexed`, { table, column: col });
    }
    if (new Set(index.columns).size !== index.columns.length) throw schemaError(`${table}: an index names a column twice`, { table });
    const name = index.name ?? `${table}_${index.columns.join("_")}`;
    // A long default name is shortened with a hash (names stop at 64 characters).
    const fitted = index.name === undefined && name.length > 64 ? `${name.slice(0, 55)}_${createHash("sha256").update(name).digest("hex").slice(0, 8)}` : name;
    checkIdentifier(fitted, "index");
    if (fitted.startsWith("_")) throw new PluginDataError("ERR_PLUGIN_DATA_IDENTIFIER", `index name ${fitted} is not allowed: names starting with "_" belong to the host`, { table });
    return { columns: [...index.columns], unique: index.unique === true, name: fitted };
  }

  private createIndexSql(table: string, index: IndexDef): string {
    const cols = ["tenantId", ...index.columns].map((c) => this.q(c)).join(", ");
    return `CREATE ${index.unique ? "UNIQUE " : ""}INDEX ${this.q(index.name!)} ON ${this.q(table)} (${cols})`;
  }

  private dropIndexSql(table: string, name: string): string {
    return this.dialect === "mysql" ? `DROP INDEX ${this.q(name)} ON ${this.q(table)}` : `DROP INDEX ${this.q(name)}`;
  }

  async createTable(name: string, def: TableDef): Promise<void> {
    checkTableName(name);
    if (!def || typeof def !== "object" || !def.columns || typeof def.columns !== "object") throw schemaError(`${name}: createTable needs { columns, primaryKey }`, { table: name });
    const columns: Record<string, ColumnDef> = {};
    for (const [col, c] of Object.entries(def.columns)) {
      if (Object.keys(columns).some((k) => k.toLowerCase() === col.toLowerCase())) throw schemaError(`${name}: column ${col} is named twice`, { table: name, column: col });
      columns[col] = normaliseColumn(name, col, c);
    }
    if (!Object.keys(columns).length) throw schemaError(`${name}: a table needs at least one column`, { table: name });
    if (!Array.isArray(def.primaryKey) || !def.primaryKey.length) throw schemaError(`${name}: a table needs a primary key (its columns besides tenantId)`, { table: name });
    for (const col of def.primaryKey) {
      const c = Object.prototype.hasOwnProperty.call(columns, col) ? columns[col] : undefined;
      if (!c) throw new PluginDataError("ERR_PLUGIN_DATA_UNKNOWN_COLUMN", `${name}: the primary key names column ${String(col)}, which the table does not have`, { table: name, column: col });
      if (c.nullable) throw schemaError(`${name}.${col} is in the primary key: it cannot be nullable`, { table: name, column: col });
      if (UNINDEXABLE.includes(c.type)) throw schemaError(`${name}.${col} is ${c.type}: text, json and blob columns cannot be in a primary key`, { table: name, column: col });
    }
    if (new Set(def.primaryKey).size !== def.primaryKey.length) throw schemaError(`${name}: the primary key names a column twice`, { table: name });
    const table: TableDef = { columns, primaryKey: [...def.primaryKey], indexes: [] };
    const indexes = (def.indexes ?? []).map((i) => this.indexOf(name, table, i));
    table.indexes = indexes;

    // SQLite's table names ignore case: refused on both engines alike.
    const names = await this.data.select<{ tableName: string }>(`SELECT ${this.q("tableName")} FROM ${this.q("_schema")}`, [], this.tx);
    if (names.some((r) => r.tableName.toLowerCase() === name.toLowerCase())) throw schemaError(`table ${name} already exists`, { table: name });

    const pk = ["tenantId", ...table.primaryKey].map((c) => this.q(c)).join(", ");
    const body = [tenantColumnSql(this.dialect), ...Object.entries(columns).map(([col, c]) => columnSql(this.dialect, name, col, c)), `PRIMARY KEY (${pk})`].join(", ");
    const tail = this.dialect === "mysql" ? " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin" : "";
    await this.run(`CREATE TABLE ${this.q(name)} (${body})${tail}`);
    this.undo.push(async () => void (await this.run(`DROP TABLE IF EXISTS ${this.q(name)}`)));
    for (const index of indexes) await this.run(this.createIndexSql(name, index));
    await this.saveDefinition(name, table, null);
  }

  async dropTable(name: string): Promise<void> {
    const previous = await this.existing(name);
    if (this.dialect === "mysql" && !this.tx) {
      const parked = `_dropped_${randomBytes(6).toString("hex")}`;
      await this.run(`RENAME TABLE ${this.q(name)} TO ${this.q(parked)}`);
      this.undo.push(async () => void (await this.run(`RENAME TABLE ${this.q(parked)} TO ${this.q(name)}`)));
      this.finish.push(async () => void (await this.run(`DROP TABLE IF EXISTS ${this.q(parked)}`)));
    } else {
      await this.run(`DROP TABLE ${this.q(name)}`);
    }
    await this.saveDefinition(name, null, previous);
  }

  async addColumn(table: string, column: string, def: ColumnDef): Promise<void> {
    const previous = await this.existing(table);
    if (Object.keys(previous.columns).some((k) => k.toLowerCase() === column.toLowerCase())) throw schemaError(`${table} already has a column ${column}`, { table, column });
    const c = normaliseColumn(table, column, def);
    // SQLite refuses it on any table, MySQL would fill in a zero value: both must say what goes in the old rows.
    if (!c.nullable && c.default === undefined) throw schemaError(`${table}.${column}: a new NOT NULL column needs a default for the rows already there`, { table, column });
    await this.run(`ALTER TABLE ${this.q(table)} ADD COLUMN ${columnSql(this.dialect, table, column, c)}`);
    this.undo.push(async () => void (await this.run(`ALTER TABLE ${this.q(table)} DROP COLUMN ${this.q(column)}`)));
    await this.saveDefinition(table, { ...previous, columns: { ...previous.columns, [column]: c } }, previous);
  }

  async addIndex(table: string, index: IndexDef): Promise<void> {
    const previous = await this.existing(table);
    const idx = this.indexOf(table, previous, index);
    if ((previous.indexes ?? []).some((i) => i.name?.toLowerCase() === idx.name!.toLowerCase())) throw schemaError(`${table} already has an index ${idx.name}`, { table, index: idx.name });
    await this.run(this.createIndexSql(table, idx));
    this.undo.push(async () => void (await this.run(this.dropIndexSql(table, idx.name!))));
    await this.saveDefinition(table, { ...previous, indexes: [...(previous.indexes ?? []), idx] }, previous);
  }

  /** MySQL: takes back what the failed migration did, newest first; answers what could not be undone. */
  async rollback(): Promise<string[]> {
    const left: string[] = [];
    for (const step of this.undo.reverse()) {
      try {
        await step();
      } catch (err) {
        left.push((err as Error).message);
      }
    }
    this.undo.length = 0;
    return left;
  }

  /** MySQL: completes the migration (the tables it dropped go for good). */
  async complete(): Promise<void> {
    for (const step of this.finish) await step();
    this.finish.length = 0;
    this.undo.length = 0;
  }
}
