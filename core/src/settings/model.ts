import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";

export class Setting extends Model<{ id?: number; tenantId: number; key: string; value: unknown }> {}

export function defineSetting(sequelize: Sequelize): typeof Setting {
  if (!sequelize.models.Setting) {
    Setting.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        key: { type: DataTypes.STRING(100), allowNull: false },
        value: jsonColumn<unknown>("value", null),
      },
      { sequelize, modelName: "Setting", tableName: "settings" },
    );
  }
  return sequelize.models.Setting as typeof Setting;
}
