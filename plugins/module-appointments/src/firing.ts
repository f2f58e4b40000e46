/**
 * The appointment's message and its reminders, sent on the core's scheduler exactly once.
 *
 * Jobs: "message" (key `appointment-<id>`) at the appointment's start, and one "reminder" per
 * reminder (key `appointment-<id>-<offset ms>`) that long before it. The scheduler runs a job
 * id once (same owner, tenant, name, key and due time, also across restarts); a handler that
 * throws is retried. What keeps a retry or a stale job from sending twice:
 *
 * 1. A job whose appointment is gone, no longer scheduled, moved (`data.at` ≠ its start) or
 *    whose reminder was removed is stale: nothing is sent.
 * 2. The ledger (`sends`: appointment, kind, due time) says a send was done: nothing is sent.
 * 3. Every core send carries an idempotency key (`appointment:<id>:<kind>:<due>:<part>`): a run
 *    that died after the core sent but before the ledger row was written sends again with the
 *    same key, and the core answers the first message instead of sending another.
 *
 * The message: the text (or the WABA template, whose text is the message), then the
 * complementary message, then the attachment; the ticket is closed after when the flag says
 * so. A client error of the core (contact unreachable, channel without templates) fails the
 * appointment with its code; anything else is thrown for the scheduler's retry, up to the
 * last attempt.
 */
import { coreApi, type CoreApi, type PlatformSend } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import { formatWall } from "./local-time";
import { reminderOffset } from "./rules";
import type { AppointmentRow, AppointmentStore } from "./store";

export const MESSAGE_JOB = "message";
export const REMINDER_JOB = "reminder";
export const ATTEMPTS = 3;
export const messageKey = (id: number) => `appointment-${id}`;
export const reminderKey = (id: number, offset: number) => `appointment-${id}-${offset}`;

export interface Firing {
  store: AppointmentStore;
  now(): number;
  timeZone(ctx: Context, tenantId: number): Promise<string>;
  changed(ctx: Context, tenantId: number, row: Pick<AppointmentRow, "id" | "status">): Promise<void>;
}

export interface Delivery {
  tenantId: number;
  attempt: number;
  data: { id?: unknown; at?: unknown; offset?: unknown };
}

export type FireResult = "stale" | "done" | "sent" | "failed";

type Outcome = { ok: true; ticketId: number } | { ok: false; error: string };

const clientError = (err: unknown) => {
  const e = err as { code?: number };
  return typeof e.code === "number" && e.code >= 400 && e.code < 500;
};
const codeOf = (err: unknown) => {
  const e = err as { type?: string; message?: string };
  return e.type?.startsWith("ERR_") ? e.type : (e.message ?? "ERR_UNIDENTIFIED");
};

/** The reminder's text: when, and the appointment's message. */
export const reminderText = (row: AppointmentRow, tz: string) => `⏰ ${formatWall(row.startAt, tz)} — ${row.message}`;

async function sendAll(api: CoreApi, tenantId: number, row: AppointmentRow, key: string, parts: PlatformSend[], attempt: number): Promise<Outcome> {
  let ticketId = 0;
  try {
    for (const [i, part] of parts.entries()) {
      const m = await api.messages.sendTo({ tenantId, contactId: row.contactId, connectionId: row.connectionId, ...part, idempotencyKey: `${key}:${i}` });
      if (m.status === "failed") return { ok: false, error: m.failReason ?? "ERR_UNIDENTIFIED" };
      ticketId = m.ticketId;
    }
    return { ok: true, ticketId };
  } catch (err) {
    // Transient (the core or its channel unreachable): the scheduler retries with the same keys.
    if (!clientError(err) && attempt < ATTEMPTS) throw err;
    return { ok: false, error: codeOf(err) };
  }
}

/** What the appointment's message sends, in order. */
export function messageParts(row: AppointmentRow): PlatformSend[] {
  const parts: PlatformSend[] = [];
  if (row.template) {
    const t = row.template;
    parts.push({ body: row.message, template: { name: t.name, language: t.language, components: t.params.length ? { body: t.params } : undefined } });
  } else parts.push({ body: row.message });
  if (row.complementaryMessage) parts.push({ body: row.complementaryMessage });
  if (row.attachment) parts.push({ body: "", media: row.attachment });
  return parts;
}

export async function fire(ctx: Context, f: Firing, name: string, job: Delivery): Promise<FireResult> {
  const id = Number(job.data.id);
  const at = Number(job.data.at);
  const row = await f.store.find(job.tenantId, id);
  if (!row || row.status !== "scheduled" || row.startAt !== at) return "stale";
  const isReminder = name === REMINDER_JOB;
  const offset = Number(job.data.offset ?? 0);
  if (isReminder && !row.reminders.some((r) => reminderOffset(r) === offset)) return "stale";
  const kind = isReminder ? `reminder-${offset}` : "message";
  const sends = f.store.sends(job.tenantId);
  const done = await sends.get({ appointmentId: id, kind, dueAt: at });
  if (done) {
    if (!isReminder) await settle(ctx, f, job.tenantId, row, done.state === "sent" ? { ok: true, ticketId: done.ticketId ?? 0 } : { ok: false, error: done.error ?? "ERR_UNIDENTIFIED" });
    return "done";
  }
  const api = coreApi(ctx);
  const key = `appointment:${id}:${kind}:${at}`;
  const parts = isReminder ? [{ body: reminderText(row, await f.timeZone(ctx, job.tenantId)) }] : messageParts(row);
  const outcome = await sendAll(api, job.tenantId, row, key, parts, job.attempt);
  if (outcome.ok && !isReminder && row.closeTicket) {
    try {
      await api.tickets.update({ tenantId: job.tenantId, id: outcome.ticketId, status: "closed" });
    } catch (err) {
      // Closed meanwhile (or gone): nothing to close. Anything else is retried.
      if (!clientError(err) && job.attempt < ATTEMPTS) throw err;
    }
  }
  await sends.upsert({ appointmentId: id, kind, dueAt: at, state: outcome.ok ? "sent" : "failed", ticketId: outcome.ok ? outcome.ticketId : null, error: outcome.ok ? null : outcome.error, at: f.now() });
  if (!isReminder) await settle(ctx, f, job.tenantId, row, outcome);
  return outcome.ok ? "sent" : "failed";
}

/** The appointment's message went (or failed for good): its status says so, once. */
async function settle(ctx: Context, f: Firing, tenantId: number, row: AppointmentRow, outcome: Outcome): Promise<void> {
  const values = outcome.ok ? { status: "sent" as const, ticketId: outcome.ticketId || null, errorMessage: null, updatedAt: f.now() } : { status: "failed" as const, errorMessage: outcome.error, updatedAt: f.now() };
  if (await f.store.updateIf(tenantId, row.id, { status: "scheduled", startAt: row.startAt }, values)) await f.changed(ctx, tenantId, { id: row.id, status: values.status });
}
