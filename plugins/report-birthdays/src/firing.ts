/**
 * What the plugin's jobs do when the core's scheduler delivers them (exactly once per job id;
 * a retried or restarted run is harmless because every send carries its own idempotency key,
 * so the core answers the message the first call made):
 *
 * - `send` (key `batch-<id>`): sends the batch's next pending contact, records it, and — when
 *   contacts are left — schedules itself again `delaySeconds` later (with no delay it sends up
 *   to MAX_PER_RUN in one run, then goes on at the next tick). Key of each send:
 *   `batch:<id>:item:<seq>`.
 * - `birthday` (key `scheduled-<id>`): sends one scheduled birthday message, once, while it is
 *   still pending (a cancelled one never goes). Key: `scheduled:<id>`.
 *
 * Sends go with `ticket: "closed"` (like campaigns: they open no ticket; a reply does).
 */
import type { PlatformMessage, PlatformSend } from "@openatende/plugin-sdk";
import { renderMessage } from "./birthdays";
import type { BirthdayStore, ItemRow, ScheduledRow } from "./store";

export const SEND_JOB = "send";
export const BIRTHDAY_JOB = "birthday";
export const batchKey = (id: number) => `batch-${id}`;
export const scheduledKey = (id: number) => `scheduled-${id}`;
/** Sends of one run when the batch has no delay. */
export const MAX_PER_RUN = 25;

type Sent = Pick<PlatformMessage, "id" | "status" | "failReason">;

export interface FiringPorts {
  store: BirthdayStore;
  now(): number;
  send(p: { tenantId: number; contactId: number; connectionId: number; ticket: "closed" } & PlatformSend): Promise<Sent>;
  /** The contact's current name (null: gone). */
  contactName(tenantId: number, contactId: number): Promise<string | null>;
  scheduleBatch(tenantId: number, batchId: number, at: number): Promise<void>;
  changed(tenantId: number, payload: { kind: "batch" | "scheduled"; id: number }): Promise<void>;
}

/** A send the core refused for a client's reason (the contact or connection gone) fails that contact; anything else is retried. */
async function sendOrRefusal(ports: FiringPorts, p: Parameters<FiringPorts["send"]>[0]): Promise<Sent> {
  try {
    return await ports.send(p);
  } catch (err) {
    const e = err as { type?: string; code?: number };
    if (!(typeof e.code === "number" && e.code >= 400 && e.code < 500 && e.code !== 429 && e.type)) throw err;
    return { id: 0, status: "failed", failReason: e.type };
  }
}

const outcome = (m: Sent, now: number) => ({
  status: m.status === "failed" ? ("failed" as const) : ("sent" as const),
  messageId: m.id ? Number(m.id) : null,
  failReason: m.status === "failed" ? String(m.failReason ?? "send failed").slice(0, 255) : null,
  sentAt: now,
});

async function sendItem(ports: FiringPorts, tenantId: number, batch: { id: number; connectionId: number; body: string }, item: ItemRow): Promise<Sent> {
  const body = renderMessage(batch.body, { name: item.name, age: item.age });
  return sendOrRefusal(ports, { tenantId, contactId: item.contactId, connectionId: batch.connectionId, ticket: "closed", body, idempotencyKey: `batch:${batch.id}:item:${item.seq}` });
}

/** One run of a batch's `send` job. */
export async function runBatch(ports: FiringPorts, tenantId: number, batchId: number, dueAt: number): Promise<"stale" | "sent" | "finished"> {
  const { store } = ports;
  const batch = await store.batches(tenantId).get({ id: batchId });
  if (!batch || batch.status !== "running") return "stale";
  for (let n = 0; n < MAX_PER_RUN; n++) {
    const item = await store.nextPending(tenantId, batchId);
    if (!item) break;
    const m = await sendItem(ports, tenantId, batch, item);
    const now = ports.now();
    const more = await store.items(tenantId).count({ batchId, status: "pending" });
    if (more <= 1) {
      await store.recordItem(tenantId, item, outcome(m, now), now, { status: "finished", nextAt: null });
      await ports.changed(tenantId, { kind: "batch", id: batchId });
      return "finished";
    }
    if (batch.delaySeconds > 0) {
      const at = now + batch.delaySeconds * 1000;
      await store.recordItem(tenantId, item, outcome(m, now), now, { nextAt: at });
      await ports.scheduleBatch(tenantId, batchId, at);
      await ports.changed(tenantId, { kind: "batch", id: batchId });
      return "sent";
    }
    await store.recordItem(tenantId, item, outcome(m, now), now, {});
  }
  const pending = await store.nextPending(tenantId, batchId);
  if (!pending) {
    await store.batches(tenantId).update({ id: batchId }, { status: "finished", nextAt: null, updatedAt: ports.now() });
    await ports.changed(tenantId, { kind: "batch", id: batchId });
    return "finished";
  }
  // No delay and more left: the next run at the next tick (a due time after this one's: a new job id).
  const at = Math.max(ports.now(), dueAt + 1);
  await store.batches(tenantId).update({ id: batchId }, { nextAt: at });
  await ports.scheduleBatch(tenantId, batchId, at);
  await ports.changed(tenantId, { kind: "batch", id: batchId });
  return "sent";
}

/** The `birthday` job: the scheduled message, once, while pending. */
export async function runBirthday(ports: FiringPorts, tenantId: number, id: number): Promise<"stale" | "sent" | "failed"> {
  const row: ScheduledRow | null = await ports.store.scheduled(tenantId).get({ id });
  if (!row || row.status !== "pending") return "stale";
  const name = (await ports.contactName(tenantId, row.contactId)) ?? row.name;
  const body = renderMessage(row.body, { name, age: row.age });
  const m = await sendOrRefusal(ports, { tenantId, contactId: row.contactId, connectionId: row.connectionId, ticket: "closed", body, idempotencyKey: `scheduled:${id}` });
  const now = ports.now();
  const o = outcome(m, now);
  await ports.store.settleScheduled(tenantId, id, { status: o.status, messageId: o.messageId, failReason: o.failReason, updatedAt: now });
  await ports.changed(tenantId, { kind: "scheduled", id });
  return o.status;
}
