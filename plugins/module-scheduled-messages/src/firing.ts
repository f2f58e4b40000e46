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
 *    The core API's send takes no idempotency key (reported), so the ticket's newest messages
 *    are read: a message of this plugin (no user) with the same text, stored since that run
 *    started, is that send, adopted instead of sending again. Otherwise the core never stored
 *    it, and it is sent now.
 * 4. Otherwise the ledger row is inserted ("sending": a second run racing this one gets a key
 *    clash and leaves), the core sends through the contact's open or pending ticket on the
 *    chosen connection, and the answer is recorded.
 *
 * Failures: a client error of the core (no such ticket, connection inactive…) or no open ticket
 * is final for that occurrence: the error is stored on the message. Anything else (the core
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

type Outcome = { ok: true; sentMessageId: number | null } | { ok: false; error: string };

export type FireResult = "stale" | "sent" | "failed" | "running";

export async function fire(ctx: Context, f: Firing, job: FireJob): Promise<FireResult> {
  const id = Number(job.data.id);
  const at = Number(job.data.at);
  const row = await f.store.find(job.tenantId, id);
  if (!row || row.status !== "pending" || row.nextAt !== at) return "stale";
  const sends = f.store.sends(job.tenantId);
  const api = coreApi(ctx);

  let ledger = await sends.get({ messageId: id, dueAt: at });
  if (ledger?.state === "sending") {
    const adopted = await findSent(api, job.tenantId, row, ledger);
    if (adopted !== null) ledger = await finish(f, job.tenantId, ledger, { ok: true, sentMessageId: adopted });
  }
  if (!ledger || ledger.state === "sending") {
    const ticketId = await ticketFor(api, job.tenantId, row);
    const claim: SendRow = { messageId: id, dueAt: at, state: "sending", ticketId, sentMessageId: null, error: null, startedAt: f.now(), finishedAt: null };
    if (!ledger) {
      try {
        await sends.insert(claim);
      } catch (err) {
        if (err instanceof DuplicateRowError) return "running"; // another run of this occurrence holds it
        throw err;
      }
    } else await sends.update({ messageId: id, dueAt: at, state: "sending" }, { ticketId, startedAt: claim.startedAt });
    ledger = await finish(f, job.tenantId, claim, await send(api, job, row, ticketId));
  }
  if (!ledger) return "running";
  await advance(ctx, f, job.tenantId, row, at, ledger);
  return ledger.state === "sent" ? "sent" : "failed";
}

async function send(api: CoreApi, job: FireJob, row: MessageRow, ticketId: number | null): Promise<Outcome> {
  if (ticketId === null) return { ok: false, error: "ERR_SCHEDULE_NO_OPEN_TICKET" };
  try {
    const m = await api.messages.send({ tenantId: job.tenantId, ticketId, body: row.body });
    return { ok: true, sentMessageId: m.id };
  } catch (err) {
    const e = err as { type?: string; code?: number; message?: string };
    const clientError = typeof e.code === "number" && e.code >= 400 && e.code < 500;
    // Transient (the core or its channel unreachable): the scheduler retries, the ledger stays "sending".
    if (!clientError && job.attempt < FIRE_ATTEMPTS) throw err;
    return { ok: false, error: e.type && e.type.startsWith("ERR_") ? e.type : (e.message ?? "ERR_UNIDENTIFIED") };
  }
}

/** Records the occurrence's outcome; answers the ledger row, or null when another run recorded it first. */
async function finish(f: Firing, tenantId: number, ledger: SendRow, outcome: Outcome): Promise<SendRow | null> {
  const values: Partial<SendRow> = outcome.ok ? { state: "sent", sentMessageId: outcome.sentMessageId, finishedAt: f.now() } : { state: "failed", error: outcome.error, finishedAt: f.now() };
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

/** The ticket the message goes through: the one it was scheduled from while open, else the contact's newest open or pending ticket on the connection. */
async function ticketFor(api: CoreApi, tenantId: number, row: MessageRow): Promise<number | null> {
  const usable = (t: { status: string; contactId: number; connectionId: number | null }) => (t.status === "open" || t.status === "pending") && t.contactId === row.contactId && t.connectionId === row.connectionId;
  if (row.ticketId) {
    const t = await api.tickets.get({ tenantId, id: row.ticketId }).catch(() => null);
    if (t && usable(t)) return t.id;
  }
  const contact = await api.contacts.get({ tenantId, id: row.contactId }).catch(() => null);
  if (!contact) return null;
  // The core API lists tickets by name, number or protocol, not by contact: search, then keep the contact's own.
  const { rows } = await api.tickets.list({ tenantId, status: ["open", "pending"], search: (contact.number || contact.name).slice(0, 120), limit: 100 });
  const mine = rows.filter(usable).sort((a, b) => b.lastMessageAt - a.lastMessageAt || b.id - a.id);
  return mine[0]?.id ?? null;
}

/** A send of an earlier run the core stored: this plugin's message (no user) with the same text since the run started. */
async function findSent(api: CoreApi, tenantId: number, row: MessageRow, ledger: SendRow): Promise<number | null> {
  if (!ledger.ticketId) return null;
  const { rows } = await api.messages.list({ tenantId, ticketId: ledger.ticketId, page: 1, limit: 100 });
  const body = row.body.trim();
  const hit = rows.find((m) => m.fromMe && m.userId === null && (m.body ?? "").trim() === body && Date.parse(m.createdAt) >= ledger.startedAt - 1000);
  return hit ? hit.id : null;
}
