import { Sequelize, WhereOptions } from "sequelize";

/**
 * A search term as the database can take it, whatever a client sent. Sequelize writes the
 * values of `fn`/`where` into the SQL text (it binds nothing in a SELECT), and SQLite's driver
 * reads that text up to its first NUL: `searchParam=%00` cut the statement inside its literal
 * and answered 500. No name, e-mail or key we search holds a NUL, so NULs are dropped (the
 * rest of the term still counts). Lone surrogates (from `%ED%A0%80` or a broken client) become
 * U+FFFD, which is what both drivers store for them, so the same text is looked for on both.
 */
export function searchText(value: string): string {
  return value.replace(/\0/g, "").replace(LONE_SURROGATE, "\uFFFD");
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Case-insensitive "contains" that treats every character literally (no LIKE wildcards, no
 * escape-character differences between SQLite and MariaDB): INSTR(LOWER(col), LOWER(?)) > 0.
 */
export function containsCI(column: string, value: string): WhereOptions {
  return Sequelize.where(Sequelize.fn("INSTR", Sequelize.fn("LOWER", Sequelize.col(column)), searchText(value).toLowerCase()), ">", 0);
}

/** A literal, case-sensitive prefix: SUBSTR(col, 1, n) = ? (no LIKE wildcards to escape, the same on SQLite and MariaDB). */
export function startsWith(column: string, value: string): WhereOptions {
  const prefix = searchText(value);
  return Sequelize.where(Sequelize.fn("SUBSTR", Sequelize.col(column), 1, [...prefix].length), prefix);
}
