import { randomBytes } from "node:crypto";
import { UniqueConstraintError } from "sequelize";
import type { ServiceBroker, ServiceSchema } from "moleculer";
import { callChannel, type PluginRecord, type StatusResult } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call, defineService, serviceRunning } from "../bus/call";
import type { ConnectionInfo } from "../connections/contract";
import { defineOutbox, OUTBOX_OPS, OutboxOp, OutboxPayload, OutboxRow, reasonOf } from "./outbox";
import { OUTBOX_ENQUEUED, type OutboxEvents } from "./outbox-contract";
import { KnownEmpty } from "./outbox-empty";
import { LOCK_MS, outboxFlusher } from "./outbox-flush";
import { watchPluginNodes } from "../plugins/node-watch";

/** How often waiting messages and plugin availability are looked at besides the events (ms). */
const SWEEP_MS = 2000;
const AWAY_DETAIL = "the channel's plugin is not running";
/** Connections connected again at once when a plugin (re)appears. */
const RESUME_CONCURRENCY = 8;
/** How long a plugin must stay away before its connections are shown disconnected (ms). */
const AWAY_GRACE_MS = 2500;
/** How long a connection found with nothing waiting is believed empty without asking the table again (ms). */
const EMPTY_TTL_MS = 1000;

const id = { type: "number", integer: true, positive: true, convert: true } as const;

/**
 * Keeps channel connections and agents' messages whole while a channel plugin comes and goes
 * (a plugin node killed or restarted, the core restarted):
 *
 * - when a plugin's service disappears from the broker, its connections are shown
 *   `disconnected` (the shell hears it as for any status), and the messages sent meanwhile
 *   wait in message_outbox instead of failing (messages.sendOne asks `waits`, and hands a
 *   send that met an away plugin to `enqueue`);
 * - when it appears (at start too), the connections the admin wants up (keepConnected) are
 *   connected again unless the plugin says they are, and each connection's waiting messages
 *   go out in order per ticket, each once: a row leaves the outbox only when the plugin
 *   answered, and a send repeated after a lost answer carries the same message id, the
 *   plugin's idempotency key.
 *
 * Several core nodes may run this service: a connection's resume and flush hold a Redis lock.
 */
