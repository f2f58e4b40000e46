/**
 * Sending a scheduled message when its job is due, exactly once per occurrence.
 *
 * The scheduler runs a job id once up to the handler's last step; a retry (the handler threw),
 * a stuck run taken again, or a restart can still run this handler twice for one occurrence.
 * So each occurrence (message id + due time) has a row in `sends`, the ledger:
 *
 * 1. A message no longer pending, or whose next date is not this job's (edited, cancelled, or
 *    already advanced), is left alone: a stale job sends nothing.
 * 2. A ledger row "sent" or "failed" means the send happened (or definitively failed) and only
 *    the bookkeeping after it may be missing: it is redone (conditional, so once), nothing sent.
 * 3. A ledger row "sending" means a run died between asking the core and recording the answer.
 *    It is sent again with the same idempotency key (`schedule:<id>:<due time>`): when the core
 *    stored the first send, it answers that message and sends nothing; otherwise it sends now.
 * 4. Otherwise the ledger row is inserted ("sending"; it is tried first, and a key clash reads
 *    the row for 2 and 3: a second run racing this one sends with the same key, which the core
 *    answers with the first run's message), the core sends to the contact on the chosen connection (through its
 *    open or pending ticket there, or a pending one it opens), and the answer is recorded.
 *
 * Failures: a client error of the core (no such contact, connection inactive…) is final for that occurrence: the error is stored on the message. Anything else (the core
 * unreachable) is thrown so the scheduler retries, up to the job's last attempt, which then
 * records the failure. A single message ends `failed`; a recurrent one records the error and
 * goes on to its next occurrence (its status stays pending, `errorMessage` tells the last
 * failure), and ends `failed` only when its last occurrence failed.
 */
import { coreApi, DuplicateRowError, type CoreApi } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import { nextOccurrence } from "./recurrence";
import type { MessageRow, ScheduleStore, SendRow } from "./store";

export const FIRE_JOB = "fire";
export const FIRE_ATTEMPTS = 3;

export const jobKey = (id: number) => `message-${id}`;

export interface FireJob {
  tenantId: number;
  attempt: number;
  data: { id?: unknown; at?: unknown };
}

export interface Firing {
  store: ScheduleStore;
  now(): number;
  /** Schedules the job of the message's next occurrence (the key's pending one moves). */
  scheduleNext(ctx: Context, tenantId: number, id: number, at: number): Promise<void>;
  /** Tells the tenant's screens that a message changed (its ticket's list drops a sent one). */
  changed(ctx: Context, tenantId: number, row: Pick<MessageRow, "id" | "ticketId" | "status">): Promise<void>;
}

type Outcome = { ok: true; sentMessageId: number | null; ticketId: number } | { ok: false; error: string };

export type FireResult = "stale" | "sent" | "failed" | "running";

export async function fire(ctx: Context, f: Firing, job: FireJob): Promise<FireResult> {
  const id = Number(job.data.id);
  const at = Number(job.data.at);
  const row = await f.store.find(job.tenantId, id);
  if (!row || row.status !== "pending" || row.nextAt !== at) return "stale";
  const sends = f.store.sends(job.tenantId);
  const api = coreApi(ctx);

  // The claim is inserted first (the first run of an occurrence, nearly always, pays one
  // statement); a row already there is read: a finished send is not sent again, and one left
  // "sending" goes again with the same key, which the core answers with the first message if it
  // stored it (so a run racing this one sends nothing twice either).
  const claim: SendRow = { messageId: id, dueAt: at, state: "sending", ticketId: null, sentMessageId: null, error: null, startedAt: f.now(), finishedAt: null };
  let ledger: SendRow | null = null;
  try {
    await sends.insert(claim);
  } catch (err) {
    if (!(err instanceof DuplicateRowError)) throw err;
    ledger = await sends.get({ messageId: id, dueAt: at });
    if (!ledger) return "running"; // gone meanwhile: nothing to do here
    if (ledger.state === "sending") await sends.update({ messageId: id, dueAt: at, state: "sending" }, { startedAt: claim.startedAt });
  }
  if (!ledger || ledger.state === "sending") ledger = await finish(f, job.tenantId, claim, await send(api, job, row, at));
  if (!ledger) return "running";
  await advance(ctx, f, job.tenantId, row, at, ledger);
  return ledger.state === "sent" ? "sent" : "failed";
}

