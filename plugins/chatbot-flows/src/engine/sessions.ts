/**
 * The engine's sessions and run steps in the plugin's own database (migrations/0002-sessions.ts),
 * always through the SDK's tenant-scoped repository.
 *
 * Turns of one session never overlap, on any node: a turn claims the session by a
 * compare-and-set on its `version` (only a row still at the version read, and not held by a
 * live claim, is taken) and sets `busyUntil`, a lease that frees the row if the node dies
 * mid-turn. The turn then talks to the core without holding a database connection, and its
 * release writes the new state, again only at the claimed version, and its run steps. Within one process, turns of a ticket also queue behind each other in
 * memory (KeyedQueue), so they rarely meet at the database.
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, type PluginData } from "@openatende/plugin-sdk";
import type { FlowKind, FlowRun, RunState } from "../model";

export type SessionStatus = FlowRun["status"];
/** What a live session waits for: a customer's answer, a message node's delay, the answer to a closure flow on a new ticket. */
export type SessionWait = "answer" | "delay" | "closure";

export interface SessionRow extends Record<string, unknown> {
  id: number;
  ticketId: number;
  liveTicketId: number | null;
  flowId: number;
  kind: FlowKind;
  contactId: number;
  connectionId: number | null;
  contactName: string;
  status: SessionStatus;
  at: string | null;
  wait: SessionWait | null;
  resume: number;
  /** When the session's current timer (wait or delay) is due, by the scheduler's clock; 0: none. */
  waitDue: number;
  attempts: number;
  vars: Record<string, string>;
  lastText: string | null;
  seen: string[];
  stepSeq: number;
  openStep: number;
  version: number;
  busyUntil: number;
  startedAt: number;
  endedAt: number | null;
}

export interface StepRow extends Record<string, unknown> {
  sessionId: number;
  seq: number;
  nodeId: string;
  state: RunState;
  detail: string | null;
  at: number;
}

/** How long a claim holds a session when its node does not release it (it died mid-turn). */
export const LEASE_MS = 30_000;
/** Inbound ids a session remembers (a repeat comes soon after the original). */
export const SEEN_MAX = 40;
export const RUNS_LISTED = 50;

const newId = () => randomInt(1, 2 ** 31 - 1);

/** Thrown when another node holds the session: the delivery (inbound, event, job) is tried again later. */
export class SessionBusyError extends Error {
  constructor(readonly sessionId: number) {
    super(`session ${sessionId} is in another node's turn`);
    this.name = "SessionBusyError";
  }
}

export type NewSession = Pick<SessionRow, "ticketId" | "liveTicketId" | "flowId" | "kind" | "contactId" | "connectionId" | "contactName" | "startedAt"> & Partial<SessionRow>;

export class SessionStore {
  constructor(
    private readonly data: PluginData,
    private readonly now: () => number = Date.now,
  ) {}

  private sessions(tenantId: number) {
    return this.data.forTenant(tenantId).table<SessionRow>("sessions");
  }

  /** The session that may still act on the ticket. */
  live(tenantId: number, ticketId: number): Promise<SessionRow | null> {
    return this.sessions(tenantId).get({ liveTicketId: ticketId });
  }

  /** The ticket's most recent session, live or not (a late repeat of the message that ended it is still recognised). */
  async latestOf(tenantId: number, ticketId: number): Promise<SessionRow | null> {
    const [row] = await this.sessions(tenantId).find({ ticketId }, { orderBy: [["startedAt", "desc"], ["id", "desc"]], limit: 1 });
    return row ?? null;
  }

  byId(tenantId: number, id: number): Promise<SessionRow | null> {
    return this.sessions(tenantId).get({ id });
  }

  /** Closure sessions of a contact still waiting for the answer on a new ticket. */
  async waitingClosures(tenantId: number, contactId: number): Promise<SessionRow[]> {
    const rows = await this.sessions(tenantId).find({ contactId, status: "running", kind: "closure" }, { orderBy: [["startedAt", "desc"]] });
    return rows.filter((r) => r.wait === "closure" && r.liveTicketId === null);
  }

