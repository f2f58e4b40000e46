/**
 * The SQL both engines share and where they differ: identifiers (checked, then quoted), column
 * types, and values on their way in and out. Every value goes to the driver as a bound
 * parameter; only checked identifiers and the host's own literals are written into the SQL.
 */
import type { ColumnDef, ColumnType } from "./contract";
import { PluginDataError } from "./errors";

export type Dialect = "sqlite" | "mysql";

/** The column every table gets first, filled in by the tenant scope. */
export const TENANT_COLUMN = "tenantId";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** MySQL's limit for table, column and index names. */
const MAX_IDENTIFIER = 64;

export const COLUMN_TYPES: readonly ColumnType[] = ["string", "text", "integer", "bigint", "boolean", "json", "datetime", "blob"];
/** Types an index (or a primary key) cannot hold on MySQL without a prefix length: refused on both engines alike. */
export const UNINDEXABLE: readonly ColumnType[] = ["text", "json", "blob"];

export const DEFAULT_STRING_LENGTH = 191;
const MAX_STRING_LENGTH = 16_383;

/** Throws unless `name` is a plain identifier; `what` names it in the error ("table", "column", …). */
export function checkIdentifier(name: unknown, what: string): string {
  // "__proto__" would reach an object's prototype where names are keys.
  if (typeof name !== "string" || !IDENTIFIER.test(name) || name.length > MAX_IDENTIFIER || name === "__proto__") {
    throw new PluginDataError("ERR_PLUGIN_DATA_IDENTIFIER", `${what} name ${JSON.stringify(name)} is not allowed: use letters, digits and _ (not first a digit), at most ${MAX_IDENTIFIER} characters`, { what, name });
  }
  return name;
}

/** A plugin's table name: an identifier that does not start with "_" (the host's own tables do). */
export function checkTableName(name: unknown): string {
  checkIdentifier(name, "table");
  if ((name as string).startsWith("_")) {
    throw new PluginDataError("ERR_PLUGIN_DATA_IDENTIFIER", `table name ${JSON.stringify(name)} is not allowed: names starting with "_" belong to the host`, { what: "table", name });
  }
  return name as string;
}

/** A plugin's column name: an identifier other than tenantId (the scope's). */
export function checkColumnName(name: unknown): string {
  checkIdentifier(name, "column");
  if ((name as string).toLowerCase() === TENANT_COLUMN.toLowerCase()) {
    throw new PluginDataError("ERR_PLUGIN_DATA_IDENTIFIER", `column ${TENANT_COLUMN} is the tenant scope's: a plugin never names it`, { what: "column", name });
  }
  return name as string;
}

/** A checked identifier, quoted for the dialect. */
export function q(dialect: Dialect, name: string): string {
  checkIdentifier(name, "identifier");
  return dialect === "mysql" ? `\`${name}\`` : `"${name}"`;
}

/** Checks a column definition; answers it with its defaults filled in. */
export function normaliseColumn(table: string, name: string, def: ColumnDef): ColumnDef {
  checkColumnName(name);
  if (!def || typeof def !== "object" || !COLUMN_TYPES.includes(def.type)) {
    throw new PluginDataError("ERR_PLUGIN_DATA_SCHEMA", `${table}.${name}: type must be one of ${COLUMN_TYPES.join(", ")}`, { table, column: name });
  }
  const out: ColumnDef = { type: def.type, nullable: def.nullable === true };
  if (def.type === "string") {
    const length = def.length ?? DEFAULT_STRING_LENGTH;
    if (!Number.isInteger(length) || length < 1 || length > MAX_STRING_LENGTH) {
      throw new PluginDataError("ERR_PLUGIN_DATA_SCHEMA", `${table}.${name}: length must be an integer from 1 to ${MAX_STRING_LENGTH}`, { table, column: name });
    }
    out.length = length;
  }
  if (def.default !== undefined) {
    if (def.default !== null && !["string", "number", "boolean"].includes(typeof def.default)) {
      throw new PluginDataError("ERR_PLUGIN_DATA_SCHEMA", `${table}.${name}: default must be a string, number, boolean or null`, { table, column: name });
    }
    if (def.default === null && !out.nullable) throw new PluginDataError("ERR_PLUGIN_DATA_SCHEMA", `${table}.${name}: a NOT NULL column cannot default to null`, { table, column: name });
    encodeValue(table, name, out, def.default);
    out.default = def.default;
  }
  return out;
}

function sqlType(dialect: Dialect, def: ColumnDef): string {
  const mysql: Record<ColumnType, string> = {
    string: `VARCHAR(${def.length ?? DEFAULT_STRING_LENGTH})`,
    text: "LONGTEXT",
    integer: "INT",
    bigint: "BIGINT",
    boolean: "TINYINT(1)",
    json: "LONGTEXT",
    datetime: "DATETIME(3)",
    blob: "LONGBLOB",
  };
  const sqlite: Record<ColumnType, string> = {
    string: `VARCHAR(${def.length ?? DEFAULT_STRING_LENGTH})`,
    text: "TEXT",
    integer: "INTEGER",
    bigint: "INTEGER",
    boolean: "INTEGER",
    json: "TEXT",
    datetime: "TEXT",
    blob: "BLOB",
  };
  return (dialect === "mysql" ? mysql : sqlite)[def.type];
}

