/** A plugin's own data (see contract.ts): what the SDK exports of it. */
export * from "./contract";
export { PluginDataError, PluginMigrationError } from "./errors";
export type { PluginDataErrorCode } from "./errors";
export { openPluginData } from "./service";
export { ensurePluginDatabase, dropPluginDatabase } from "./database";
export { runPluginMigrations, appliedPluginMigrations, migrationLockName } from "./migrate";
export type { RunMigrationsOptions, MigrationsRun, AppliedMigration } from "./migrate";
export { PLUGIN_MIGRATIONS_DIR, pluginMigrationFiles, hasPluginMigrations, loadMigrationFile, loadPluginMigrations } from "./folder";
export { openPluginDataAt } from "./open";
export { testPluginDatabase } from "./testing";
export type { TestPluginDatabase } from "./testing";
