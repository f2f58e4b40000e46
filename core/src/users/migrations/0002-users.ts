import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/** Owned by the users service (users and their queue memberships). */
export const m0002: Migration = {
  name: "0002-users",
  async up(qi) {
    await qi.createTable("users", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false, references: { model: "tenants", key: "id" }, onDelete: "CASCADE" },
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
      configs: { type: DataTypes.TEXT, allowNull: true },
      limitLoginHours: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      loginHours: { type: DataTypes.TEXT, allowNull: true },
      lgpdAccepted: { type: DataTypes.BOOLEAN, allowNull: true },
      lgpdAcceptedAt: { type: DataTypes.DATE, allowNull: true },
      lastLoginAt: { type: DataTypes.DATE, allowNull: true },
      deletedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    // Login is by e-mail or phone without a tenant, so both are unique platform-wide.
    await qi.addIndex("users", ["email"], { unique: true, name: "users_email_unique" });
    await qi.addIndex("users", ["phoneNumber"], { unique: true, name: "users_phone_unique" });
    await qi.addIndex("users", ["tenantId", "deletedAt", "name"], { name: "users_tenant_list" });
    await qi.addIndex("users", ["tenantId", "profile"], { name: "users_tenant_profile" });

    await qi.createTable("user_queues", {
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
      queueId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("user_queues", ["tenantId", "queueId"], { name: "user_queues_tenant_queue" });
  },
  async down(qi) {
    await qi.dropTable("user_queues");
    await qi.dropTable("users");
  },
};
