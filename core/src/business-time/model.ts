import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";
import type { Availability, BusinessHoursType, BusinessTimeMessages, DayHours } from "./types";

/** A schedule as stored (table business_hours, migration 0017). */
export interface BusinessHoursRow {
  id: number;
  tenantId: number;
  name: string;
  type: BusinessHoursType;
  /** The tenant's id on its one global row, null on the others (unique: one global row per tenant). */
  globalKey: number | null;
  targetIds: number[];
  active: boolean;
  days: DayHours[];
  messages: BusinessTimeMessages;
  createdAt?: Date;
  updatedAt?: Date;
}

export interface HolidayRow {
  id: number;
  tenantId: number;
  date: string;
  description: string;
  type: BusinessHoursType;
  targetIds: number[];
  yearly: boolean;
  message: string | null;
  createdAt?: Date;
  updatedAt?: Date;
}

export interface UserAvailabilityRow {
  id: number;
  tenantId: number;
  userId: number;
  days: Availability;
  createdAt?: Date;
  updatedAt?: Date;
}

export class BusinessHoursModel extends Model<BusinessHoursRow, Partial<BusinessHoursRow>> {}
export class HolidayModel extends Model<HolidayRow, Partial<HolidayRow>> {}
export class UserAvailabilityModel extends Model<UserAvailabilityRow, Partial<UserAvailabilityRow>> {}

export interface BusinessTimeModels {
  BusinessHours: typeof BusinessHoursModel;
  Holiday: typeof HolidayModel;
  UserAvailability: typeof UserAvailabilityModel;
}

/** The three tables of business time; targets, days and messages are JSON text (db/json-column.ts). */
export function defineBusinessTimeModels(sequelize: Sequelize): BusinessTimeModels {
  if (!sequelize.models.BusinessHours) {
    BusinessHoursModel.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(120), allowNull: false, defaultValue: "" },
        type: { type: DataTypes.STRING(12), allowNull: false },
        globalKey: { type: DataTypes.INTEGER, allowNull: true },
        targetIds: { ...jsonColumn<number[]>("targetIds", []), allowNull: false },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        days: { ...jsonColumn<DayHours[]>("days", []), allowNull: false },
        messages: { ...jsonColumn<BusinessTimeMessages>("messages", {}), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "BusinessHours", tableName: "business_hours" },
    );
    HolidayModel.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        date: { type: DataTypes.STRING(10), allowNull: false },
        description: { type: DataTypes.STRING(200), allowNull: false },
        type: { type: DataTypes.STRING(12), allowNull: false },
        targetIds: { ...jsonColumn<number[]>("targetIds", []), allowNull: false },
        yearly: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        message: { type: DataTypes.TEXT, allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Holiday", tableName: "holidays" },
    );
    UserAvailabilityModel.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: false },
        days: { ...jsonColumn<Availability>("days", []), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "UserAvailability", tableName: "user_availability" },
    );
  }
  return {
    BusinessHours: sequelize.models.BusinessHours as typeof BusinessHoursModel,
    Holiday: sequelize.models.Holiday as typeof HolidayModel,
    UserAvailability: sequelize.models.UserAvailability as typeof UserAvailabilityModel,
  };
}
