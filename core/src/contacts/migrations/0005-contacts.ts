import { DataTypes } from "sequelize";
import type { Migration } from "../../db/migration";

/**
 * Owned by the tags service: tags.
 * Owned by the contacts service: contacts, contact_identities, contact_tags, contact_wallets,
 * contact_notes.
 * Owned by the quick-messages service: quick_messages, quick_message_queues.
 */
export const m0005: Migration = {
  name: "0005-contacts",
  async up(qi) {
    const tenantRef = { type: DataTypes.INTEGER, allowNull: false, references: { model: "tenants", key: "id" }, onDelete: "CASCADE" };

    await qi.createTable("tags", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: tenantRef,
      name: { type: DataTypes.STRING(100), allowNull: false },
      color: { type: DataTypes.STRING(7), allowNull: false },
      active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("tags", ["tenantId", "name"], { unique: true, name: "tags_tenant_name" });

    await qi.createTable("contacts", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: tenantRef,
      name: { type: DataTypes.STRING(200), allowNull: false },
      firstName: { type: DataTypes.STRING(120), allowNull: true },
      lastName: { type: DataTypes.STRING(120), allowNull: true },
      businessName: { type: DataTypes.STRING(200), allowNull: true },
      document: { type: DataTypes.STRING(14), allowNull: true },
      birthday: { type: DataTypes.DATEONLY, allowNull: true },
      gender: { type: DataTypes.STRING(16), allowNull: true },
      maritalStatus: { type: DataTypes.STRING(16), allowNull: true },
      source: { type: DataTypes.STRING(100), allowNull: true },
      // E.164 digits without "+"; NULL for contacts reached only through other channels.
      number: { type: DataTypes.STRING(20), allowNull: true },
      email: { type: DataTypes.STRING(190), allowNull: true },
      instagram: { type: DataTypes.STRING(120), allowNull: true },
      telegramId: { type: DataTypes.STRING(64), allowNull: true },
      website: { type: DataTypes.STRING(500), allowNull: true },
      category: { type: DataTypes.STRING(100), allowNull: true },
      state: { type: DataTypes.STRING(100), allowNull: true },
      additionalInfo: { type: DataTypes.TEXT, allowNull: true },
      whatsappValidated: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      profilePicUrl: { type: DataTypes.STRING(1000), allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    // NULL numbers repeat freely (both engines treat NULLs as distinct in a unique index).
    await qi.addIndex("contacts", ["tenantId", "number"], { unique: true, name: "contacts_tenant_number" });
    await qi.addIndex("contacts", ["tenantId", "name", "id"], { name: "contacts_tenant_name" });
    await qi.addIndex("contacts", ["tenantId", "email"], { name: "contacts_tenant_email" });

    // How a channel identifies the person (WhatsApp JID, Telegram id, e-mail address, …).
    await qi.createTable("contact_identities", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: tenantRef,
      channelType: { type: DataTypes.STRING(40), allowNull: false },
      externalId: { type: DataTypes.STRING(190), allowNull: false },
      contactId: { type: DataTypes.INTEGER, allowNull: false, references: { model: "contacts", key: "id" }, onDelete: "CASCADE" },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("contact_identities", ["tenantId", "channelType", "externalId"], { unique: true, name: "contact_identities_key" });
    await qi.addIndex("contact_identities", ["tenantId", "contactId"], { name: "contact_identities_contact" });

    await qi.createTable("contact_tags", {
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      contactId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: "contacts", key: "id" }, onDelete: "CASCADE" },
      tagId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: "tags", key: "id" }, onDelete: "CASCADE" },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("contact_tags", ["tenantId", "tagId"], { name: "contact_tags_tenant_tag" });

    await qi.createTable("contact_wallets", {
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      contactId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: "contacts", key: "id" }, onDelete: "CASCADE" },
      userId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true, references: { model: "users", key: "id" }, onDelete: "CASCADE" },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("contact_wallets", ["tenantId", "userId"], { name: "contact_wallets_tenant_user" });

    await qi.createTable("contact_notes", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: tenantRef,
      contactId: { type: DataTypes.INTEGER, allowNull: false, references: { model: "contacts", key: "id" }, onDelete: "CASCADE" },
      userId: { type: DataTypes.INTEGER, allowNull: true },
      title: { type: DataTypes.STRING(200), allowNull: false },
      description: { type: DataTypes.TEXT, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("contact_notes", ["tenantId", "contactId"], { name: "contact_notes_tenant_contact" });

    await qi.createTable("quick_messages", {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      tenantId: tenantRef,
      // Stored lower-case without the leading "/".
      key: { type: DataTypes.STRING(100), allowNull: false },
      message: { type: DataTypes.TEXT, allowNull: false },
      scope: { type: DataTypes.STRING(16), allowNull: false },
      // Owner of a personal message; author of the others.
      userId: { type: DataTypes.INTEGER, allowNull: true },
      // "global", "queue" or "user:<id>": a key is unique inside its scope.
      scopeKey: { type: DataTypes.STRING(40), allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
      updatedAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("quick_messages", ["tenantId", "scopeKey", "key"], { unique: true, name: "quick_messages_scope_key" });
    await qi.addIndex("quick_messages", ["tenantId", "key"], { name: "quick_messages_tenant_key" });

    await qi.createTable("quick_message_queues", {
      tenantId: { type: DataTypes.INTEGER, allowNull: false },
      quickMessageId: {
        type: DataTypes.INTEGER,
        allowNull: false,
        primaryKey: true,
        references: { model: "quick_messages", key: "id" },
        onDelete: "CASCADE",
      },
      queueId: { type: DataTypes.INTEGER, allowNull: false, primaryKey: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    });
    await qi.addIndex("quick_message_queues", ["tenantId", "queueId"], { name: "quick_message_queues_tenant_queue" });
  },
  async down(qi) {
    await qi.dropTable("quick_message_queues");
    await qi.dropTable("quick_messages");
    await qi.dropTable("contact_notes");
    await qi.dropTable("contact_wallets");
    await qi.dropTable("contact_tags");
    await qi.dropTable("contact_identities");
    await qi.dropTable("contacts");
    await qi.dropTable("tags");
  },
};