/** A literal of the host's making (a checked default): strings escaped, the rest as numbers. */
function literal(value: string | number | bigint | Buffer | null): string {
  if (value === null) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (Buffer.isBuffer(value)) return `X'${value.toString("hex")}'`;
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** `name TYPE [NOT] NULL [DEFAULT …]` for CREATE TABLE and ADD COLUMN. */
export function columnSql(dialect: Dialect, table: string, name: string, def: ColumnDef): string {
  let sql = `${q(dialect, name)} ${sqlType(dialect, def)} ${def.nullable ? "NULL" : "NOT NULL"}`;
  if (def.default !== undefined) {
    const v = encodeValue(table, name, def, def.default, dialect) as string | number | null;
    // SQLite keeps backslashes as they are; MySQL reads them as escapes.
    sql += ` DEFAULT ${dialect === "sqlite" && typeof v === "string" ? `'${v.replace(/'/g, "''")}'` : literal(v)}`;
  }
  return sql;
}

export function tenantColumnSql(dialect: Dialect): string {
  return `${q(dialect, TENANT_COLUMN)} ${dialect === "mysql" ? "INT" : "INTEGER"} NOT NULL`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** "YYYY-MM-DD HH:MM:SS.mmm" in UTC: MySQL's DATETIME(3) text. */
function mysqlDatetime(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${pad(d.getUTCMilliseconds(), 3)}`;
}

function valueError(table: string, column: string, expected: string, value: unknown): PluginDataError {
  const got = value === null ? "null" : Buffer.isBuffer(value) ? "a Buffer" : Array.isArray(value) ? "an array" : typeof value;
  return new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${table}.${column} takes ${expected}, not ${got}`, { table, column });
}

/**
 * A JS value as the driver binds it for this column. `dialect` matters only for datetimes
 * (ISO text on SQLite, sorted like the instants; DATETIME(3) in UTC on MySQL).
 */
export function encodeValue(table: string, column: string, def: ColumnDef, value: unknown, dialect: Dialect = "sqlite"): string | number | Buffer | null {
  if (value === null || value === undefined) {
    if (!def.nullable) throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${table}.${column} cannot be null`, { table, column });
    return null;
  }
  switch (def.type) {
    case "string":
      if (typeof value !== "string") throw valueError(table, column, "a string", value);
      // MySQL counts characters and refuses more; SQLite would keep them: refused on both.
      if (value.length > (def.length ?? DEFAULT_STRING_LENGTH) && [...value].length > (def.length ?? DEFAULT_STRING_LENGTH)) {
        throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${table}.${column} takes at most ${def.length ?? DEFAULT_STRING_LENGTH} characters`, { table, column });
      }
      return value;
    case "text":
      if (typeof value !== "string") throw valueError(table, column, "a string", value);
      return value;
    case "integer":
      if (typeof value !== "number" || !Number.isInteger(value)) throw valueError(table, column, "an integer", value);
      return value;
    case "bigint":
      if (typeof value === "number" && Number.isInteger(value)) return value;
      if (typeof value === "bigint") return value.toString();
      if (typeof value === "string" && /^-?\d{1,19}$/.test(value)) return value;
      throw valueError(table, column, "an integer (number, bigint or a string of digits)", value);
    case "boolean":
      if (typeof value === "boolean") return value ? 1 : 0;
      if (value === 0 || value === 1) return value;
      throw valueError(table, column, "a boolean", value);
    case "json": {
      let text: string | undefined;
      try {
        text = JSON.stringify(value);
      } catch (err) {
        throw new PluginDataError("ERR_PLUGIN_DATA_VALUE", `${table}.${column} takes a JSON value: ${(err as Error).message}`, { table, column });
      }
      if (text === undefined) throw valueError(table, column, "a JSON value", value);
      return text;
    }
    case "datetime": {
      const d = value instanceof Date ? value : typeof value === "string" || typeof value === "number" ? new Date(value) : null;
      if (!d || Number.isNaN(d.getTime())) throw valueError(table, column, "a Date (or an ISO string or epoch ms)", value);
      return dialect === "mysql" ? mysqlDatetime(d) : d.toISOString();
    }
    case "blob":
      if (Buffer.isBuffer(value)) return value;
      if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      throw valueError(table, column, "a Buffer or Uint8Array", value);
  }
}

/** A value read from the driver, back to what the plugin wrote. */
export function decodeValue(def: ColumnDef, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  switch (def.type) {
    case "integer":
      return typeof raw === "number" ? raw : Number(raw);
    case "bigint": {
      if (typeof raw === "number") return raw;
      const n = Number(raw);
      // Beyond 2^53 a number would round: the digits are kept as a string.
      return Number.isSafeInteger(n) ? n : String(raw);
    }
    case "boolean":
      return Number(raw) !== 0;
    case "json":
      return JSON.parse(Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw));
    case "datetime": {
      if (raw instanceof Date) return raw;
      const s = String(raw);
      // MySQL's text has no zone (it is UTC here); SQLite's is ISO with its Z.
      return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s.replace(" ", "T")}Z`);
    }
    case "blob":
      return Buffer.isBuffer(raw) ? raw : Buffer.from(raw as Uint8Array);
    default:
      return Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw);
  }
}
