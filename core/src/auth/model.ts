import { DataTypes, Model, Sequelize } from "sequelize";

export interface SessionRow {
  id: string;
  tenantId: number;
  userId: number;
  refreshHash: string;
  ip: string | null;
  userAgent: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedReason: string | null;
  createdAt?: Date;
  updatedAt?: Date;
}
export class Session extends Model<SessionRow, Partial<SessionRow>> {}

export interface ResetRow {
  id: number;
  tenantId: number;
  userId: number;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
}
export class PasswordReset extends Model<ResetRow, Partial<ResetRow>> {}

export function defineAuthModels(sequelize: Sequelize) {
  if (!sequelize.models.Session) {
    Session.init(
      {
        id: { type: DataTypes.STRING(36), primaryKey: true },
        tenantId: DataTypes.INTEGER,
        userId: DataTypes.INTEGER,
        refreshHash: DataTypes.STRING(64),
        ip: DataTypes.STRING(64),
        userAgent: DataTypes.STRING(300),
        expiresAt: DataTypes.DATE,
        revokedAt: DataTypes.DATE,
        revokedReason: DataTypes.STRING(32),
      },
      { sequelize, modelName: "Session", tableName: "sessions" },
    );
    PasswordReset.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: DataTypes.INTEGER,
        userId: DataTypes.INTEGER,
        tokenHash: DataTypes.STRING(64),
        expiresAt: DataTypes.DATE,
        usedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "PasswordReset", tableName: "password_resets" },
    );
  }
  return { Session: sequelize.models.Session as typeof Session, PasswordReset: sequelize.models.PasswordReset as typeof PasswordReset };
}
