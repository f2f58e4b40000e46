import type { Sequelize, Transaction } from "sequelize";

/**
 * Row locks that serialise work on another service's row: the only statements of the core
 * allowed to name a table its caller does not own. They read no data; they make concurrent
 * transactions of one tenant (or one user) queue behind each other, so a check and the write
 * it guards cannot interleave.
 *
 * - `lockTenantRow`: plan limits (users, queues, connections, contacts). Two admins racing
 *   for the last seat, or two imports for the last contacts, would both pass the count
 *   without it.
 * - `lockUserRow`: one user's logins. Without it two logins of one user take the same gap
 *   lock on MariaDB and deadlock on their inserts (answering 500).
 *
 * Only MariaDB/MySQL needs them: SQLite runs one write transaction at a time. Always inside
 * the transaction whose writes they guard (the lock ends with it).
 */
export async function lockTenantRow(sequelize: Sequelize, tenantId: number, transaction: Transaction): Promise<void> {
  if (sequelize.getDialect() !== "mysql") return;
  await sequelize.query("SELECT id FROM tenants WHERE id = ? FOR UPDATE", { replacements: [tenantId], transaction });
}

/** See lockTenantRow: the same, on one user's row. */
export async function lockUserRow(sequelize: Sequelize, userId: number, transaction: Transaction): Promise<void> {
  if (sequelize.getDialect() !== "mysql") return;
  await sequelize.query("SELECT id FROM users WHERE id = ? FOR UPDATE", { replacements: [userId], transaction });
}
