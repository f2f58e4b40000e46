import { DataTypes, Model, ModelAttributeColumnOptions, Sequelize } from "sequelize";
import { CONTACT_FIELDS, CONTACT_FIELD_NAMES, type AdditionalInfo, type ContactFieldSpec, type ContactFields } from "@openatende/contracts/contact-fields";
import { jsonColumn } from "../db/json-column";

export interface ContactRow extends ContactFields {
  id: number;
  tenantId: number;
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

/** The contact's columns as the field table describes them (migration 0005 created them; core/src/contacts/models.test.ts holds the two together). */
function contactColumns(): Record<string, ModelAttributeColumnOptions> {
  const column = (name: string, s: ContactFieldSpec): ModelAttributeColumnOptions => {
    if (s.kind === "date") return { type: DataTypes.DATEONLY, allowNull: true };
    if (s.kind === "boolean") return { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false };
    if (s.kind === "info") return jsonColumn<AdditionalInfo[]>(name, []);
    return { type: DataTypes.STRING(s.column ?? s.max), allowNull: !s.required };
  };
  return Object.fromEntries(CONTACT_FIELD_NAMES.map((f) => [f, column(f, CONTACT_FIELDS[f])]));
}

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
        ...contactColumns(),
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
