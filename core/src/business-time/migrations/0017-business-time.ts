import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * Business time (core/src/business-time): schedules by tenant and target, holidays, and the
 * users' availability. Targets and days are JSON (a schedule is read whole, and a tenant has
 * a handful); the lists a question needs are one indexed read per tenant.
 *
 * - business_hours: one row per schedule; type global appears once per tenant (the service
 *   keeps it so: `globalKey` is the tenant id for the global row and NULL otherwise, unique).
 * - holidays: (tenantId, date) indexed; `yearly` ones match on month and day.
 * - user_availability: one row per user (unique), days as JSON.
 */
export const m0017: Migration = {
  name: "0017-business-time",
  async up(qi) {
    await qi.createTable("business_hours", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      name: { type: DataTypes.STRING(120), allowNull: false, defaultValue: "" },
      type: { type: DataTypes.STRING(12), allowNull: false },
      globalKey: { type: DataTypes.INTEGER, allowNull: true },
      targetIds: { type: DataTypes.TEXT, allowNull: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      days: { type: DataTypes.TEXT, allowNull: false },
      messages: { type: DataTypes.TEXT, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("business_hours", ["tenantId", "type"], { name: "business_hours_tenant" });
    await qi.addIndex("business_hours", ["globalKey"], { unique: true, name: "business_hours_global" });

    await qi.createTable("holidays", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      date: { type: DataTypes.STRING(10), allowNull: false },
      description: { type: DataTypes.STRING(200), allowNull: false },
      type: { type: DataTypes.STRING(12), allowNull: false },
      targetIds: { type: DataTypes.TEXT, allowNull: false },
      yearly: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      message: { type: DataTypes.TEXT, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("holidays", ["tenantId", "date"], { name: "holidays_tenant_date" });

    await qi.createTable("user_availability", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      userId: { type: DataTypes.INTEGER, allowNull: false },
      days: { type: DataTypes.TEXT, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("user_availability", ["tenantId", "userId"], { unique: true, name: "user_availability_user" });
  },
  async down(qi) {
    await qi.dropTable("user_availability");
    await qi.dropTable("holidays");
    await qi.dropTable("business_hours");
  },
};
