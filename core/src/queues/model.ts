import { DataTypes, Model, Sequelize } from "sequelize";

export interface QueueRow {
  id: number;
  tenantId: number;
  name: string;
  active: boolean;
  createdAt?: Date;
  updatedAt?: Date;
}
export class Queue extends Model<QueueRow, Partial<QueueRow>> {}

export function defineQueue(sequelize: Sequelize): typeof Queue {
  if (!sequelize.models.Queue) {
    Queue.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Queue", tableName: "queues" },
    );
  }
  return sequelize.models.Queue as typeof Queue;
}
