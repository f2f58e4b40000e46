/**
 * What the automation tests share (core/test/automation*.test.ts): a core on a TestClock with
 * the scheduler ticked by hand, a web chat connection, customers whose messages come in
 * through channels.inbound at the clock's time, and readers of what went out — the messages
 * the platform recorded and the web chat's own outbox (the channel side).
 */
import { randomUUID } from "node:crypto";
import { QueryTypes } from "sequelize";
import type { TestClock } from "../src/lib/clock";
import { schedulerOf } from "../src/scheduler";
import type { DayHours } from "../src/business-time/types";
import { startCore, uid, type TestCore, type TenantFixture } from "./helpers";

/** Local time of the tenants' default zone (America/Sao_Paulo, UTC-3 all year) as epoch ms. */
export const local = (isoLocal: string) => Date.parse(`${isoLocal}-03:00`);

/** Monday to Friday 08:00–12:00 and 13:00–18:00 (lunch in between), weekend closed. */
export const WEEK: DayHours[] = [
  { mode: "closed" },
  ...Array.from({ length: 5 }, (): DayHours => ({ mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:00", end: "18:00" } })),
  { mode: "closed" },
];

export function automationCore(clock: TestClock, reuse?: TestCore["store"]): Promise<TestCore> {
  return startCore({ clock, schedulerTickMs: 0, reuse });
}

export const tick = (t: TestCore) => schedulerOf(t.core.broker).tick();

export async function waitFor<T>(probe: () => Promise<T> | T, ok: (v: T) => boolean, what: string, ms = 8000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() - t0 > ms) throw new Error(`${what}: not so in ${ms} ms (last: ${JSON.stringify(v)})`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Lets the events of what just happened run before a test says nothing followed from them. */
export const settle = () => new Promise((r) => setTimeout(r, 400));

export interface Site {
  id: number;
  token: string;
}

export async function site(t: TestCore, f: TenantFixture, o: { greeting?: string; farewell?: string; queueId?: number } = {}): Promise<Site> {
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: o.queueId ?? f.queueIds[0], greeting: o.greeting, farewell: o.farewell }, f.admin);
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  return { id: c.body.id, token: c.body.token };
}

export async function setGlobalHours(t: TestCore, f: TenantFixture, messages: { outOfHours?: string; holiday?: string; lunch?: string }, days: DayHours[] = WEEK) {
  const r = await t.api.put("/business-hours/global", { active: true, days, messages }, f.admin);
  if (r.status !== 200) throw new Error(`hours: ${r.status} ${JSON.stringify(r.body)}`);
}

export async function setSetting(t: TestCore, f: TenantFixture, key: string, value: unknown) {
  const r = await t.api.put(`/settings/${key}`, { value }, f.admin);
  if (r.status !== 200) throw new Error(`setting ${key}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A web chat visitor: writes through channels.inbound at the clock's time, reads the channel's outbox. */
export class Customer {
  readonly externalId = randomUUID();
  ticketId = 0;

  constructor(
    private t: TestCore,
    private f: TenantFixture,
    private s: Site,
    private clock: TestClock,
    readonly name = "Ana Souza",
  ) {}

  /** Writes `body`; `on`: through another core of the same installation (another node). */
  async say(body: string, providerMessageId = `m-${uid()}`, on: TestCore = this.t) {
    const r = (await on.core.broker.call("channels.inbound", {
      tenantId: this.f.tenantId,
      connectionId: this.s.id,
      providerMessageId,
      timestamp: this.clock.now(),
      from: { externalId: this.externalId, name: this.name },
      body,
    })) as { messageId: number; ticketId: number; duplicate: boolean };
    this.ticketId = r.ticketId;
    return r;
  }

  /** What the web chat holds for this visitor on core `t` (the channel side: what reached it). */
  async received(t: TestCore = this.t): Promise<string[]> {
    const r = await t.api.get(`/webchat/${this.s.token}/messages?visitorId=${this.externalId}&after=0&wait=0`);
    if (r.status !== 200) throw new Error(`webchat poll: ${r.status} ${JSON.stringify(r.body)}`);
    return (r.body.items as Array<{ kind: string; body?: string }>).filter((i) => i.kind === "text").map((i) => i.body!);
  }
}

/** The texts the platform sent on a ticket (fromMe, no agent), oldest first, with their status. */
export async function platformSent(t: TestCore, tenantId: number, ticketId: number): Promise<Array<{ body: string; status: string }>> {
  return t.core.sequelize.query("SELECT body, status FROM messages WHERE tenantId = ? AND ticketId = ? AND fromMe = 1 AND userId IS NULL ORDER BY id", {
    replacements: [tenantId, ticketId],
    type: QueryTypes.SELECT,
  });
}

export const sentBodies = async (t: TestCore, tenantId: number, ticketId: number) => (await platformSent(t, tenantId, ticketId)).map((m) => m.body);

/** Waits until the platform's texts on the ticket are `n` and all handed to the channel. */
export const waitSent = (t: TestCore, tenantId: number, ticketId: number, n: number) =>
  waitFor(
    () => platformSent(t, tenantId, ticketId),
    (rows) => rows.length >= n && rows.every((r) => r.status !== "pending"),
    `${n} automatic message(s) on ticket ${ticketId}`,
  ).then((rows) => rows.map((r) => r.body));

export async function ticketRow(t: TestCore, tenantId: number, id: number) {
  return (await t.core.broker.call("tickets.getInternal", { tenantId, id })) as { id: number; status: string; protocol: string | null; closedAt: Date | null };
}

export async function logsOf(t: TestCore, tenantId: number, ticketId: number): Promise<Array<{ type: string; userId: number | null; data: unknown }>> {
  const rows = await t.core.sequelize.query<{ type: string; userId: number | null; data: unknown }>("SELECT type, userId, data FROM ticket_logs WHERE tenantId = ? AND ticketId = ? ORDER BY id", {
    replacements: [tenantId, ticketId],
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => ({ ...r, data: typeof r.data === "string" ? JSON.parse(r.data) : r.data }));
}

/** The ticket's pending auto-close job (runAt), or null. */
export async function autoCloseJob(t: TestCore, tenantId: number, ticketId: number): Promise<number | null> {
  const jobs = (await t.core.broker.call("scheduler.list", { owner: "automation", tenantId, name: "autoClose" })) as Array<{ key: string; runAt: number }>;
  return jobs.find((j) => j.key === String(ticketId))?.runAt ?? null;
}

/** What a job's run answered (the handler's result), once it has run. */
export async function jobResult(t: TestCore, jobId: string): Promise<unknown> {
  const queue = schedulerOf(t.core.broker).queues.queue("automation");
  const job = await queue.getJob(jobId);
  if (!job || !(await job.isCompleted())) return undefined;
  // Read again: the first read may predate the completion (its returnvalue still null) that isCompleted then saw.
  return (await queue.getJob(jobId))?.returnvalue;
}