export function createOutboxService(deps: CoreDeps): ServiceSchema {
  const model = defineOutbox(deps.sequelize);
  /** Plugin service name → whether it was on the broker at the last look. */
  const seen = new Map<string, boolean>();
  /** Connections being connected again here: their new messages wait behind the outbox. */
  const resuming = new Set<number>();
  /** Connections found with nothing waiting a moment ago: a send of theirs asks the table no more (outbox-empty.ts). */
  const empty = new KnownEmpty(EMPTY_TTL_MS);
  let sweepTimer: NodeJS.Timeout | undefined;
  let checkTimer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | null = null;
  let watchdog: { stop(): void } | undefined;
  let broker: ServiceBroker;
  let logger: ServiceBroker["logger"];
  const { withLock, flushConnection } = outboxFlusher(deps, model, () => broker, () => logger);

  async function channelPlugins(): Promise<PluginRecord[]> {
    const records = await call(broker, "plugins.registry", {});
    return records.filter((r) => r.status === "loaded" && r.kind === "channel" && r.service);
  }

  /** The connections served by this plugin service: of its id, pinned to its major (or to none, when it is the newest). */
  async function connectionsOf(plugin: PluginRecord, all: PluginRecord[]): Promise<ConnectionInfo[]> {
    const newest = Math.max(...all.filter((r) => r.id === plugin.id).map((r) => r.major ?? 0));
    const rows = await call(broker, "connections.byType", { type: plugin.id });
    return rows.filter((c) => (c.pluginMajor ?? newest) === (plugin.major ?? newest));
  }

  /** Runs `fn` over `items`, at most `limit` at once (a core with many connections starts them a few at a time). */
  async function eachLimited<T>(items: T[], limit: number, fn: (x: T) => Promise<void>) {
    let next = 0;
    const worker = async () => {
      while (next < items.length) await fn(items[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  }

  /** The plugin is away: its live-looking connections are shown disconnected. */
  async function markAway(plugin: PluginRecord, all: PluginRecord[]) {
    for (const c of await connectionsOf(plugin, all)) {
      if (c.status === "disconnected" || c.status === "inactive") continue;
      await call(broker, "connections.setStatus", { tenantId: c.tenantId, connectionId: c.id, status: "disconnected", detail: AWAY_DETAIL }).catch((err: Error) => logger.warn(`connection ${c.id}: status not recorded: ${err.message}`));
    }
  }

  /**
   * The plugin is here: connect again what should be up (unless the plugin says it is: a
   * core restarted beside a plugin node that kept running), then send what waited.
   */
  async function resume(plugin: PluginRecord, all: PluginRecord[]) {
    const service = plugin.service!;
    const wanted = (await connectionsOf(plugin, all)).filter((c) => c.keepConnected);
    await eachLimited(wanted, RESUME_CONCURRENCY, async (c) => {
      resuming.add(c.id);
      try {
        // Under the connection's lock, asked again once held: another core node may have
        // connected it meanwhile.
        const done = await withLock(
          c.id,
          async () => {
            let now: StatusResult | null = null;
            try {
              now = await callChannel(broker, service, "status", { tenantId: c.tenantId, connectionId: c.id });
            } catch {
              /* connect tells */
            }
            if (now?.status === "connected") {
              const row = await call(broker, "connections.getInternal", { id: c.id });
              if (row && row.status !== "connected") await call(broker, "connections.setStatus", { tenantId: c.tenantId, connectionId: c.id, status: "connected", ...(now.detail ? { detail: now.detail } : {}) });
            } else {
              const res = await call(broker, "connections.connectInternal", { id: c.id });
              logger.info(`connection ${c.id} (${plugin.id}) connected again: ${res.status}`);
            }
            await flushConnection(c.id, true);
            return true;
          },
          LOCK_MS,
        );
        if (!done) logger.warn(`connection ${c.id} (${plugin.id}) not connected again: its lock stayed taken`);
      } catch (err) {
        logger.warn(`connection ${c.id} (${plugin.id}) not connected again: ${reasonOf(err)}`);
      } finally {
        resuming.delete(c.id);
      }
    });
  }

  /** Compares which channel plugins are on the broker with the last look, and acts on changes. */
  function check(): Promise<void> {
    if (checking) return checking;
    checking = (async () => {
      if (broker.stopping) return;
      let plugins: PluginRecord[];
      try {
        plugins = await channelPlugins();
      } catch {
        return; // the plugin host is not up yet
      }
      for (const p of plugins) {
        const available = serviceRunning(broker, p.service!);
        const before = seen.get(p.service!);
        seen.set(p.service!, available);
        if (before === available || broker.stopping) continue;
        if (!available) {
          if (before === undefined) logger.info(`Channel plugin ${p.service} is not running (yet): its connections wait.`);
          else logger.warn(`Channel plugin ${p.service} is not running: its connections wait.`);
          // Shown only when it stays away a moment: a node taken as gone that was only slow
          // is back within a second or two, and its connections never stopped.
          const timer = setTimeout(() => {
            if (broker.stopping || serviceRunning(broker, p.service!)) return;
            void markAway(p, plugins).catch((err: Error) => logger.warn(`plugin ${p.id}: ${err.message}`));
          }, before === undefined ? 0 : AWAY_GRACE_MS);
          timer.unref();
        } else {
          if (before === false) logger.info(`Channel plugin ${p.service} is back: connecting its connections again.`);
          void resume(p, plugins).catch((err: Error) => logger.warn(`plugin ${p.id}: resume failed: ${err.message}`));
        }
      }
    })().finally(() => {
      checking = null;
    });
    return checking;
  }

  function checkSoon() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(() => void check(), 150);
    checkTimer.unref();
  }

  async function sweep() {
    if (broker.stopping) return;
    await check();
    const rows = (await model.findAll({ attributes: ["connectionId"], group: ["connectionId"], raw: true })) as unknown as Array<{ connectionId: number }>;
    for (const { connectionId } of rows) {
      if (resuming.has(connectionId)) continue;
      await flushConnection(Number(connectionId)).catch((err: Error) => logger.warn(`connection ${connectionId}: flush failed: ${err.message}`));
    }
  }

  return defineService({
    name: "outbox",
    events: {
      [OUTBOX_ENQUEUED]: {
        // A group of its own per service instance: every node's cache hears it.
        group: `outbox-enqueued-${randomBytes(6).toString("hex")}`,
        handler(ctx: Ctx<OutboxEvents[typeof OUTBOX_ENQUEUED]>) {
          empty.forget(Number(ctx.params?.connectionId));
        },
      },
      "$services.changed"() {
        checkSoon();
      },
      "$node.disconnected"() {
        checkSoon();
      },
    },
    actions: {
      /** Whether a new message of the connection must wait behind the outbox. */
      waits: {
        visibility: "public",
        // With messageId: whether a change of that message must wait behind one of its own still waiting.
        params: { connectionId: id, messageId: { ...id, optional: true } },
        async handler(ctx: Ctx<{ connectionId: number; messageId?: number }>): Promise<boolean> {
          const { connectionId, messageId } = ctx.params;
          if (resuming.has(connectionId)) return true;
          // Nothing of the connection waits: nothing of one of its messages does either.
          if (empty.has(connectionId)) return false;
          const asked = empty.asking(connectionId);
          const waiting = !!(await model.findOne({ where: messageId ? { connectionId, messageId } : { connectionId }, attributes: ["id"] }));
          if (!waiting && !messageId) empty.found(asked);
          return waiting;
        },
      },
      /**
       * Puts a message in the outbox (once per message id), or a change of a message already
       * sent (`op` edit, reaction or delete; a later one of the same kind replaces the one
       * waiting, and a deletion makes the waiting edit and reaction moot).
       */
      enqueue: {
        visibility: "public",
        params: {
          tenantId: id,
          connectionId: id,
          ticketId: id,
          messageId: id,
          op: { type: "enum", values: [...OUTBOX_OPS], optional: true },
          payload: { type: "object" },
          reason: { type: "string", optional: true, max: 255 },
        },
        async handler(ctx: Ctx<{ tenantId: number; connectionId: number; ticketId: number; messageId: number; op?: OutboxOp; payload: OutboxPayload; reason?: string }>) {
          const p = ctx.params;
          const op = p.op ?? "send";
          // Here before the row exists and after; every node once it exists: no look from before it answers "nothing waits".
          empty.forget(p.connectionId);
          if (op === "delete") await model.destroy({ where: { messageId: p.messageId, op: ["edit", "reaction"] } });
          try {
            await model.create({ tenantId: p.tenantId, connectionId: p.connectionId, ticketId: p.ticketId, messageId: p.messageId, op, payload: p.payload, attempts: 0, lastError: p.reason ?? null });
          } catch (err) {
            if (!(err instanceof UniqueConstraintError)) throw err;
            if (op !== "send") await model.update({ payload: p.payload, lastError: p.reason ?? null }, { where: { messageId: p.messageId, op } });
          }
          empty.forget(p.connectionId);
          await ctx.broadcast(OUTBOX_ENQUEUED, { connectionId: p.connectionId } satisfies OutboxEvents[typeof OUTBOX_ENQUEUED]);
          return { waiting: true };
        },
      },
      /**
       * An agent edited or deleted a message that still waits here: the new text goes out
       * instead of the old one, or the message never goes out. Holds the connection's lock, so a
       * flush that is handing the message over finishes first (then the message is not waiting
       * any more and its edit or deletion goes to the plugin like any other). `waiting: null`:
       * the lock stayed busy (the plugin is handing it over too slowly to wait for).
       */
      revise: {
        visibility: "public",
        params: { connectionId: id, messageId: id, body: { type: "string", optional: true, max: 65536 }, drop: { type: "boolean", optional: true } },
        async handler(ctx: Ctx<{ connectionId: number; messageId: number; body?: string; drop?: boolean }>) {
          const { connectionId, messageId, body, drop } = ctx.params;
          const res = await withLock(
            connectionId,
            async () => {
              const row = await model.findOne({ where: { messageId, op: "send" } });
              if (!row) return { waiting: false as const };
              if (drop) {
                await row.destroy();
                return { waiting: false as const, dropped: true };
              }
              const payload = row.get("payload") as OutboxPayload;
              if (body !== undefined) await row.update({ payload: { ...payload, message: { ...payload.message, body } as OutboxPayload["message"] } });
              return { waiting: true as const };
            },
            10_000,
          );
          return res ?? { waiting: null };
        },
      },
      /** The waiting messages (of a connection, or all), in sending order. */
      list: {
        visibility: "public",
        params: { connectionId: { ...id, optional: true } },
        async handler(ctx: Ctx<{ connectionId?: number }>) {
          const rows = await model.findAll({ where: ctx.params.connectionId ? { connectionId: ctx.params.connectionId } : {}, order: [["connectionId", "ASC"], ["ticketId", "ASC"], ["messageId", "ASC"], ["id", "ASC"]] });
          return rows.map((r) => {
            const o = r.get({ plain: true }) as OutboxRow;
            return { messageId: o.messageId, op: o.op ?? "send", ticketId: o.ticketId, connectionId: o.connectionId, attempts: o.attempts, lastError: o.lastError };
          });
        },
      },
      /** Sends a connection's waiting messages now (when it is connected); answers how many left. */
      flush: {
        visibility: "public",
        params: { connectionId: id },
        async handler(ctx: Ctx<{ connectionId: number }>) {
          return { sent: await flushConnection(ctx.params.connectionId) };
        },
      },
    },
    created() {
      broker = this.broker;
      logger = this.logger;
    },
    started() {
      sweepTimer = setInterval(() => void sweep().catch((err: Error) => logger.warn(`outbox sweep: ${err.message}`)), SWEEP_MS);
      sweepTimer.unref();
      if (this.broker.transit) watchdog = watchPluginNodes(this.broker);
      checkSoon();
    },
    stopped() {
      clearInterval(sweepTimer);
      clearTimeout(checkTimer);
      watchdog?.stop();
    },
  });
}
