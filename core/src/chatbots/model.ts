import { DataTypes, Model, Sequelize } from "sequelize";
import type { ChatbotScope } from "@openatende/plugin-sdk";

/** A connection or queue of a tenant bound to a plugin's bot (table chatbot_bindings, migration 0019). */
export interface ChatbotBindingRow {
  id: number;
  tenantId: number;
  scope: ChatbotScope;
  targetId: number;
  pluginId: string;
  ref: string;
  createdAt?: Date;
  updatedAt?: Date;
}

export class ChatbotBindingModel extends Model<ChatbotBindingRow, Partial<ChatbotBindingRow>> {}

export function defineChatbotModels(sequelize: Sequelize) {
  if (!sequelize.models.ChatbotBinding) {
    ChatbotBindingModel.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        scope: { type: DataTypes.STRING(12), allowNull: false },
        targetId: { type: DataTypes.INTEGER, allowNull: false },
        pluginId: { type: DataTypes.STRING(64), allowNull: false },
        ref: { type: DataTypes.STRING(64), allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "ChatbotBinding", tableName: "chatbot_bindings" },
    );
  }
  return { ChatbotBinding: sequelize.models.ChatbotBinding as typeof ChatbotBindingModel };
}