  /**
   * A new session, already claimed by the caller (version 1, leased). Null when the ticket got
   * a live session meanwhile (another node's start): the caller reads that one.
   */
  async create(tenantId: number, init: NewSession): Promise<SessionRow | null> {
    const table = this.sessions(tenantId);
    for (let attempt = 0; ; attempt++) {
      const row: SessionRow = {
        status: "running",
        at: null,
        wait: null,
        resume: 0,
        waitDue: 0,
        attempts: 0,
        vars: {},
        lastText: null,
        seen: [],
        stepSeq: 0,
        openStep: -1,
        endedAt: null,
        ...init,
        id: newId(),
        version: 1,
        busyUntil: this.now() + LEASE_MS,
      };
      try {
        await table.insert(row);
        return row;
      } catch (err) {
        if (!(err instanceof DuplicateRowError)) throw err;
        if (row.liveTicketId !== null && (await table.get({ liveTicketId: row.liveTicketId }))) return null;
        if (attempt > 5) throw err;
      }
    }
  }

  /**
   * Claims a session read as `row` for one turn: answers the row as claimed (its version moved
   * on), or throws SessionBusyError when another turn holds it. A row changed since it was read
   * is read again and claimed if free.
   */
  async claim(tenantId: number, row: SessionRow): Promise<SessionRow> {
    const table = this.sessions(tenantId);
    let current: SessionRow | null = row;
    for (let attempt = 0; attempt < 5 && current; attempt++) {
      const now = this.now();
      if (current.busyUntil > now) throw new SessionBusyError(current.id);
      const next = { version: current.version + 1, busyUntil: now + LEASE_MS };
      if ((await table.update({ id: current.id, version: current.version }, next)) === 1) return { ...current, ...next };
      current = await table.get({ id: current.id });
    }
    if (!current) throw new Error(`session ${row.id} is gone`);
    throw new SessionBusyError(row.id);
  }

  /**
   * Ends a turn: writes the session's new state (from `claimed`, the row the claim answered),
   * frees the lease, and writes the steps the turn recorded. False when the claim was lost
   * meanwhile (the lease ran out and another turn took the row): the state is not written. The
   * steps are written all the same, at once rather than in a transaction with the state: they
   * record what the turn did (its messages went), and a later turn's steps of the same seq
   * replace them.
   */
  async release(tenantId: number, claimed: SessionRow, state: SessionRow, steps: StepRow[]): Promise<boolean> {
    const changes: Partial<SessionRow> = {};
    for (const k of Object.keys(state) as Array<keyof SessionRow>) {
      if (k === "id" || k === "version" || k === "busyUntil") continue;
      if (JSON.stringify(state[k]) !== JSON.stringify(claimed[k])) (changes as Record<string, unknown>)[k] = state[k];
    }
    const scope = this.data.forTenant(tenantId);
    const [n] = await Promise.all([
      scope.table<SessionRow>("sessions").update({ id: claimed.id, version: claimed.version }, { ...changes, version: claimed.version + 1, busyUntil: 0 }),
      steps.length ? scope.table<StepRow>("run_steps").upsertMany(steps) : Promise.resolve(),
    ]);
    return n === 1;
  }

  /** Frees a claim without writing the turn (it failed): the next delivery starts from the state before it. */
  async abandon(tenantId: number, claimed: SessionRow): Promise<void> {
    await this.sessions(tenantId).update({ id: claimed.id, version: claimed.version }, { version: claimed.version + 1, busyUntil: 0 });
  }

  /** The flow's last sessions, newest first, with their steps. */
  async runs(tenantId: number, flowId: number, limit = RUNS_LISTED): Promise<Array<{ session: SessionRow; steps: StepRow[] }>> {
    const scope = this.data.forTenant(tenantId);
    const sessions = await scope.table<SessionRow>("sessions").find({ flowId }, { orderBy: [["startedAt", "desc"], ["id", "desc"]], limit });
    if (!sessions.length) return [];
    const steps = await scope.table<StepRow>("run_steps").find({ sessionId: sessions.map((s) => s.id) }, { orderBy: [["sessionId", "asc"], ["seq", "asc"]] });
    const bySession = new Map<number, StepRow[]>();
    for (const st of steps) bySession.set(st.sessionId, [...(bySession.get(st.sessionId) ?? []), st]);
    return sessions.map((session) => ({ session, steps: bySession.get(session.id) ?? [] }));
  }

  runningCount(tenantId: number, flowId: number): Promise<number> {
    return this.sessions(tenantId).count({ flowId, status: "running" });
  }
}

/** Runs tasks of one key one after the other (a ticket's turns in this process); other keys run alongside. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const result = prev.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
