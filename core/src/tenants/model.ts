import { DataTypes, Model, Sequelize } from "sequelize";
import type { TenantRow } from "./contract";

export class Tenant extends Model<TenantRow, Partial<TenantRow>> {}

export function defineTenant(sequelize: Sequelize): typeof Tenant {
  if (sequelize.models.Tenant) return sequelize.models.Tenant as typeof Tenant;
  Tenant.init(
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.STRING(120), allowNull: false },
      status: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "active" },
      document: { type: DataTypes.STRING(14), allowNull: true },
      resellerId: { type: DataTypes.INTEGER, allowNull: true },
      maxUsers: { type: DataTypes.INTEGER, allowNull: true },
      maxConnections: { type: DataTypes.INTEGER, allowNull: true },
      licenseToken: { type: DataTypes.TEXT, allowNull: true },
      timezone: { type: DataTypes.STRING(64), allowNull: false, defaultValue: "America/Sao_Paulo" },
      termsAccepted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      termsAcceptedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, modelName: "Tenant", tableName: "tenants" },
  );
  return Tenant;
}
