/**
 * What the NPS tests share: a real core (MariaDB, Redis) on a TestClock whose scheduler is
 * ticked by hand, tenants with a web chat connection (its farewell set) and the survey on,
 * customers who write through the channels' inbound and read the web chat's outbox (what
 * reached the channel, in order), and readers of the plugin's surveys and jobs.
 */
import { randomUUID } from "node:crypto";
import { createTenant, startCore, uid, type Auth, type Res, type TenantFixture, type TestCore, ok, expectError, waitFor as sharedWaitFor } from "@openatende/core/testkit";
import { TestClock } from "../../../core/src/lib/clock";
import { schedulerOf } from "../../../core/src/scheduler";
export { ok, expectError };

/** The testkit's waitFor, by default 15 s at most, every 60 ms. */
export const waitFor = <T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 15_000) => sharedWaitFor(what, read, good, ms, 60);

export type { Auth, Res, TenantFixture, TestCore };
export { TestClock };

export const MIN = 60_000;

/** A core on `clock`, its scheduler ticked by hand; `restartOf`: the same installation after stop({ keep: true }). */
export function npsCore(clock: TestClock, restartOf?: TestCore): Promise<TestCore> {
  return startCore({ clock, schedulerTickMs: 0, env: { NAMESPACE: restartOf?.config.namespace ?? `nps-${uid()}` }, ...(restartOf ? { reuse: restartOf.store } : {}) });
}

/** Runs what the scheduler has due by the clock. */
export const tick = (t: TestCore) => schedulerOf(t.core.broker).tick();

/** Moves the clock `ms` past the later of itself and the machine's time (stamps the core took from either are behind it), then ticks. */
export async function later(t: TestCore, clock: TestClock, ms: number): Promise<void> {
  clock.set(Math.max(clock.now(), Date.now()) + ms);
  await tick(t);
}

/** Lets what just happened run its events before a test says nothing followed. */
export const settle = (ms = 600) => new Promise((r) => setTimeout(r, ms));

export const FAREWELL = "Até logo, {{name}}!";

export interface Shop extends TenantFixture {
  conn: number;
  token: string;
}

/** A tenant with a web chat connection on its first queue (farewell set) and the NPS settings given. */
export async function shop(t: TestCore, settings: Record<string, unknown> | null = { enabled: true }): Promise<Shop> {
  const f = await createTenant(t, { tier: "PLUS" });
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0], farewell: FAREWELL }, f.admin), 201);
  await waitFor("GET /nps/settings", () => t.api.get("/nps/settings", f.admin), (r) => r.status === 200);
  if (settings) await ok(t.api.put("/nps/settings", settings, f.admin));
  return { ...f, conn: c.id, token: c.token };
}

/** A web chat visitor: writes through channels.inbound, reads what reached the channel for it. */
export class Customer {
  readonly externalId = randomUUID();
  ticketId = 0;
  contactId = 0;

  constructor(
    public t: TestCore,
    private s: Shop,
    readonly name = "Ana Souza",
  ) {}

  async say(body: string, providerMessageId = `m-${uid()}`): Promise<{ messageId: number; ticketId: number; duplicate: boolean }> {
    const r = (await this.t.core.broker.call("channels.inbound", {
      tenantId: this.s.tenantId,
      connectionId: this.s.conn,
      providerMessageId,
      timestamp: Date.now(),
      from: { externalId: this.externalId, name: this.name },
      body,
    })) as { messageId: number; ticketId: number; duplicate: boolean };
    if (!this.ticketId) this.ticketId = r.ticketId;
    if (!this.contactId) this.contactId = ((await this.t.core.broker.call("tickets.getInternal", { tenantId: this.s.tenantId, id: r.ticketId })) as { contactId: number }).contactId;
    return r;
  }

  /**
   * The texts that reached the web chat for this visitor since the core started, oldest first
   * (the visitor's poll, asked on the bus: the HTTP route limits polls per address).
   */
  async received(): Promise<string[]> {
    const r = (await this.t.core.broker.call("v1.channel-webchat.visitorPoll", { token: this.s.token, visitorId: this.externalId, after: 0, wait: 0 })) as { items: Array<{ kind: string; body?: string }> };
    return r.items.filter((i) => i.kind === "text").map((i) => i.body!);
  }

