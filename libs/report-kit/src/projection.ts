/**
 * A report plugin's projection: rows of its own, written from the core API and kept current by
 * core events, so a report reads one indexed table of the plugin instead of core tables.
 *
 * Life of a tenant's projection (the plugin learns of no install or enable: the core has no such
 * hook or event, so the backfill is lazy):
 *
 * 1. The first report query of a tenant (`ready`) takes the tenant's marker row in
 *    `rk_state` (an insert: one node wins, the others wait) and backfills in the background by
 *    paging through the core API (`ProjectionSource.backfill`), beating the marker as it goes.
 *    The query waits up to `waitMs` and otherwise answers `<prefix>_PROJECTION_BUILDING` (503)
 *    with the rows written so far; the next query finds it ready.
 * 2. From the moment the marker exists, core events are applied (`onEvent`), each once: its id
 *    is written in `rk_events` in the same transaction as its change. Events of a tenant with
 *    no marker are skipped (the backfill will read the state they made). Rows carry the
 *    source's version (the ticket's updatedAt) so a backfill page read before an event never
 *    overwrites what the event wrote.
 * 3. `rebuild` empties the projection's tables and backfills again (admins, after a disable
 *    period during which no events came). A marker whose beat stopped (its node died) for
 *    `staleMs` is taken over by the next query.
 *
 * The plugin ships PROJECTION_MIGRATION among its migrations (the two tables above), and
 * PROJECTION_PROGRESS_MIGRATION (how far a backfill is: the rows read of those the core counted,
 * which a query told _PROJECTION_BUILDING gets as `percent`, and the screens show).
 */
import { randomUUID } from "node:crypto";
import { DuplicateRowError, PluginError, type CoreApi, type PlatformEventEnvelope, type PluginData, type PluginMigration, type TenantData } from "@openatende/plugin-sdk";

export const PROJECTION_MIGRATION: PluginMigration = {
  name: "0000-report-kit-projection",
  async up(schema) {
    await schema.createTable("rk_state", {
      columns: {
        name: { type: "string", length: 64 },
        status: { type: "string", length: 16 },
        owner: { type: "string", length: 64 },
        startedAt: { type: "bigint" },
        beatAt: { type: "bigint" },
        finishedAt: { type: "bigint", nullable: true },
        rows: { type: "bigint", default: 0 },
      },
      primaryKey: ["name"],
    });
    await schema.createTable("rk_events", {
      columns: { eventId: { type: "string", length: 100 }, day: { type: "integer" } },
      primaryKey: ["eventId"],
      indexes: [{ columns: ["day"] }],
    });
  },
};

/** How far a backfill is: the source's rows read, of those the core counted when it began. */
export const PROJECTION_PROGRESS_MIGRATION: PluginMigration = {
  name: "0000-report-kit-projection-progress",
  async up(schema) {
    await schema.addColumn("rk_state", "seen", { type: "bigint", default: 0 });
    await schema.addColumn("rk_state", "expected", { type: "bigint", default: 0 });
  },
};

export interface ProjectionState extends Record<string, unknown> {
  name: string;
  status: "running" | "ready";
  owner: string;
  startedAt: number;
  beatAt: number;
  finishedAt: number | null;
  rows: number;
  /** Rows of the source read so far, of `expected` (0: not told). */
  seen: number;
  expected: number;
}

/** A state's progress in whole percent: 100 when ready, at most 99 while running. */
export function progressPercent(st: Pick<ProjectionState, "status" | "seen" | "expected"> | null): number {
  if (!st) return 0;
  if (st.status === "ready") return 100;
  return st.expected > 0 ? Math.min(99, Math.floor((st.seen * 100) / st.expected)) : 0;
}

export interface BackfillRun {
  api: CoreApi;
  tenantId: number;
  tenant: TenantData;
  /**
   * Call after each page: counts the rows written and keeps the marker alive; `of` says how far
   * the source is (rows read, of how many its first page counted) for the screens' percent.
   */
  progress(rowsWritten: number, of?: { seen: number; expected: number }): Promise<void>;
}

