import { DataTypes, ModelAttributeColumnOptions } from "sequelize";

/**
 * A JSON value stored as TEXT, the same on SQLite and on MariaDB (whose JSON type is a
 * LONGTEXT alias the mysql2 driver hands back as a string).
 */
export function jsonColumn<T>(field: string, fallback: T): ModelAttributeColumnOptions {
  return {
    type: DataTypes.TEXT,
    allowNull: true,
    get(this: { getDataValue(k: string): unknown }) {
      const raw = this.getDataValue(field);
      if (raw === null || raw === undefined || raw === "") return structuredClone(fallback);
      if (typeof raw !== "string") return raw;
      try {
        return JSON.parse(raw) as T;
      } catch {
        return structuredClone(fallback);
      }
    },
    set(this: { setDataValue(k: string, v: unknown): void }, value: unknown) {
      this.setDataValue(field, value === undefined || value === null ? null : JSON.stringify(value));
    },
  };
}
