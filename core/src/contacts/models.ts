import { DataTypes, Model, Sequelize } from "sequelize";
import { jsonColumn } from "../db/json-column";
import type { AdditionalInfo, Gender, MaritalStatus } from "./fields";

export interface ContactRow {
  id: number;
  tenantId: number;
  name: string;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  document: string | null;
  birthday: string | null;
  gender: Gender | null;
  maritalStatus: MaritalStatus | null;
  source: string | null;
  number: string | null;
  email: string | null;
  instagram: string | null;
  telegramId: string | null;
  website: string | null;
  category: string | null;
  state: string | null;
  additionalInfo: AdditionalInfo[];
  whatsappValidated: boolean;
  profilePicUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class Contact extends Model<ContactRow, Partial<ContactRow>> {}
export class ContactIdentity extends Model<{ id?: number; tenantId: number; channelType: string; externalId: string; contactId: number; createdAt?: Date }> {}
export class ContactTag extends Model<{ tenantId: number; contactId: number; tagId: number; createdAt?: Date }> {}
export class ContactWallet extends Model<{ tenantId: number; contactId: number; userId: number; createdAt?: Date }> {}
export interface ContactNoteRow {
  id: number;
  tenantId: number;
  contactId: number;
  userId: number | null;
  title: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
}
export class ContactNote extends Model<ContactNoteRow, Partial<ContactNoteRow>> {}

/**
 * Timestamps to the second: MariaDB's DATETIME keeps no fraction, so what a write answers is
 * what a later read returns. The hook runs after Sequelize has stamped the row.
 */
const toSecond = (d: unknown) => (d instanceof Date ? new Date(Math.floor(d.getTime() / 1000) * 1000) : d);
const secondStamps = {
  beforeSave(row: Model) {
    for (const k of ["createdAt", "updatedAt"]) {
      const v = row.getDataValue(k as never);
      if (v instanceof Date) row.setDataValue(k as never, toSecond(v) as never);
    }
  },
};

export interface ContactModels {
  Contact: typeof Contact;
  ContactIdentity: typeof ContactIdentity;
  ContactTag: typeof ContactTag;
  ContactWallet: typeof ContactWallet;
  ContactNote: typeof ContactNote;
}

/** The contacts service's tables (migration 0005). */
export function defineContactModels(sequelize: Sequelize): ContactModels {
  if (!sequelize.models.Contact) {
    Contact.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(200), allowNull: false },
        firstName: { type: DataTypes.STRING(120), allowNull: true },
        lastName: { type: DataTypes.STRING(120), allowNull: true },
        businessName: { type: DataTypes.STRING(200), allowNull: true },
        document: { type: DataTypes.STRING(14), allowNull: true },
        birthday: { type: DataTypes.DATEONLY, allowNull: true },
        gender: { type: DataTypes.STRING(16), allowNull: true },
        maritalStatus: { type: DataTypes.STRING(16), allowNull: true },
        source: { type: DataTypes.STRING(100), allowNull: true },
        number: { type: DataTypes.STRING(20), allowNull: true },
        email: { type: DataTypes.STRING(190), allowNull: true },
        instagram: { type: DataTypes.STRING(120), allowNull: true },
        telegramId: { type: DataTypes.STRING(64), allowNull: true },
        website: { type: DataTypes.STRING(500), allowNull: true },
        category: { type: DataTypes.STRING(100), allowNull: true },
        state: { type: DataTypes.STRING(100), allowNull: true },
        additionalInfo: jsonColumn<AdditionalInfo[]>("additionalInfo", []),
        whatsappValidated: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        profilePicUrl: { type: DataTypes.STRING(1000), allowNull: true },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "Contact", tableName: "contacts", hooks: secondStamps },
    );
    ContactIdentity.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        channelType: { type: DataTypes.STRING(40), allowNull: false },
        externalId: { type: DataTypes.STRING(190), allowNull: false },
        contactId: { type: DataTypes.INTEGER, allowNull: false },
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "ContactIdentity", tableName: "contact_identities", updatedAt: false },
    );
    ContactTag.init(
      {
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        contactId: { type: DataTypes.INTEGER, primaryKey: true },
        tagId: { type: DataTypes.INTEGER, primaryKey: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "ContactTag", tableName: "contact_tags", updatedAt: false },
    );
    ContactWallet.init(
      {
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        contactId: { type: DataTypes.INTEGER, primaryKey: true },
        userId: { type: DataTypes.INTEGER, primaryKey: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "ContactWallet", tableName: "contact_wallets", updatedAt: false },
    );
    ContactNote.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        contactId: { type: DataTypes.INTEGER, allowNull: false },
        userId: { type: DataTypes.INTEGER, allowNull: true },
        title: { type: DataTypes.STRING(200), allowNull: false },
        description: { type: DataTypes.TEXT, allowNull: false },
        createdAt: DataTypes.DATE,
        updatedAt: DataTypes.DATE,
      },
      { sequelize, modelName: "ContactNote", tableName: "contact_notes", hooks: secondStamps },
    );
  }
  const m = sequelize.models;
  return {
    Contact: m.Contact as typeof Contact,
    ContactIdentity: m.ContactIdentity as typeof ContactIdentity,
    ContactTag: m.ContactTag as typeof ContactTag,
    ContactWallet: m.ContactWallet as typeof ContactWallet,
    ContactNote: m.ContactNote as typeof ContactNote,
  };
}