/** The key of one occurrence's send: a second send with it answers the first message (the core keeps it unique). */
export const sendKey = (id: number, at: number) => `schedule:${id}:${at}`;

async function send(api: CoreApi, job: FireJob, row: MessageRow, at: number): Promise<Outcome> {
  try {
    const m = await api.messages.sendTo({ tenantId: job.tenantId, contactId: row.contactId, connectionId: row.connectionId, body: row.body, idempotencyKey: sendKey(row.id, at) });
    if (m.status === "failed") return { ok: false, error: m.failReason ?? "ERR_UNIDENTIFIED" };
    return { ok: true, sentMessageId: m.id, ticketId: m.ticketId };
  } catch (err) {
    const e = err as { type?: string; code?: number; message?: string };
    // Transient (the core or its channel unreachable): the scheduler retries, the ledger stays "sending".
    if (!isClientError(e) && job.attempt < FIRE_ATTEMPTS) throw err;
    return { ok: false, error: e.type && e.type.startsWith("ERR_") ? e.type : (e.message ?? "ERR_UNIDENTIFIED") };
  }
}

/**
 * Whether the core refused the send for the message's own sake (4xx: no such contact, connection
 * inactive…), final for the occurrence. A core service not (yet) there answers 404 too, but is no
 * fault of the message: a core restarting delivers due jobs while its plugin host still loads
 * (bench:scheduler's restart run lost 96 messages as "Service 'plugins.availability' is not found.").
 */
export function isClientError(err: unknown): boolean {
  const e = (err ?? {}) as { type?: string; code?: number };
  if (e.type === "SERVICE_NOT_FOUND" || e.type === "SERVICE_NOT_AVAILABLE") return false;
  return typeof e.code === "number" && e.code >= 400 && e.code < 500;
}

/** Records the occurrence's outcome; answers the ledger row, or null when another run recorded it first. */
async function finish(f: Firing, tenantId: number, ledger: SendRow, outcome: Outcome): Promise<SendRow | null> {
  const values: Partial<SendRow> = outcome.ok ? { state: "sent", sentMessageId: outcome.sentMessageId, ticketId: outcome.ticketId, finishedAt: f.now() } : { state: "failed", error: outcome.error, finishedAt: f.now() };
  const changed = await f.store.sends(tenantId).update({ messageId: ledger.messageId, dueAt: ledger.dueAt, state: "sending" }, values);
  if (changed !== 1) return f.store.sends(tenantId).get({ messageId: ledger.messageId, dueAt: ledger.dueAt });
  return { ...ledger, ...values };
}

/** Counts the occurrence and moves the message to its next one (or to its final status), once. */
async function advance(ctx: Context, f: Firing, tenantId: number, row: MessageRow, at: number, ledger: SendRow): Promise<void> {
  const sent = ledger.state === "sent";
  const next = row.type === "recurrent" && row.recurrence ? nextOccurrence({ ...row, recurrence: row.recurrence }, Math.max(at, f.now())) : null;
  // The next job first: a crash after it and before the row's update is redone by the retry (same key and time: unchanged).
  if (next !== null) await f.scheduleNext(ctx, tenantId, row.id, next);
  const status = next !== null ? "pending" : sent ? "sent" : "failed";
  const values: Partial<MessageRow> = {
    status,
    nextAt: next,
    sentCount: row.sentCount + (sent ? 1 : 0),
    lastSentAt: sent ? (ledger.finishedAt ?? f.now()) : row.lastSentAt,
    errorMessage: sent ? null : ledger.error,
    updatedAt: f.now(),
  };
  if (await f.store.updateIf(tenantId, row.id, { status: "pending", nextAt: at }, values)) await f.changed(ctx, tenantId, { id: row.id, ticketId: row.ticketId, status });
}
