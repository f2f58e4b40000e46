import { DataTypes, Model, UniqueConstraintError, type Sequelize } from "sequelize";

/** What the automation does to a ticket, each claimed once (per period where it says so). */
export type AutomationKind = "greeting" | "farewell" | "closed" | "smartClose" | "autoClose";

interface ClaimRow {
  id?: number;
  tenantId: number;
  ticketId: number;
  kind: AutomationKind;
  period: number;
  messageId: number | null;
  createdAt?: Date;
}

class TicketAutomation extends Model<ClaimRow, ClaimRow> {}

/**
 * The claims of table ticket_automations (migration 0018): a row is written BEFORE the thing
 * is done, and UNIQUE(tenantId, ticketId, kind, period) lets exactly one writer through, so
 * a retried job, a re-delivered event, a restart or a second node never does it twice. The
 * price is at-most-once: a crash between the claim and the send loses that one message
 * rather than sending it twice.
 */
export function automationClaims(sequelize: Sequelize) {
  if (!sequelize.models.TicketAutomation) {
    TicketAutomation.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        tenantId: { type: DataTypes.INTEGER, allowNull: false },
        ticketId: { type: DataTypes.INTEGER, allowNull: false },
        kind: { type: DataTypes.STRING(24), allowNull: false },
        period: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        messageId: { type: DataTypes.INTEGER, allowNull: true },
        createdAt: DataTypes.DATE,
      },
      { sequelize, modelName: "TicketAutomation", tableName: "ticket_automations", updatedAt: false },
    );
  }
  const model = sequelize.models.TicketAutomation as typeof TicketAutomation;

  return {
    /** The claim's id for the one caller that gets to do it; null when it was claimed before. */
    async claim(tenantId: number, ticketId: number, kind: AutomationKind, period: number): Promise<number | null> {
      try {
        const row = await model.create({ tenantId, ticketId, kind, period: Math.round(period), messageId: null });
        return Number(row.get("id"));
      } catch (err) {
        if (err instanceof UniqueConstraintError) return null;
        throw err;
      }
    },

    /** The message a claim sent (for the record: what went out for it). */
    async sent(tenantId: number, claimId: number, messageId: number): Promise<void> {
      await model.update({ messageId }, { where: { id: claimId, tenantId } });
    },
  };
}

export type AutomationClaims = ReturnType<typeof automationClaims>;
