/**
 * Errors of a plugin's own data besides DuplicateRowError (contract.ts). They are the plugin
 * author's mistakes (a bad table or column name, a value of the wrong type, a migration that
 * throws), reported with what was wrong and where, never a raw SQL error.
 */

export type PluginDataErrorCode =
  /** A table, column or index name outside [A-Za-z_][A-Za-z0-9_]* (≤ 64), or reserved. */
  | "ERR_PLUGIN_DATA_IDENTIFIER"
  /** A table no migration created. */
  | "ERR_PLUGIN_DATA_UNKNOWN_TABLE"
  /** A column the table does not have. */
  | "ERR_PLUGIN_DATA_UNKNOWN_COLUMN"
  /** A value of the wrong type for its column, or a required column left out. */
  | "ERR_PLUGIN_DATA_VALUE"
  /** A table, column or index definition that cannot be built. */
  | "ERR_PLUGIN_DATA_SCHEMA"
  /** The plugin has no database of its own (no migrations/ folder, or no platform context). */
  | "ERR_PLUGIN_DATA_UNAVAILABLE"
  /** A database address that cannot be used. */
  | "ERR_PLUGIN_DATA_URL"
  /** The data was closed (its service stopped). */
  | "ERR_PLUGIN_DATA_CLOSED";

export class PluginDataError extends Error {
  constructor(
    readonly code: PluginDataErrorCode,
    message: string,
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "PluginDataError";
  }
}

/** A migration that could not be loaded or that failed: the plugin does not start. */
export class PluginMigrationError extends Error {
  constructor(
    /** The migration's name, or its file when it could not be loaded. */
    readonly migration: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(`migration ${migration}: ${message}`);
    this.name = "PluginMigrationError";
  }
}
