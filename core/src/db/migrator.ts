import { QueryInterface, Sequelize } from "sequelize";
import { Umzug, SequelizeStorage } from "umzug";
import { MIGRATIONS } from "./migrations";
import type { Migration } from "./migration";

export interface MigrateResult {
  applied: string[];
}

/**
 * The installation's migrations: the core's ordered list, then each service package's (see
 * ../service-packages.ts) in the order the application names them. A package's tables may
 * refer to the core's, never the other way round, so the core's come first. All share one
 * history table (schema_migrations), so a name may appear once.
 */
export function collectMigrations(packages: ReadonlyArray<{ group: string; migrations: Migration[] }> = []): Migration[] {
  const all = [...MIGRATIONS];
  const seen = new Map(all.map((m) => [m.name, "core"]));
  for (const p of packages) {
    for (const m of p.migrations) {
      const owner = seen.get(m.name);
      if (owner) throw new Error(`migration ${m.name} of ${p.group} has the name of one of ${owner}`);
      seen.set(m.name, p.group);
      all.push(m);
    }
  }
  return all;
}

function createUmzug(sequelize: Sequelize, migrations: Migration[]) {
  return new Umzug({
    migrations: migrations.map((m) => ({
      name: m.name,
      up: ({ context }: { context: QueryInterface }) => m.up(context),
      down: ({ context }: { context: QueryInterface }) => m.down(context),
    })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: "schema_migrations" }),
    logger: undefined,
  });
}

/**
 * Applies pending migrations (the core's alone unless given the installation's, see
 * collectMigrations). On MariaDB several nodes may start at once, so the run holds a named
 * lock; SQLite is single-process by design.
 */
export async function migrate(sequelize: Sequelize, migrations: Migration[] = MIGRATIONS): Promise<MigrateResult> {
  const umzug = createUmzug(sequelize, migrations);
  if (sequelize.getDialect() === "mysql") {
    // GET_LOCK belongs to one connection: a transaction pins one for the lock's lifetime.
    const holder = await sequelize.transaction();
    try {
      const [rows] = (await sequelize.query("SELECT GET_LOCK('openatende_migrate', 120) AS l", { transaction: holder })) as [
        Array<{ l: number }>,
        unknown,
      ];
      if (!rows[0] || Number(rows[0].l) !== 1) throw new Error("Could not take the migration lock within 120 s");
      try {
        const done = await umzug.up();
        return { applied: done.map((d) => d.name) };
      } finally {
        await sequelize.query("SELECT RELEASE_LOCK('openatende_migrate')", { transaction: holder });
      }
    } finally {
      await holder.commit();
    }
  }
  const done = await umzug.up();
  return { applied: done.map((d) => d.name) };
}

export async function rollbackAll(sequelize: Sequelize, migrations: Migration[] = MIGRATIONS): Promise<void> {
  await createUmzug(sequelize, migrations).down({ to: 0 });
}

export async function pendingMigrations(sequelize: Sequelize, migrations: Migration[] = MIGRATIONS): Promise<string[]> {
  return (await createUmzug(sequelize, migrations).pending()).map((m) => m.name);
}
