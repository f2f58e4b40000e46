/**
 * The scheduler service: the platform's one scheduler for everything that fires at a time
 * (auto-close, bot timeouts, scheduled and recurring messages, campaigns, reminders, NPS
 * timeouts). One job = owner (a core domain or a plugin id) + name (the handler) + key (which
 * record) + tenant + due time; its id is made of those, so it runs once however often it is
 * scheduled, retried or restarted.
 *
 * Using it:
 *  - a core domain registers its handlers once, `jobHandlers(this.broker).register(owner, name, fn)`
 *    in its service's created(), and calls `scheduler.schedule` / `scheduler.cancel` /
 *    `scheduler.list` on the bus with its domain name as owner;
 *  - a plugin uses the SDK: `pluginJobs(this).schedule(ctx, …)` and `...jobActions({ name: handler })`
 *    in its actions; a due job is delivered to `v<major>.<plugin id>.runJob`.
 *
 * Scheduling a key again moves its pending occurrence (one pending occurrence per key):
 * "reset the auto-close timer" is one call. Cancel stops a key (a recurring series too).
 * Everything is scoped by owner and tenant: another tenant's key is another key.
 *
 * Time: due times are decided by the service's clock (`clock` option; the system clock in
 * production). A timer ticks every `tickMs` (default 1 s), and wakes between ticks at the
 * soonest pending job's due time (wake.ts); tests pass a TestClock and `tickMs: 0` and call
 * `schedulerOf(broker).tick()` after moving the clock.
 */
import type { ServiceBroker, ServiceSchema } from "moleculer";
import type Redis from "ioredis";
import type { AppConfig } from "@openatende/config";
import type { CancelJobParams, ListJobsParams, ScheduleJobParams } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { createRedis } from "../lib/redis";
import { systemClock, type Clock } from "../lib/clock";
import { forbidden, invalid } from "../errors/app-error";
import { Scheduler } from "./engine";
import { jobHandlers } from "./registry";
import { tickDue, wakeDelay } from "./wake";

export interface SchedulerServiceOptions {
  clock?: Clock;
  /** Tick period in ms; 0: no timer (a test ticks by hand). */
  tickMs?: number;
}

const OWNER = /^[a-z0-9][a-z0-9-]{0,63}$/;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const PLUGIN_SERVICE = /^v(\d+)\.([a-z0-9][a-z0-9-]*)$/;

const running = new WeakMap<object, Scheduler>();

/** The running scheduler of `broker` (tests tick it and read its clock). */
export function schedulerOf(broker: ServiceBroker): Scheduler {
  const s = running.get(broker);
  if (!s) throw new Error("no scheduler service has started on this broker");
  return s;
}

/**
 * A plugin acts only as itself: a call from a plugin's node (`meta.$caller.plugin`, proved by
 * the core's caller guard) or from a plugin's service in the core's process (`ctx.caller`
 * "v1.x") names that plugin as owner. Core services are trusted with any owner.
 */
function assertOwner(ctx: Ctx, owner: string) {
  const proved = (ctx.meta as { $caller?: { plugin?: string } }).$caller?.plugin;
  const local = ctx.caller ? PLUGIN_SERVICE.exec(ctx.caller)?.[2] : undefined;
  const plugin = proved ?? local;
  if (plugin !== undefined && plugin !== owner) throw forbidden({ owner, caller: plugin });
}

const keyParams = {
  owner: { type: "string", pattern: OWNER },
  tenantId: { type: "number", integer: true, min: 0 },
  name: { type: "string", pattern: NAME },
  key: { type: "string", min: 1, max: 200 },
} as const;

/**
 * On a node that runs the plugin host (SERVICES "all" or "plugins"), plugin jobs wait for it
 * (at most a minute, then they go anyway); elsewhere they are delivered at once.
 */
function pluginsReadyOn(broker: ServiceBroker, services: string[] | undefined): (() => Promise<void>) | undefined {
  if (!services?.some((g) => g === "all" || g === "plugins")) return undefined;
  let ready: Promise<void> | undefined;
  return () => (ready ??= broker.waitForServices(["plugins"], 60_000).then(
    () => undefined,
    () => undefined,
  ));
}

