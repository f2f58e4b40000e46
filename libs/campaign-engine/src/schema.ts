/**
 * The engine's tables, in the type plugin's own database (its migration calls
 * createCampaignTables; every row also carries tenantId, added by the host's tenant scope):
 *
 * - campaigns: the shared fields, the type's `content` (JSON), the lanes' pacing state, and
 *   `version`, written first in every transaction that changes the campaign or claims one of
 *   its contacts, so those run one after the other (a row lock on MariaDB);
 * - campaign_contacts: one per linked contact, numbered 1, 2, … in the campaign (`id`, the
 *   send key's contact number), with its status, the variant and connection it was sent with,
 *   its rate-limit `attempt`, and the message id its acks are counted by;
 * - campaign_sequences: the tenant's next campaign id.
 */
import type { SchemaBuilder } from "@openatende/plugin-sdk";

export const CAMPAIGNS = "campaigns";
export const CAMPAIGN_CONTACTS = "campaign_contacts";
export const SEQUENCES = "campaign_sequences";

export async function createCampaignTables(schema: SchemaBuilder): Promise<void> {
  await schema.createTable(CAMPAIGNS, {
    columns: {
      id: { type: "integer" },
      name: { type: "string", length: 200 },
      status: { type: "string", length: 12 },
      startAt: { type: "bigint" },
      connectionIds: { type: "json" },
      content: { type: "json" },
      minIntervalSeconds: { type: "integer" },
      maxIntervalSeconds: { type: "integer" },
      lanes: { type: "json", nullable: true },
      contactSeq: { type: "integer", default: 0 },
      version: { type: "bigint", default: 0 },
      createdBy: { type: "integer", nullable: true },
      createdAt: { type: "bigint" },
      updatedAt: { type: "bigint" },
      startedAt: { type: "bigint", nullable: true },
      finishedAt: { type: "bigint", nullable: true },
    },
    primaryKey: ["id"],
    indexes: [{ columns: ["status"] }],
  });
  await schema.createTable(CAMPAIGN_CONTACTS, {
    columns: {
      campaignId: { type: "integer" },
      id: { type: "integer" },
      contactId: { type: "integer" },
      name: { type: "string", length: 200 },
      number: { type: "string", length: 32, nullable: true },
      status: { type: "string", length: 12 },
      variant: { type: "integer", nullable: true },
      connectionId: { type: "integer", nullable: true },
      attempt: { type: "integer", default: 0 },
      messageId: { type: "bigint", nullable: true },
      failReason: { type: "string", length: 255, nullable: true },
      sentAt: { type: "bigint", nullable: true },
      updatedAt: { type: "bigint" },
    },
    primaryKey: ["campaignId", "id"],
    indexes: [{ columns: ["campaignId", "contactId"], unique: true }, { columns: ["campaignId", "status", "id"] }, { columns: ["messageId"] }],
  });
  await schema.createTable(SEQUENCES, {
    columns: { name: { type: "string", length: 32 }, value: { type: "bigint" } },
    primaryKey: ["name"],
  });
}
