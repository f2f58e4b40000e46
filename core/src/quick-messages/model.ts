import { DataTypes, Model, Sequelize } from "sequelize";

export type QuickMessageScope = "global" | "queue" | "personal";

export interface QuickMessageRow {
  id: number;
  tenantId: number;
  key: string;
  message: string;
  scope: QuickMessageScope;
  userId: number | null;
  scopeKey: string;
  createdAt?: Date;
  updatedAt?: Date;
}
export class QuickMessage extends Model<QuickMessageRow, Partial<QuickMessageRow>> {}
export class QuickMessageQueue extends Model<{ tenantId: number; quickMessageId: number; queueId: number; createdAt?: Date }> {}

export function defineModels(sequelize: Sequelize) {
  if (!sequelize.models.QuickMessage) {
    QuickMessage.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        key: { type: DataTypes.STRING(100), allowNull: false },
        message: { type: DataTypes.TEXT, allowNull: false },
        scope: { type: DataTypes.STRING(16), allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        scopeKey: { type: DataTypes.STRING(40), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "QuickMessage", tableName: "quick_messages" },
    );
    QuickMessageQueue.init(
      {
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        quickMessageId: { type: DataTypes.INTEGER, primaryKey: true },
        queueId: { type: DataTypes.INTEGER, primaryKey: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "QuickMessageQueue", tableName: "quick_message_queues", updatedAt: false },
    );
  }
  return {
    QuickMessage: sequelize.models.QuickMessage as typeof QuickMessage,
    QuickMessageQueue: sequelize.models.QuickMessageQueue as typeof QuickMessageQueue,
  };
}
