/**
 * The installation's identity: one id generated once by migration 0015-installation and kept
 * in its database's `installation` table (owned by the system domain). The Redis key prefix
 * (lib/redis.ts installationPrefix) is made of it, so two installations sharing one Redis keep
 * apart.
 */
import { QueryTypes, type Sequelize } from "sequelize";

/** The installation's id, as its database stores it. */
export async function readInstallationId(sequelize: Sequelize): Promise<string> {
  const rows = (await sequelize.query("SELECT id FROM installation", { type: QueryTypes.SELECT })) as Array<{ id: string }>;
  if (rows.length !== 1 || !rows[0]!.id) throw new Error(`the installation table must hold exactly one id (it holds ${rows.length}); it is written by migration 0015-installation`);
  return rows[0]!.id;
}
