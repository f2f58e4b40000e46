import { DataTypes, Model, Sequelize } from "sequelize";

/** A contact a plugin claimed on a connection (table inbound_claims, migration 0021). */
export interface InboundClaimRow {
  id: number;
  tenantId: number;
  contactId: number;
  connectionId: number;
  pluginId: string;
  ref: string;
  ticketId: number | null;
  /** Epoch ms, by the core's clock. */
  expiresAt: number;
  createdAt?: Date;
  updatedAt?: Date;
}

export class InboundClaimModel extends Model<InboundClaimRow, Partial<InboundClaimRow>> {}

export function defineHooksModels(sequelize: Sequelize) {
  if (!sequelize.models.InboundClaim) {
    InboundClaimModel.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        contactId: { type: DataTypes.INTEGER, allowNull: false },
        connectionId: { type: DataTypes.INTEGER, allowNull: false },
        pluginId: { type: DataTypes.STRING(64), allowNull: false },
        ref: { type: DataTypes.STRING(64), allowNull: false },
        ticketId: { type: DataTypes.INTEGER, allowNull: true },
        expiresAt: { type: DataTypes.BIGINT, allowNull: false, get() { return Number(this.getDataValue("expiresAt")); } },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "InboundClaim", tableName: "inbound_claims" },
    );
  }
  return { InboundClaim: sequelize.models.InboundClaim as typeof InboundClaimModel };
}
