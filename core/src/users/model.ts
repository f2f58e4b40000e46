import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";
import type { LoginHours } from "../auth/login-hours";
import type { UserConfigs, UserRow } from "./contract";

export type { UserConfigs, UserRow };

export class User extends Model<UserRow, Partial<UserRow>> {}
export class UserQueue extends Model<{ tenantId: number; userId: number; queueId: number; createdAt?: Date }> {}

export function defineUserModels(sequelize: Sequelize): { User: typeof User; UserQueue: typeof UserQueue } {
  if (!sequelize.models.User) {
    User.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(120), allowNull: false },
        email: { type: DataTypes.STRING(190), allowNull: false },
        phoneNumber: { type: DataTypes.STRING(20), allowNull: true },
        passwordHash: { type: DataTypes.STRING(100), allowNull: false },
        profile: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "user" },
        isMaster: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        isSupport: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        isHidden: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "offline" },
        image: { type: DataTypes.STRING(500), allowNull: true },
        configs: jsonColumn<UserConfigs>("configs", {}),
        limitLoginHours: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        loginHours: jsonColumn<LoginHours>("loginHours", {}),
        lgpdAccepted: { type: DataTypes.BOOLEAN, allowNull: true },
        lgpdAcceptedAt: { type: DataTypes.DATE, allowNull: true },
        lastLoginAt: { type: DataTypes.DATE, allowNull: true },
        deletedAt: { type: DataTypes.DATE, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "User", tableName: "users" },
    );
    UserQueue.init(
      {
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, primaryKey: true },
        queueId: { type: DataTypes.INTEGER, primaryKey: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "UserQueue", tableName: "user_queues", updatedAt: false },
    );
  }
  return { User: sequelize.models.User as typeof User, UserQueue: sequelize.models.UserQueue as typeof UserQueue };
}