  /** The texts the platform stored as sent on a ticket (no agent), oldest first: they outlive a restart. */
  async sentOn(ticketId: number): Promise<string[]> {
    const r = await this.t.api.get(`/messages/${ticketId}?pageSize=100`, this.s.supervisor);
    if (r.status !== 200) throw new Error(`messages of ${ticketId}: ${r.status} ${JSON.stringify(r.body)}`);
    const rows = (r.body.messages ?? r.body.rows ?? r.body) as Array<{ id: number; body: string; fromMe: boolean; userId: number | null }>;
    return [...rows].sort((x, y) => x.id - y.id).filter((m) => m.fromMe && !m.userId).map((m) => m.body);
  }

  /** The contact's active (open or pending) ticket on the connection, or null. */
  active(): Promise<{ id: number; status: string } | null> {
    return this.t.core.broker.call("tickets.findActive", { tenantId: this.s.tenantId, contactId: this.contactId, connectionId: this.s.conn }) as Promise<{ id: number; status: string } | null>;
  }
}

/**
 * A customer writes in (or, once known, the agent opens a ticket for the contact: a message of
 * the contact could be a survey's reply), an agent takes the ticket and closes it.
 */
export async function servedAndClosed(t: TestCore, s: Shop, c: Customer, who: Auth = s.agent): Promise<number> {
  const ticketId = c.contactId ? (await ok(t.api.post("/tickets", { contactId: c.contactId, connectionId: s.conn }, who), 201)).id : (await c.say("Oi, preciso de ajuda")).ticketId;
  await ok(t.api.put(`/tickets/${ticketId}`, { status: "open" }, who));
  await ok(t.api.put(`/tickets/${ticketId}`, { status: "closed" }, who));
  return ticketId;
}

export interface PendingJob {
  key: string;
  runAt: number;
  name: string;
  data: Record<string, unknown>;
}

/** The plugin's pending jobs of the tenant (the scheduler's list). */
export function jobsOf(t: TestCore, tenantId: number, name?: string): Promise<PendingJob[]> {
  return t.core.broker.call("scheduler.list", { owner: "module-nps", tenantId, ...(name ? { name } : {}) }) as Promise<PendingJob[]>;
}

/** Waits for the request job of a ticket's close (the ticket.closed event reached the plugin), answers its due time. */
export async function requestJob(t: TestCore, tenantId: number, ticketId: number): Promise<PendingJob> {
  const jobs = await waitFor(`the request job of ticket ${ticketId}`, () => jobsOf(t, tenantId, "request"), (l) => l.some((j) => j.key.startsWith(`ticket-${ticketId}-`)));
  return jobs.find((j) => j.key.startsWith(`ticket-${ticketId}-`))!;
}

export interface Survey {
  id: number;
  ticketId: number;
  state: string;
  score: number | null;
  npsGroup: string | null;
  queueId: number | null;
  userId: number | null;
  closedVia: string;
  scale: number;
}

export async function surveyOf(t: TestCore, who: Auth, ticketId: number): Promise<Survey | undefined> {
  const r = await ok<{ rows: Survey[] }>(t.api.get("/nps/surveys?limit=100", who));
  return r.rows.find((s) => s.ticketId === ticketId);
}

/** The survey's texts the tests read (placeholders filled by the plugin). */
export const TEXTS = {
  requestMessage: "{{name}}, de 0 a {{max}}, que nota você dá ao atendimento?",
  thanksMessage: "Obrigado, {{name}}!",
  invalidMessage: "Responda só com um número de 0 a {{max}}, {{name}}.",
  timeoutMessage: "Pesquisa encerrada, {{name}}.",
};

/**
 * A whole survey: the customer is served and the ticket closed by `who`, the request goes
 * after the farewell (the clock moved to its job), and `reply` (if any) is the answer.
 */
export async function surveyed(t: TestCore, clock: TestClock, s: Shop, c: Customer, reply?: string, who: Auth = s.agent): Promise<number> {
  const ticketId = await servedAndClosed(t, s, c, who);
  const job = await requestJob(t, s.tenantId, ticketId);
  clock.set(Math.max(clock.now(), job.runAt));
  await tick(t);
  // The supervisor reads (a browser journey has the admin signed in: one session per account).
  await waitFor("the request", () => surveyOf(t, s.supervisor, ticketId), (v) => v?.state === "waiting");
  if (reply !== undefined) {
    await c.say(reply);
    await waitFor("the answer", () => surveyOf(t, s.supervisor, ticketId), (v) => v?.state === "answered");
  }
  return ticketId;
}
