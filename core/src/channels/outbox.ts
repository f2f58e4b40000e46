/**
 * The durable outbox of agents' messages whose channel plugin is away (message_outbox, owned
 * by the outbox service): the model. Which failures of a send mean "away, try again when it is
 * back" is in outbox-contract.ts, where the services that send read it.
 */
import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";
import type { OutboxOp, OutboxPayload } from "./outbox-contract";

export { OUTBOX_OPS, isPluginAway, reasonOf, type OutboxOp, type OutboxPayload } from "./outbox-contract";


export interface OutboxRow {
  id: number;
  op: OutboxOp;
  tenantId: number;
  connectionId: number;
  ticketId: number;
  messageId: number;
  payload: OutboxPayload;
  attempts: number;
  lastError: string | null;
  createdAt?: Date;
  updatedAt?: Date;
}

export class OutboxEntry extends Model<OutboxRow, Partial<OutboxRow>> {}

export function defineOutbox(sequelize: Sequelize): typeof OutboxEntry {
  if (!sequelize.models.OutboxEntry) {
    const asNumber = (field: string) =>
      function (this: OutboxEntry) {
        return Number(this.getDataValue(field as keyof OutboxRow));
      };
    OutboxEntry.init(
      {
        id: { type: DataTypes.BIGINT, primaryKey: true, autoIncrement: true, get: asNumber("id") },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        connectionId: { type: DataTypes.INTEGER, allowNull: false },
        ticketId: { type: DataTypes.INTEGER, allowNull: false },
        messageId: { type: DataTypes.BIGINT, allowNull: false, get: asNumber("messageId") },
        op: { type: DataTypes.STRING(16), allowNull: false, defaultValue: "send" },
        payload: jsonColumn<OutboxPayload | null>("payload", null),
        attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        lastError: { type: DataTypes.STRING(255), allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "OutboxEntry", tableName: "message_outbox" },
    );
  }
  return sequelize.models.OutboxEntry as typeof OutboxEntry;
}

