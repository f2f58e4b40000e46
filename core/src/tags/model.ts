import { DataTypes, Model, Sequelize } from "sequelize";

export interface TagRow {
  id: number;
  tenantId: number;
  name: string;
  color: string;
  active: boolean;
  createdAt?: Date;
  updatedAt?: Date;
}
export class Tag extends Model<TagRow, Partial<TagRow>> {}

export function defineTag(sequelize: Sequelize): typeof Tag {
  if (!sequelize.models.Tag) {
    Tag.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        color: { type: DataTypes.STRING(7), allowNull: false },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Tag", tableName: "tags" },
    );
  }
  return sequelize.models.Tag as typeof Tag;
}
