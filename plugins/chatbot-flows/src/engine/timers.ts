/**
 * The engine's timers, all jobs on the core's scheduler (due times by the core's clock, so a
 * test's TestClock drives them; a restart or a second node never loses or doubles one):
 *
 * - wait: the flow's wait time for an answer. One key per session, so asking the next
 *   question moves the session's one pending timeout rather than leaving the last one behind.
 *   The session keeps the due time the scheduler decided (`waitDue`), and a job acts only when
 *   it is that one and the session still waits: an answer that came first wins, and a job
 *   already handed to the scheduler's queue when it was moved does nothing (the job is also
 *   cancelled when the session ends). The due time, not the job's data, tells them apart:
 *   scheduling the same key for the same instant keeps the first job's data.
 * - delay: a message node's pause between interactions (never a sleep in a handler).
 * - closure: how long a closure flow's question waits for the customer's new ticket.
 */
import type { Caller, PluginJobs } from "@openatende/plugin-sdk";

export const JOB_WAIT = "flowWait";
export const JOB_DELAY = "flowDelay";
export const JOB_CLOSURE = "flowClosure";

export interface WaitJobData extends Record<string, unknown> {
  sessionId: number;
  nodeId: string;
  seq: number;
}
export interface DelayJobData extends WaitJobData {
  index: number;
}
export interface ClosureJobData extends Record<string, unknown> {
  sessionId: number;
}

/** What a turn's timers need to know of the session. */
interface Waiting {
  tenantId: number;
  s: { id: number; at: string | null; openStep: number };
  settings: { waitMinutes: number };
}

export class Timers {
  constructor(
    private readonly jobs: PluginJobs,
    private readonly caller: Caller,
  ) {}

  /** Answers the due time the scheduler decided. */
  async scheduleWait(w: Waiting): Promise<number> {
    const data: WaitJobData = { sessionId: w.s.id, nodeId: w.s.at ?? "", seq: w.s.openStep };
    return (await this.jobs.schedule(this.caller, { name: JOB_WAIT, key: `wait:${w.s.id}`, tenantId: w.tenantId, delayMs: w.settings.waitMinutes * 60_000, data })).runAt;
  }

  /** Answers the due time the scheduler decided. */
  async scheduleDelay(w: Waiting, index: number, seconds: number): Promise<number> {
    const data: DelayJobData = { sessionId: w.s.id, nodeId: w.s.at ?? "", seq: w.s.openStep, index };
    return (await this.jobs.schedule(this.caller, { name: JOB_DELAY, key: `delay:${w.s.id}`, tenantId: w.tenantId, delayMs: Math.round(seconds * 1000), data })).runAt;
  }

  async scheduleClosure(tenantId: number, sessionId: number, minutes: number): Promise<void> {
    const data: ClosureJobData = { sessionId };
    await this.jobs.schedule(this.caller, { name: JOB_CLOSURE, key: `closure:${sessionId}`, tenantId, delayMs: minutes * 60_000, data });
  }

  /** A session that ended leaves no timer behind (a chat flow's delay, a closure flow's wait for the new ticket). */
  async cancelAll(tenantId: number, sessionId: number, kind: "chat" | "entry" | "closure"): Promise<void> {
    const names = kind === "chat" ? [JOB_WAIT, JOB_DELAY] : kind === "closure" ? [JOB_WAIT, JOB_CLOSURE] : [JOB_WAIT];
    const keys: Record<string, string> = { [JOB_WAIT]: `wait:${sessionId}`, [JOB_DELAY]: `delay:${sessionId}`, [JOB_CLOSURE]: `closure:${sessionId}` };
    await Promise.all(names.map((name) => this.jobs.cancel(this.caller, { name, key: keys[name], tenantId })));
  }
}
