/** `npm run migrate`: applies pending migrations (the core's and its service packages') to DATABASE_URL and exits. */
import { getConfig } from "@openatende/config";
import { createSequelize, ensureDatabaseExists, prepareConnection } from "../db/sequelize";
import { collectMigrations, migrate } from "../db/migrator";
import { loadServicePackages } from "../service-packages";

async function main() {
  const config = getConfig();
  await ensureDatabaseExists(config);
  const sequelize = createSequelize(config);
  await prepareConnection(sequelize);
  const { applied } = await migrate(sequelize, collectMigrations(loadServicePackages(config.rootDir)));
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
  await sequelize.close();
}

main().catch((err) => {
  console.error("migration failed:", err instanceof Error ? err.message : err);
  process.exit(1);
});