export function createSchedulerService(
  deps: Pick<CoreDeps, "redisPrefix"> & Partial<Pick<CoreDeps, "clock" | "schedulerTickMs">> & { config: Pick<AppConfig, "redisUrl"> & Partial<Pick<AppConfig, "services">> },
  opts: SchedulerServiceOptions = {},
): ServiceSchema {
  const clock = opts.clock ?? deps.clock ?? systemClock;
  const tickMs = opts.tickMs ?? deps.schedulerTickMs ?? 1000;
  let scheduler: Scheduler | undefined;
  let redis: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires (by the clock), and when the last full tick (with the watchdog) ran. */
  let plannedAt = Infinity;
  let lastTickAt = -Infinity;
  let warn: (msg: string) => void = () => undefined;

  /** Arms the timer for `delayMs` from now, unless it is armed for sooner already. */
  const arm = (delayMs: number) => {
    if (!scheduler || tickMs <= 0) return;
    const at = clock.now() + delayMs;
    if (timer && plannedAt <= at) return;
    if (timer) clearTimeout(timer);
    plannedAt = at;
    timer = setTimeout(() => void wake(), Math.max(0, delayMs));
    timer.unref();
  };

  /** A tick when one is due (the watchdog with it), else a move of what is due; then the next wake-up. */
  const wake = async () => {
    timer = undefined;
    plannedAt = Infinity;
    const s = scheduler;
    if (!s) return;
    const now = clock.now();
    try {
      if (tickDue(now, tickMs, lastTickAt)) {
        lastTickAt = now;
        await s.tick();
      } else await s.moveDue();
    } catch (err) {
      warn(`scheduler tick: ${(err as Error).message}`);
      arm(tickMs);
      return;
    }
    if (scheduler !== s) return;
    const next = await s.nextDueAt().catch(() => null);
    arm(wakeDelay(next, clock.now(), tickMs, lastTickAt));
  };

  const engine = () => {
    if (!scheduler) throw new Error("the scheduler has not started");
    return scheduler;
  };

  return {
    name: "scheduler",
    actions: {
      schedule: {
        visibility: "public",
        params: {
          ...keyParams,
          runAt: { type: "multi", optional: true, rules: [{ type: "number", integer: true, min: 0 }, { type: "string", min: 1 }] },
          delayMs: { type: "number", integer: true, min: 0, optional: true },
          every: { type: "any", optional: true },
          data: { type: "object", optional: true },
          attempts: { type: "number", integer: true, min: 1, max: 25, optional: true },
          backoffMs: { type: "number", integer: true, min: 0, optional: true },
          service: { type: "string", pattern: PLUGIN_SERVICE, optional: true },
        },
        handler(ctx: Ctx<ScheduleJobParams>) {
          assertOwner(ctx, ctx.params.owner);
          const svc = ctx.params.service ? PLUGIN_SERVICE.exec(ctx.params.service) : null;
          if (svc && svc[2] !== ctx.params.owner) throw invalid("service", "any", { reason: "a plugin's jobs run in its own service", owner: ctx.params.owner });
          return engine().schedule(ctx.params);
        },
      },
      cancel: {
        visibility: "public",
        params: keyParams,
        handler(ctx: Ctx<CancelJobParams>) {
          assertOwner(ctx, ctx.params.owner);
          return engine().cancel(ctx.params);
        },
      },
      list: {
        visibility: "public",
        params: { owner: keyParams.owner, tenantId: keyParams.tenantId, name: { ...keyParams.name, optional: true } },
        handler(ctx: Ctx<ListJobsParams>) {
          assertOwner(ctx, ctx.params.owner);
          return engine().list(ctx.params.owner, ctx.params.tenantId, ctx.params.name);
        },
      },
    },
    async started() {
      redis = createRedis(deps.config.redisUrl, `${deps.redisPrefix()}scheduler:`);
      redis.on("error", () => undefined);
      warn = (msg: string) => this.logger.warn(msg);
      // A job scheduled here due sooner than the timer's next wake-up moves it (another node's waits for the next tick at most).
      const scheduled = (dueAt: number) => arm(Math.max(0, dueAt - clock.now()));
      scheduler = new Scheduler({ broker: this.broker, redisUrl: deps.config.redisUrl, prefix: deps.redisPrefix(), redis, clock, handlers: jobHandlers(this.broker), warn, pluginsReady: pluginsReadyOn(this.broker, deps.config.services), scheduled });
      await scheduler.start();
      running.set(this.broker, scheduler);
      // The first tick at once: jobs that came due while no node ran go now (a plugin's wait for the host, see pluginsReadyOn).
      lastTickAt = -Infinity;
      arm(0);
    },
    async stopped() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      plannedAt = Infinity;
      running.delete(this.broker);
      const s = scheduler;
      scheduler = undefined;
      await s?.stop();
      redis?.disconnect();
      redis = undefined;
    },
  };
}
