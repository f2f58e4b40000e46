import { Sequelize, WhereOptions } from "sequelize";

/**
 * Case-insensitive "contains" that treats every character literally (no LIKE wildcards, no
 * escape-character differences between SQLite and MariaDB): INSTR(LOWER(col), LOWER(?)) > 0.
 */
export function containsCI(column: string, value: string): WhereOptions {
  return Sequelize.where(Sequelize.fn("INSTR", Sequelize.fn("LOWER", Sequelize.col(column)), value.toLowerCase()), ">", 0);
}
