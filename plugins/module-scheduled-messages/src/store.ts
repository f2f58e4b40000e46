/**
 * Scheduled messages in the plugin's own database, always through the SDK's tenant-scoped
 * repository: another tenant's id is simply not found (ERR_SCHEDULE_MESSAGE_NOT_FOUND, 404). Changes
 * of a message's state are conditional updates on the state read (`status` and `nextAt`), so a
 * cancel racing a send, or a send advanced twice, changes the row once.
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, PluginError, type PluginData } from "@openatende/plugin-sdk";
import type { Recurrence } from "./recurrence";
import type { ScheduleFields, ScheduleType, Status } from "./rules";

export interface MessageRow extends Record<string, unknown> {
  id: number;
  body: string;
  status: Status;
  type: ScheduleType;
  recurrence: Recurrence | null;
  customDays: number[] | null;
  recurrentUntil: number | null;
  timeZone: string;
  contactId: number;
  connectionId: number;
  userId: number;
  ticketId: number | null;
  scheduleDate: number;
  nextAt: number | null;
  sentCount: number;
  lastSentAt: number | null;
  errorMessage: string | null;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
}

/** One occurrence's record: written "sending" before the core is asked, "sent" or "failed" after. */
export interface SendRow extends Record<string, unknown> {
  messageId: number;
  dueAt: number;
  state: "sending" | "sent" | "failed";
  ticketId: number | null;
  sentMessageId: number | null;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

export interface ListFilters {
  status?: Status[];
  contactId?: number;
  connectionId?: number;
  userId?: number;
  ticketId?: number;
  /** Next date (or, once done, the schedule date) within [from, to], epoch ms. */
  from?: number;
  to?: number;
  page: number;
  limit: number;
}

export const notFound = (id: number) => new PluginError("ERR_SCHEDULE_MESSAGE_NOT_FOUND", 404, { id });
const newId = () => randomInt(1, 2 ** 31 - 1);

/** The date a message is listed and filtered by: its next send while pending, else its first. */
export const dateOf = (r: MessageRow) => r.nextAt ?? r.scheduleDate;

export class ScheduleStore {
  constructor(private readonly data: PluginData) {}

  private messages(tenantId: number) {
    return this.data.forTenant(tenantId).table<MessageRow>("messages");
  }

  sends(tenantId: number) {
    return this.data.forTenant(tenantId).table<SendRow>("sends");
  }

  async get(tenantId: number, id: number): Promise<MessageRow> {
    const row = await this.messages(tenantId).get({ id });
    if (!row) throw notFound(id);
    return row;
  }

  async find(tenantId: number, id: number): Promise<MessageRow | null> {
    return this.messages(tenantId).get({ id });
  }

  async create(tenantId: number, fields: ScheduleFields, by: { userId: number; ticketId: number | null; now: number }): Promise<MessageRow> {
    for (let attempt = 0; ; attempt++) {
      const row: MessageRow = {
        id: newId(),
        ...fields,
        status: "pending",
        ticketId: by.ticketId,
        nextAt: fields.scheduleDate,
        sentCount: 0,
        lastSentAt: null,
        errorMessage: null,
        createdBy: by.userId,
        createdAt: by.now,
        updatedAt: by.now,
      };
      try {
        await this.messages(tenantId).insert(row);
        return row;
      } catch (err) {
        if (!(err instanceof DuplicateRowError) || attempt > 3) throw err;
      }
    }
  }

  /** Applies `values` only while the row is still as read (`expect`): answers whether it did. */
  async updateIf(tenantId: number, id: number, expect: Partial<Pick<MessageRow, "status" | "nextAt">>, values: Partial<MessageRow>): Promise<boolean> {
    return (await this.messages(tenantId).update({ id, ...expect }, values)) === 1;
  }

  /** The tenant's messages matching the filters, soonest first, a page at a time. */
  async list(tenantId: number, f: ListFilters): Promise<{ rows: MessageRow[]; count: number; hasMore: boolean }> {
    const where: Record<string, number | string[] | number[]> = {};
    if (f.status?.length) where.status = f.status;
    if (f.contactId) where.contactId = f.contactId;
    if (f.connectionId) where.connectionId = f.connectionId;
    if (f.userId) where.userId = f.userId;
    if (f.ticketId) where.ticketId = f.ticketId;
    // The repository filters by equality: the date range is applied here, on the tenant's rows.
    const all = (await this.messages(tenantId).find(where)).filter((r) => (f.from === undefined || dateOf(r) >= f.from) && (f.to === undefined || dateOf(r) <= f.to));
    all.sort((a, b) => dateOf(a) - dateOf(b) || a.id - b.id);
    const start = (f.page - 1) * f.limit;
    return { rows: all.slice(start, start + f.limit), count: all.length, hasMore: start + f.limit < all.length };
  }
}
