/**
 * A plugin's own data: tables only the plugin reaches, made by migrations it ships, read and
 * written through a repository that is always scoped to one tenant.
 *
 * Where the tables live is the host's choice, never the plugin's: in embedded mode a SQLite
 * file of the plugin's own under DATA_DIR, on MySQL/MariaDB a database (schema) of the
 * plugin's own. The host runs the plugin's migrations before its service starts (bundled
 * plugins at load, marketplace plugins on install and upgrade; a rollback keeps the tables),
 * whether the plugin runs in the core's process or in a plugin node of its own.
 *
 *   // plugins/<id>/migrations/0001-sessions.ts
 *   export const migration: PluginMigration = {
 *     name: "0001-sessions",
 *     async up(schema) {
 *       await schema.createTable("sessions", { columns: { connectionId: { type: "integer" }, creds: { type: "text" } }, primaryKey: ["connectionId"] });
 *     },
 *   };
 *
 *   // in the service
 *   const data = await openPluginData(this);          // the plugin's own database, from its context
 *   const sessions = data.forTenant(tenantId).table<SessionRow>("sessions");
 *   await sessions.upsert({ connectionId: 7, creds: "…" });
 *
 * Every table gets a `tenantId` column (integer, not null) as the first column of its primary
 * key and of every index; a plugin never writes it: the tenant-scoped repository fills it in
 * and adds it to every WHERE, so forgetting the tenant is impossible.
 *
 * How to extend: add optional members only.
 */

export type ColumnType = "string" | "text" | "integer" | "bigint" | "boolean" | "json" | "datetime" | "blob";

export interface ColumnDef {
  type: ColumnType;
  /** For "string": the maximum length (default 191, the longest that can be indexed on every engine). */
  length?: number;
  /** Default false: NOT NULL. */
  nullable?: boolean;
  default?: string | number | boolean | null;
}

export interface IndexDef {
  columns: string[];
  unique?: boolean;
  /** Default: `<table>_<columns joined by _>`. */
  name?: string;
}

export interface TableDef {
  /** The table's columns, without tenantId (added by the host). */
  columns: Record<string, ColumnDef>;
  /** Primary key columns, without tenantId (prepended by the host). */
  primaryKey: string[];
  indexes?: IndexDef[];
}

/** What a migration may do to the plugin's own database. Table names are the plugin's own namespace. */
export interface SchemaBuilder {
  readonly dialect: "sqlite" | "mysql";
  createTable(name: string, def: TableDef): Promise<void>;
  dropTable(name: string): Promise<void>;
  addColumn(table: string, column: string, def: ColumnDef): Promise<void>;
  addIndex(table: string, index: IndexDef): Promise<void>;
}

export interface PluginMigration {
  /** Unique and sortable ("0001-sessions"): the host records which ran. */
  name: string;
  up(schema: SchemaBuilder): Promise<void>;
}

/** A bound of a range: a value of the column's type (a Date, ISO text or epoch ms for a datetime). */
export type RangeBound = string | number | Date;
/** A range on one column: every bound given must hold (`{ gte: from, lt: to }`); null never falls in one. */
export interface WhereRange {
  gt?: RangeBound;
  gte?: RangeBound;
  lt?: RangeBound;
  lte?: RangeBound;
}
export type WhereValue = string | number | boolean | null | ReadonlyArray<string | number> | WhereRange;
/**
 * On each column: equality (null: IS NULL), an array (IN), or a range object; all of them
 * ANDed. tenantId is never given, it is always the scope's.
 */
export type Where = Record<string, WhereValue>;

/** What a measure reads of a row: an integer/bigint column, or the difference of two (`a - b`; null if either is). */
export type Operand = string | { diff: [string, string] };

/**
 * One figure of a group, exactly one of count, sum, min, max. `where` and `range` narrow the
 * rows the measure takes (the others of the group still count for the other measures):
 * `{ count: true, where: { status: "closed" } }`, or the closed tickets over an hour:
 * `{ count: { diff: ["closedAt", "createdAt"] }, range: { gte: 3_600_000 } }`.
 */
export interface Measure {
  /** true: rows; an operand: rows where it is not null. */
  count?: true | Operand;
  sum?: Operand;
  min?: Operand;
  max?: Operand;
  /** Only rows that match this (as a Where). */
  where?: Where;
  /** Only rows whose operand falls in this range (numbers; a null operand never does). */
  range?: { gt?: number; gte?: number; lt?: number; lte?: number };
}

export interface AggregateQuery {
  where?: Where;
  /** Columns to group by (none: one row over every match, also when nothing matches). */
  groupBy?: string[];
  /** Figure name → measure; the names are keys of the answer only, they never reach SQL. */
  measures: Record<string, Measure>;
}

/** One group: its groupBy columns as stored, then each measure as a number (null: no row to take; sums, mins and maxes of no row). */
export type AggregateRow = Record<string, unknown>;

export interface FindOptions {
  orderBy?: Array<[column: string, direction: "asc" | "desc"]>;
  limit?: number;
  offset?: number;
}

/** One table, scoped to one tenant. Rows come back without tenantId. */
export interface TenantTable<Row extends Record<string, unknown>> {
  get(where: Where): Promise<Row | null>;
  find(where?: Where, opts?: FindOptions): Promise<Row[]>;
  count(where?: Where): Promise<number>;
  /**
   * Grouped figures in one statement (GROUP BY in the database), groups in ascending order of
   * their columns: `aggregate({ where, groupBy: ["status"], measures: { n: { count: true } } })`.
   * Sums come back as JS numbers: exact up to 2^53.
   */
  aggregate(query: AggregateQuery): Promise<AggregateRow[]>;
  /** Throws DuplicateRowError on a primary/unique key clash. */
  insert(row: Row): Promise<void>;
  /** Insert, or replace the non-key columns of the row with the same primary key. Durable when it returns. */
  upsert(row: Row): Promise<void>;
  /** Many upserts in one transaction (all or nothing). */
  upsertMany(rows: Row[]): Promise<void>;
  update(where: Where, values: Partial<Row>): Promise<number>;
  delete(where: Where): Promise<number>;
}

export interface TenantData {
  readonly tenantId: number;
  table<Row extends Record<string, unknown>>(name: string): TenantTable<Row>;
  /** Runs fn in one transaction; the TenantData it gets writes inside it. */
  transaction<T>(fn: (tx: TenantData) => Promise<T>): Promise<T>;
}

export interface PluginData {
  readonly dialect: "sqlite" | "mysql";
  forTenant(tenantId: number): TenantData;
  close(): Promise<void>;
}

/** Thrown by insert on a key clash. */
export class DuplicateRowError extends Error {
  constructor(readonly table: string) {
    super(`A row with the same key is already in ${table}`);
    this.name = "DuplicateRowError";
  }
}

/**
 * Where a plugin's own database is: what the host puts in the plugin's context
 * (PluginContext.database) and what openPluginDataAt takes. `url` is `sqlite:/abs/file.sqlite`
 * or `mysql://user:password@host:3306/database`; it may carry a password, so it stays in the
 * plugin's process (the context is a secure setting).
 */
export interface PluginDatabaseAddress {
  dialect: "sqlite" | "mysql";
  url: string;
  /** MySQL: connections in the pool (default 5). */
  poolMax?: number;
}
