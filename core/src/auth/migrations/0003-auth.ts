import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/** Owned by the auth service: login sessions and password-reset tokens. */
export const m0003: Migration = {
  name: "0003-auth",
  async up(qi) {
    await qi.createTable("sessions", {
      id: { type: DataTypes.STRING(36), primaryKey: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      refreshHash: { type: DataTypes.STRING(64), allowNull: false },
      ip: { type: DataTypes.STRING(64), allowNull: true },
      userAgent: { type: DataTypes.STRING(300), allowNull: true },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
      revokedReason: { type: DataTypes.STRING(32), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("sessions", ["userId", "revokedAt"], { name: "sessions_user_active" });
    await qi.addIndex("sessions", ["tenantId"], { name: "sessions_tenant" });

    await qi.createTable("password_resets", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      tokenHash: { type: DataTypes.STRING(64), allowNull: false },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      usedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("password_resets", ["tokenHash"], { unique: true, name: "password_resets_token" });
    await qi.addIndex("password_resets", ["userId"], { name: "password_resets_user" });
    await qi.addIndex("password_resets", ["tenantId", "createdAt"], { name: "password_resets_tenant" });
  },
  async down(qi) {
    await qi.dropTable("password_resets");
    await qi.dropTable("sessions");
  },
};
