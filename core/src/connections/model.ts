import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";
import type { ConnectionRow } from "./contract";

export type { ConnectionRow };

export class Connection extends Model<ConnectionRow, Partial<ConnectionRow>> {}

export function defineConnection(sequelize: Sequelize): typeof Connection {
  if (!sequelize.models.Connection) {
    Connection.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        type: { type: DataTypes.STRING(64), allowNull: false },
        status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "disconnected" },
        isDefault: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        greeting: { type: DataTypes.TEXT, allowNull: true },
        farewell: { type: DataTypes.TEXT, allowNull: true },
        token: { type: DataTypes.STRING(64), allowNull: false },
        queueId: { type: DataTypes.INTEGER, allowNull: true },
        settings: jsonColumn<Record<string, unknown>>("settings", {}),
        qrcode: { type: DataTypes.TEXT, allowNull: true },
        retries: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        statusDetail: { type: DataTypes.STRING(255), allowNull: true },
        pluginMajor: { type: DataTypes.INTEGER, allowNull: true },
        inactiveReason: { type: DataTypes.STRING(64), allowNull: true },
        resumeStatus: { type: DataTypes.STRING(16), allowNull: true },
        keepConnected: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Connection", tableName: "connections" },
    );
  }
  return sequelize.models.Connection as typeof Connection;
}
