/**
 * The plugin's rows, always through the SDK's tenant-scoped repository: another tenant's id is
 * simply not found (its 404 code). State changes are conditional updates on the state read, so
 * a cancel racing a fire changes the row once.
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, PluginError, type PluginData, type TenantData } from "@openatende/plugin-sdk";

export type BatchStatus = "running" | "finished";
export type ItemStatus = "pending" | "sent" | "failed";
export type ScheduledStatus = "pending" | "sent" | "failed" | "cancelled";

export interface BatchRow extends Record<string, unknown> {
  id: number;
  connectionId: number;
  body: string;
  delaySeconds: number;
  status: BatchStatus;
  total: number;
  sent: number;
  failed: number;
  nextAt: number | null;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
}

export interface ItemRow extends Record<string, unknown> {
  batchId: number;
  seq: number;
  contactId: number;
  name: string;
  age: number | null;
  status: ItemStatus;
  messageId: number | null;
  failReason: string | null;
  sentAt: number | null;
}

export interface ScheduledRow extends Record<string, unknown> {
  id: number;
  contactId: number;
  connectionId: number;
  name: string;
  body: string;
  occursOn: string;
  age: number;
  runAt: number;
  status: ScheduledStatus;
  messageId: number | null;
  failReason: string | null;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
}

const newId = () => randomInt(1, 2 ** 31 - 1);

/** Inserts a row under a fresh random id (another on the rare clash). */
async function insertWithId<R extends { id: number } & Record<string, unknown>>(insert: (row: R) => Promise<void>, make: (id: number) => R): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const row = make(newId());
    try {
      await insert(row);
      return row;
    } catch (err) {
      if (!(err instanceof DuplicateRowError) || attempt > 3) throw err;
    }
  }
}

export class BirthdayStore {
  constructor(private readonly data: PluginData) {}

  private scope(tenantId: number): TenantData {
    return this.data.forTenant(tenantId);
  }
  batches(tenantId: number) {
    return this.scope(tenantId).table<BatchRow>("batches");
  }
  items(tenantId: number) {
    return this.scope(tenantId).table<ItemRow>("batch_items");
  }
  scheduled(tenantId: number) {
    return this.scope(tenantId).table<ScheduledRow>("scheduled");
  }

  /** A batch and its items, in one transaction. */
  async createBatch(tenantId: number, fields: Pick<BatchRow, "connectionId" | "body" | "delaySeconds" | "createdBy">, contacts: Array<{ contactId: number; name: string; age: number | null }>, now: number): Promise<BatchRow> {
    return this.scope(tenantId).transaction(async (tx) => {
      const batch = await insertWithId<BatchRow>(
        (row) => tx.table<BatchRow>("batches").insert(row),
        (id) => ({ id, ...fields, status: "running", total: contacts.length, sent: 0, failed: 0, nextAt: now, createdAt: now, updatedAt: now }),
      );
      await tx.table<ItemRow>("batch_items").upsertMany(contacts.map((c, i) => ({ batchId: batch.id, seq: i + 1, ...c, status: "pending", messageId: null, failReason: null, sentAt: null })));
      return batch;
    });
  }

  async getBatch(tenantId: number, id: number): Promise<BatchRow> {
    const row = await this.batches(tenantId).get({ id });
    if (!row) throw new PluginError("ERR_REPORT_BIRTHDAYS_SEND_NOT_FOUND", 404, { id });
    return row;
  }

  /** The tenant's latest batches, newest first. */
  recentBatches(tenantId: number, limit = 20): Promise<BatchRow[]> {
    return this.batches(tenantId).find({}, { orderBy: [["createdAt", "desc"], ["id", "desc"]], limit });
  }

  itemsOf(tenantId: number, batchId: number): Promise<ItemRow[]> {
    return this.items(tenantId).find({ batchId }, { orderBy: [["seq", "asc"]] });
  }

  async nextPending(tenantId: number, batchId: number): Promise<ItemRow | null> {
    const [row] = await this.items(tenantId).find({ batchId, status: "pending" }, { orderBy: [["seq", "asc"]], limit: 1 });
    return row ?? null;
  }

  /** Records an item's outcome (once: only while pending) and recounts its batch. */
  async recordItem(tenantId: number, item: ItemRow, values: Pick<ItemRow, "status" | "messageId" | "failReason" | "sentAt">, now: number, next: Partial<BatchRow>): Promise<void> {
    await this.items(tenantId).update({ batchId: item.batchId, seq: item.seq, status: "pending" }, values);
    const [sent, failed] = await Promise.all([this.items(tenantId).count({ batchId: item.batchId, status: "sent" }), this.items(tenantId).count({ batchId: item.batchId, status: "failed" })]);
    await this.batches(tenantId).update({ id: item.batchId }, { sent, failed, updatedAt: now, ...next });
  }

  async createScheduled(tenantId: number, fields: Pick<ScheduledRow, "contactId" | "connectionId" | "name" | "body" | "occursOn" | "age" | "runAt" | "createdBy">, now: number): Promise<ScheduledRow> {
    return insertWithId<ScheduledRow>(
      (row) => this.scheduled(tenantId).insert(row),
      (id) => ({ id, ...fields, status: "pending", messageId: null, failReason: null, createdAt: now, updatedAt: now }),
    );
  }

  async getScheduled(tenantId: number, id: number): Promise<ScheduledRow> {
    const row = await this.scheduled(tenantId).get({ id });
    if (!row) throw new PluginError("ERR_REPORT_BIRTHDAYS_SCHEDULE_NOT_FOUND", 404, { id });
    return row;
  }

  /** The pending schedules of these contacts, by "contactId:occursOn". */
  async pendingFor(tenantId: number, contactIds: number[]): Promise<Map<string, ScheduledRow>> {
    const rows = contactIds.length ? await this.scheduled(tenantId).find({ contactId: contactIds, status: "pending" }) : [];
    return new Map(rows.map((r) => [`${r.contactId}:${r.occursOn}`, r]));
  }

  /** The tenant's schedules with these statuses, soonest first. */
  listScheduled(tenantId: number, status: ScheduledStatus[], limit = 500): Promise<ScheduledRow[]> {
    return this.scheduled(tenantId).find({ status }, { orderBy: [["runAt", "asc"], ["id", "asc"]], limit });
  }

  /** pending → `values` (false: it was no longer pending). */
  async settleScheduled(tenantId: number, id: number, values: Partial<ScheduledRow>): Promise<boolean> {
    return (await this.scheduled(tenantId).update({ id, status: "pending" }, values)) === 1;
  }
}
