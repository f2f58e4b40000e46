import { Sequelize, QueryTypes, UniqueConstraintError, DatabaseError } from "sequelize";

/**
 * A date as Sequelize writes a DATE column, for statements that bind their values:
 * "YYYY-MM-DD HH:mm:ss" in UTC on MariaDB (DATETIME keeps no fraction), with milliseconds and
 * the offset on SQLite.
 */
export function sqlDateTime(sequelize: Sequelize, d: Date): string {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:mm:ss.SSSZ
  return sequelize.getDialect() === "mysql" ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
}

export interface HotResult<T> {
  rows: T[];
  affectedRows: number;
  insertId: number;
}

interface MysqlConnection {
  execute(sql: string, values: unknown[], cb: (err: (Error & { errno?: number; code?: string }) | null, result: unknown) => void): unknown;
}

const DEADLOCK = 1213;
const DUPLICATE = 1062;

/**
 * One statement of a hot path (every inbound message runs a few): `?` placeholders, values
 * bound. On MariaDB it runs straight on a connection of Sequelize's own pool as a prepared
 * statement, without Sequelize's per-query work (options, hooks, a stack capture, a uuid…),
 * logged through Sequelize's `logging` like any other statement; a duplicate key is a
 * UniqueConstraintError and a deadlock is retried, as Sequelize does. On SQLite it is an
 * ordinary `sequelize.query`.
 */
export async function hotQuery<T = Record<string, unknown>>(sequelize: Sequelize, kind: "select" | "write", sql: string, values: unknown[]): Promise<HotResult<T>> {
  if (sequelize.getDialect() !== "mysql") {
    let n = 0;
    const bound = sql.replace(/\?/g, () => `$${++n}`);
    if (kind === "select") {
      const rows = (await sequelize.query(bound, { bind: values, type: QueryTypes.SELECT })) as T[];
      return { rows, affectedRows: 0, insertId: 0 };
    }
    const type = /^\s*insert/i.test(sql) ? QueryTypes.INSERT : QueryTypes.UPDATE;
    const [id, affected] = (await sequelize.query(bound, { bind: values, type })) as unknown as [unknown, number];
    return { rows: [], affectedRows: Number(affected ?? 0), insertId: type === QueryTypes.INSERT ? Number(id) : 0 };
  }
  const log = (sequelize as unknown as { options: { logging?: unknown } }).options.logging;
  for (let attempt = 1; ; attempt++) {
    const conn = (await sequelize.connectionManager.getConnection({ type: kind === "select" ? "SELECT" : "INSERT" } as never)) as unknown as MysqlConnection;
    try {
      // Counted and shown like Sequelize's own statements (its `logging` option).
      if (log === true) console.log(`Executing (default): ${sql}`);
      else if (typeof log === "function") log(`Executing (default): ${sql}`, { type: kind === "select" ? QueryTypes.SELECT : QueryTypes.RAW, bind: values, raw: true, logging: log });
      const result = await new Promise<unknown>((resolve, reject) => conn.execute(sql, values, (err, res) => (err ? reject(err) : resolve(res))));
      if (Array.isArray(result)) return { rows: result as T[], affectedRows: 0, insertId: 0 };
      const h = result as { affectedRows?: number; insertId?: number };
      return { rows: [], affectedRows: Number(h.affectedRows ?? 0), insertId: Number(h.insertId ?? 0) };
    } catch (err) {
      const e = err as Error & { errno?: number; sql?: string };
      e.sql = sql;
      if (e.errno === DEADLOCK && attempt < 10) {
        await new Promise((r) => setTimeout(r, 5 * attempt));
        continue;
      }
      if (e.errno === DUPLICATE) throw new UniqueConstraintError({ message: e.message, parent: e, sql } as never);
      throw new DatabaseError(e as never);
    } finally {
      sequelize.connectionManager.releaseConnection(conn as never);
    }
  }
}
