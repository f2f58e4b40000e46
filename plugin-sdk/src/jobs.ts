/**
 * Jobs: work a plugin wants done at a time (a reminder, a timeout, a daily digest), run by the
 * core's one scheduler. The scheduler keeps every job under the installation's Redis prefix in
 * a namespace of its owner (the plugin's id), so plugins never share or see each other's
 * queues, and makes a job exactly-once: its id is owner + tenant + name + key + due time, so
 * scheduling it twice, a retry or a restart never runs it twice.
 *
 *   // in the plugin's service schema
 *   created() { this.jobs = pluginJobs(this); },
 *   actions: {
 *     ...jobActions({
 *       async remind(ctx, job) { await sendReminder(ctx, job.tenantId, job.data); },
 *     }),
 *     async book(ctx) {
 *       await this.jobs.schedule(ctx, { name: "remind", key: `booking-${id}`, tenantId, runAt: at - 3600_000, data: { id } });
 *     },
 *   },
 *
 * Delivery: when a job is due, the scheduler calls the action `v<major>.<plugin id>.runJob`
 * (PLUGIN_JOB_ACTION) of the service that scheduled it with a JobDelivery; jobActions() routes
 * it to the handler of the job's `name`. A handler that throws is retried (`attempts`); one
 * that finished is never run again for that job id, even if the node crashed before the
 * scheduler recorded it. Side effects outside the plugin (a message sent) should still carry
 * the job id as their idempotency key.
 *
 * How to extend: add optional fields only.
 */
import type { Context, ServiceSchema } from "moleculer";
import type { Caller } from "./helpers";

/**
 * How a job repeats: every `n` milliseconds (the next run is `n` after the previous due
 * time), or at a wall-clock time `at` ("HH:MM") in the time zone `tz` (IANA name, default
 * "UTC"), daily or on the weekdays `days` (0 = Sunday … 6 = Saturday). Missed occurrences
 * (the platform was down) are not caught up: the job runs once and then at the next one.
 */
export type JobRecurrence = number | { at: string; days?: number[]; tz?: string };

export interface ScheduleJobParams {
  /** Who owns the job: a core domain ("tickets") or a plugin's id. pluginJobs() fills it. */
  owner: string;
  /** What kind of job it is, the handler that runs it ("autoClose", "remind"): letters, digits, `_ . -`. */
  name: string;
  /** Which one (a ticket id, a booking id): one pending occurrence per owner + tenant + name + key. Scheduling the key again moves it. */
  key: string;
  tenantId: number;
  /** When: an instant (ms since the epoch, or an ISO date), a delay from now, or `every` alone (first run one period from now). */
  runAt?: number | string;
  delayMs?: number;
  every?: JobRecurrence;
  /** Handed to the handler as is (JSON). */
  data?: Record<string, unknown>;
  /** Runs of a handler that throws, first included (default 3). */
  attempts?: number;
  /** Wait before a retry, doubled each time (default 5000; 0 retries at once). */
  backoffMs?: number;
  /** Plugins only (pluginJobs fills it): the service that runs the job, "v<major>.<id>". */
  service?: string;
}

export interface ScheduleJobResult {
  jobId: string;
  /** The due time decided (ms since the epoch). */
  runAt: number;
  /** "unchanged": the same job (same due time) was already pending; "replaced": the key's earlier occurrence was moved. */
  status: "created" | "unchanged" | "replaced";
}

export interface CancelJobParams {
  owner: string;
  tenantId: number;
  name: string;
  key: string;
}

export interface CancelJobResult {
  /** False when nothing was pending for that key (already run, or never scheduled). */
  cancelled: boolean;
  jobId: string | null;
}

export interface ListJobsParams {
  owner: string;
  tenantId: number;
  name?: string;
}

/** A pending job (scheduler.list). */
export interface ScheduledJob {
  jobId: string;
  owner: string;
  name: string;
  key: string;
  tenantId: number;
  runAt: number;
  every: JobRecurrence | null;
  data: Record<string, unknown>;
}

/** What a handler receives when its job is due. */
export interface JobDelivery {
  jobId: string;
  owner: string;
  name: string;
  key: string;
  tenantId: number;
  /** The due time it was scheduled for (ms since the epoch). */
  dueAt: number;
  data: Record<string, unknown>;
  /** 1 on the first run, 2 on the first retry… */
  attempt: number;
  every: JobRecurrence | null;
}

/** The scheduler's actions (the core's bus merges them; plugins reach them through pluginJobs). */
export interface SchedulerActions {
  "scheduler.schedule": { params: ScheduleJobParams; result: ScheduleJobResult };
  "scheduler.cancel": { params: CancelJobParams; result: CancelJobResult };
  "scheduler.list": { params: ListJobsParams; result: ScheduledJob[] };
}

/** The action of a plugin's service the scheduler delivers its jobs to. */
export const PLUGIN_JOB_ACTION = "runJob";

type Owned<P> = Omit<P, "owner" | "service">;

/** A plugin's jobs client: the scheduler's actions with the plugin as owner. `service` is the plugin's Moleculer service (`this`). */
export function pluginJobs(service: { name: string; fullName?: string }) {
  const owner = service.name;
  const target = service.fullName ?? service.name;
  return {
    schedule(ctx: Caller, job: Owned<ScheduleJobParams>): Promise<ScheduleJobResult> {
      return ctx.call("scheduler.schedule", { ...job, owner, service: target }) as Promise<ScheduleJobResult>;
    },
    cancel(ctx: Caller, job: Owned<CancelJobParams>): Promise<CancelJobResult> {
      return ctx.call("scheduler.cancel", { ...job, owner }) as Promise<CancelJobResult>;
    },
    list(ctx: Caller, q: Owned<ListJobsParams>): Promise<ScheduledJob[]> {
      return ctx.call("scheduler.list", { ...q, owner }) as Promise<ScheduledJob[]>;
    },
  };
}

export type PluginJobs = ReturnType<typeof pluginJobs>;

/** A plugin's handler of one job name; `this` is the plugin's service. */
export type JobHandler = (ctx: Context<JobDelivery>, job: JobDelivery) => unknown;

/** Thrown to the scheduler for a job name the plugin has no handler for (the job fails). */
export class UnknownJobError extends Error {
  constructor(readonly jobName: string) {
    super(`no handler for the job "${jobName}"`);
    this.name = "UnknownJobError";
  }
}

/** The runJob action (spread it into the service's actions) that routes a delivery to the handler of its name. */
export function jobActions(handlers: Record<string, JobHandler>): NonNullable<ServiceSchema["actions"]> {
  return {
    [PLUGIN_JOB_ACTION]: {
      // Called over the bus by the scheduler, never published by the gateway.
      visibility: "public",
      params: { jobId: "string", name: "string", key: "string", tenantId: "number", dueAt: "number", attempt: "number", data: { type: "object", optional: true } },
      handler(this: unknown, ctx: Context<JobDelivery>) {
        const handler = Object.prototype.hasOwnProperty.call(handlers, ctx.params.name) ? handlers[ctx.params.name] : undefined;
        if (!handler) throw new UnknownJobError(ctx.params.name);
        return handler.call(this, ctx, ctx.params);
      },
    },
  };
}