/** What a report plugin says about its projection: how to empty it and how to fill it from the core API. */
export interface ProjectionSource {
  /** The marker's name ("tickets"): one projection per source. */
  name: string;
  /** Deletes the tenant's rows of every table the projection writes. */
  clear(tenant: TenantData): Promise<void>;
  /** Pages through the core API and writes the tenant's rows; answers how many it wrote. */
  backfill(run: BackfillRun): Promise<number>;
}

export interface ProjectionOptions {
  /** The plugin's error prefix ("ERR_REPORT_TICKETS"): its _PROJECTION_BUILDING and _PROJECTION_BUSY codes. */
  codePrefix: string;
  now?: () => number;
  /** How long a query waits for a backfill before answering _PROJECTION_BUILDING (default 15 s). */
  waitMs?: number;
  /** A marker not beaten for this long is taken over (default 60 s). */
  staleMs?: number;
  /** Days an applied event's id is remembered (default 8: the core retries far sooner). */
  eventDays?: number;
}

const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Projection {
  private readonly owner = randomUUID();
  private readonly running = new Map<number, Promise<void>>();
  private readonly readyTenants = new Set<number>();
  private readonly waiting = new Map<number, Promise<void>>();
  private readonly opts: Required<ProjectionOptions>;

  constructor(
    private readonly data: PluginData,
    private readonly source: ProjectionSource,
    private readonly api: () => CoreApi,
    opts: ProjectionOptions,
  ) {
    this.opts = { now: Date.now, waitMs: 15_000, staleMs: 60_000, eventDays: 8, ...opts };
  }

  /** The tenant's scope of the plugin's data (the projection's tables are read through it). */
  tenant(tenantId: number): TenantData {
    return this.data.forTenant(tenantId);
  }

  private marker(tenant: TenantData) {
    return tenant.table<ProjectionState>("rk_state");
  }

  async state(tenantId: number): Promise<ProjectionState | null> {
    const row = await this.marker(this.data.forTenant(tenantId)).get({ name: this.source.name });
    if (!row) return null;
    return { ...row, startedAt: Number(row.startedAt), beatAt: Number(row.beatAt), finishedAt: row.finishedAt === null ? null : Number(row.finishedAt), rows: Number(row.rows), seen: Number(row.seen ?? 0), expected: Number(row.expected ?? 0) };
  }

  /** Takes the tenant's marker for a run: true when this node is to backfill now. */
  private async take(tenantId: number, force: boolean): Promise<"ready" | "busy" | "taken"> {
    const now = this.opts.now();
    const table = this.marker(this.data.forTenant(tenantId));
    const fresh: ProjectionState = { name: this.source.name, status: "running", owner: this.owner, startedAt: now, beatAt: now, finishedAt: null, rows: 0, seen: 0, expected: 0 };
    const row = await this.state(tenantId);
    if (!row) {
      try {
        await table.insert(fresh);
        return "taken";
      } catch (err) {
        if (err instanceof DuplicateRowError) return "busy";
        throw err;
      }
    }
    if (row.status === "ready" && !force) return "ready";
    if (row.status === "running" && (now - row.beatAt < this.opts.staleMs || this.running.has(tenantId))) return "busy";
    // Compare-and-set on the owner and beat we read: of two nodes taking over, one wins.
    const n = await table.update({ name: this.source.name, owner: row.owner, beatAt: row.beatAt }, { status: "running", owner: this.owner, startedAt: now, beatAt: now, finishedAt: null, rows: 0, seen: 0, expected: 0 });
    return n === 1 ? "taken" : "busy";
  }

  private run(tenantId: number, clear: boolean): Promise<void> {
    const tenant = this.data.forTenant(tenantId);
    const table = this.marker(tenant);
    const job = (async () => {
      let rows = 0;
      if (clear) await this.source.clear(tenant);
      const progress = async (written: number, of?: { seen: number; expected: number }) => {
        rows += written;
        const far = of ? { seen: of.seen, expected: Math.max(of.expected, of.seen) } : {};
        await table.update({ name: this.source.name, owner: this.owner }, { beatAt: this.opts.now(), rows, ...far });
      };
      await this.source.backfill({ api: this.api(), tenantId, tenant, progress });
      await table.update({ name: this.source.name, owner: this.owner }, { status: "ready", beatAt: this.opts.now(), finishedAt: this.opts.now(), rows });
      this.readyTenants.add(tenantId);
    })();
    const tracked = job.finally(() => this.running.delete(tenantId));
    this.running.set(tenantId, tracked);
    // A failed backfill leaves the marker running: it goes stale and the next query retries.
    tracked.catch(() => undefined);
    return tracked;
  }

  /** Waits until the tenant's projection is filled (starting the backfill when nobody has). */
  async ready(tenantId: number): Promise<void> {
    if (this.readyTenants.has(tenantId)) return;
    // Concurrent queries of one node share one wait (and so one take of the marker).
    let waiting = this.waiting.get(tenantId);
    if (!waiting) {
      waiting = this.waitReady(tenantId).finally(() => this.waiting.delete(tenantId));
      this.waiting.set(tenantId, waiting);
    }
    return waiting;
  }

  private async waitReady(tenantId: number): Promise<void> {
    const deadline = Date.now() + this.opts.waitMs;
    for (;;) {
      const mine = this.running.get(tenantId);
      if (mine) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([mine.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))))]);
        clearTimeout(timer);
      } else {
        const r = await this.take(tenantId, false);
        if (r === "ready") {
          this.readyTenants.add(tenantId);
          return;
        }
        if (r === "taken") {
          void this.run(tenantId, false);
          continue;
        }
        await sleep(200);
      }
      if (this.readyTenants.has(tenantId)) return;
      if (Date.now() >= deadline) {
        const st = await this.state(tenantId);
        if (st?.status === "ready") {
          this.readyTenants.add(tenantId);
          return;
        }
        throw new PluginError(`${this.opts.codePrefix}_PROJECTION_BUILDING`, 503, { rows: st?.rows ?? 0, percent: progressPercent(st) });
      }
    }
  }

  /**
   * Empties the tenant's projection and fills it again; another run in progress: _PROJECTION_BUSY
   * (409). `onStarted` runs once the marker says running (a live screen told then reads "rebuilding").
   */
  async rebuild(tenantId: number, onStarted?: () => Promise<void>): Promise<ProjectionState> {
    const r = await this.take(tenantId, true);
    if (r !== "taken") throw new PluginError(`${this.opts.codePrefix}_PROJECTION_BUSY`, 409);
    this.readyTenants.delete(tenantId);
    const run = this.run(tenantId, true);
    await onStarted?.();
    await run;
    return (await this.state(tenantId))!;
  }

  /**
   * Applies an event once: `apply` runs in a transaction with the record of the event's id, so a
   * redelivered event changes nothing. "untracked": the tenant's projection was never started.
   */
  async onEvent(envelope: PlatformEventEnvelope, apply: (tx: TenantData) => Promise<void>): Promise<"applied" | "duplicate" | "untracked"> {
    const tenant = this.data.forTenant(envelope.tenantId);
    const st = await this.state(envelope.tenantId);
    if (!st) return "untracked";
    const day = Math.floor(this.opts.now() / DAY);
    try {
      await tenant.transaction(async (tx) => {
        await tx.table("rk_events").insert({ eventId: envelope.id.slice(0, 100), day });
        await apply(tx);
      });
    } catch (err) {
      if (err instanceof DuplicateRowError) return "duplicate";
      throw err;
    }
    if (Math.random() < 0.01) await this.forgetEvents(envelope.tenantId);
    return "applied";
  }

  /** Forgets the ids of events older than eventDays (the core never redelivers that late). */
  async forgetEvents(tenantId: number): Promise<number> {
    const today = Math.floor(this.opts.now() / DAY);
    const old: number[] = [];
    for (let d = today - this.opts.eventDays - 60; d < today - this.opts.eventDays; d++) old.push(d);
    return this.data.forTenant(tenantId).table("rk_events").delete({ day: old });
  }
}
