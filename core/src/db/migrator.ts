import { QueryInterface, Sequelize } from "sequelize";
import { Umzug, SequelizeStorage } from "umzug";
import { MIGRATIONS } from "./migrations";

export interface MigrateResult {
  applied: string[];
}

function createUmzug(sequelize: Sequelize) {
  return new Umzug({
    migrations: MIGRATIONS.map((m) => ({
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
 * Applies pending migrations. On MariaDB several nodes may start at once, so the run holds a
 * named lock; SQLite is single-process by design.
 */
export async function migrate(sequelize: Sequelize): Promise<MigrateResult> {
  const umzug = createUmzug(sequelize);
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

export async function rollbackAll(sequelize: Sequelize): Promise<void> {
  await createUmzug(sequelize).down({ to: 0 });
}

export async function pendingMigrations(sequelize: Sequelize): Promise<string[]> {
  return (await createUmzug(sequelize).pending()).map((m) => m.name);
}
