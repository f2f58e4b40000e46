import type { Caller, JobDelivery } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import type { Clock } from "../lib/clock";
import type { TicketRow } from "../tickets/contract";
import type { AutomationClaims } from "./claims";
import { fillText, firstNameOf } from "./decide";

export const OWNER = "automation";
export const AUTO_CLOSE_JOB = "autoClose";

export interface AutoCloseSetting {
  minutes: number;
  message?: string | null;
}

/** A ticket that holds its contact's active slot and is no group: what auto-close watches. */
export const watched = (t: TicketRow) => t.status !== "closed" && t.status !== "group" && !t.isGroup;

/**
 * Auto-close on the scheduler (see ./automation.service.ts): one job per ticket (key = its
 * id), moved by every message, cancelled by any close; its handler re-checks everything
 * before it claims and closes.
 *
 * "No message since" is told by the ticket's activity mark rather than by comparing
 * lastMessageAt with the clock: lastMessageAt holds the channels' and the machine's own
 * timestamps, the due time is the core's clock (a test's TestClock), and the two need not
 * agree. The job carries the mark it was scheduled for (the newest of the ticket's
 * lastMessageAt and the message's own time); a ticket whose lastMessageAt has passed it had a
 * message since.
 */
export function autoCloser(broker: Caller, claims: AutomationClaims, clock: Clock) {
  const key = (t: { id: number }) => String(t.id);

  async function schedule(t: TicketRow, minutes: number, mark: number): Promise<void> {
    await call(broker, "scheduler.schedule", { owner: OWNER, name: AUTO_CLOSE_JOB, key: key(t), tenantId: t.tenantId, runAt: clock.now() + minutes * 60_000, data: { mark } });
  }

  async function cancel(t: { id: number; tenantId: number }): Promise<void> {
    await call(broker, "scheduler.cancel", { owner: OWNER, name: AUTO_CLOSE_JOB, key: key(t), tenantId: t.tenantId });
  }

  return {
    schedule,
    cancel,

    /** A message on the ticket (either direction, `at` its time): the job moves to now + minutes; off or closed, it goes. */
    async onMessage(t: TicketRow, setting: AutoCloseSetting, at: number): Promise<void> {
      if (!watched(t) || !(setting.minutes > 0)) return cancel(t);
      await schedule(t, setting.minutes, Math.max(Number(t.lastMessageAt) || 0, at || 0));
    },

    /** The job: still active, still quiet since its mark, still on: claim, close, then its text. */
    async run(job: JobDelivery): Promise<{ closed: boolean; skipped?: string }> {
      const tenantId = job.tenantId;
      const t = await call(broker, "tickets.getInternal", { tenantId, id: Number(job.key) });
      if (!t || !watched(t)) return { closed: false, skipped: "inactive" };
      const setting = ((await call(broker, "settings.forTenant", { tenantId })).autoClose ?? { minutes: 0 }) as AutoCloseSetting;
      if (!(setting.minutes > 0)) return { closed: false, skipped: "disabled" };
      const mark = Number((job.data as { mark?: number }).mark ?? 0);
      const last = Number(t.lastMessageAt) || 0;
      if (last > mark) {
        // A message came after this job was due: its own job may have been moved by an
        // older message's late event, so the ticket gets one from its newest activity.
        await schedule(t, setting.minutes, last);
        return { closed: false, skipped: "newer message" };
      }
      const claim = await claims.claim(tenantId, t.id, "autoClose", last);
      if (claim === null) return { closed: false, skipped: "claimed" };
      const closed = await call(broker, "tickets.autoClose", { tenantId, id: t.id, reason: "inactivity" });
      if (!closed) return { closed: false, skipped: "closed meanwhile" };
      const text = setting.message?.trim();
      if (text) {
        const body = /\{\{/.test(text) ? fillText(text, { name: firstNameOf(await call(broker, "contacts.getInternal", { tenantId, id: t.contactId })), protocol: t.protocol ?? "" }) : text;
        const sent = await call(broker, "messages.platformSend", { tenantId, ticketId: t.id, body, afterClose: true });
        await claims.sent(tenantId, claim, sent.id);
      }
      return { closed: true };
    },
  };
}

export type AutoCloser = ReturnType<typeof autoCloser>;
