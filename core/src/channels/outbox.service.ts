import { randomBytes } from "node:crypto";
import { UniqueConstraintError } from "sequelize";
import type { ServiceBroker, ServiceSchema } from "moleculer";
import type { PluginRecord, SendResult, StatusResult } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { defineOutbox, isPluginAway, OUTBOX_OPS, OutboxOp, OutboxPayload, OutboxRow, reasonOf } from "./outbox";
import { watchPluginNodes } from "../plugins/external";

interface ConnectionInfo {
  id: number;
  tenantId: number;
  type: string;
  status: string;
  keepConnected: boolean;
  pluginMajor: number | null;
}

/** How often waiting messages and plugin availability are looked at besides the events (ms). */
const SWEEP_MS = 2000;
/** Lock of one connection's resume-and-flush across core nodes (ms; renewed while held). */
const LOCK_MS = 30_000;
const AWAY_DETAIL = "the channel's plugin is not running";
/** Connections connected again at once when a plugin (re)appears. */
const RESUME_CONCURRENCY = 8;
/** How long a plugin must stay away before its connections are shown disconnected (ms). */
const AWAY_GRACE_MS = 2500;

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
  const flushing = new Set<number>();
  let sweepTimer: NodeJS.Timeout | undefined;
  let checkTimer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | null = null;
  let watchdog: { stop(): void } | undefined;
  let broker: ServiceBroker;
  let logger: ServiceBroker["logger"];

  const lockKey = (connectionId: number) => `${deps.config.namespace}:outbox:connection:${connectionId}`;

  /**
   * Runs `fn` holding the connection's lock; answers undefined when another holds it for
   * longer than `waitMs` (a flush that finds it busy leaves the work to the holder; a resume
   * waits its turn).
   */
  async function withLock<T>(connectionId: number, fn: () => Promise<T>, waitMs = 0): Promise<T | undefined> {
    const redis = deps.redis();
    const token = randomBytes(8).toString("hex");
    const key = lockKey(connectionId);
    const until = Date.now() + waitMs;
    while ((await redis.set(key, token, "PX", LOCK_MS, "NX")) !== "OK") {
      if (Date.now() >= until || broker.stopping) return undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
    const renew = setInterval(() => void redis.pexpire(key, LOCK_MS).catch(() => undefined), LOCK_MS / 3);
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, key, token).catch(() => undefined);
    }
  }

  async function channelPlugins(): Promise<PluginRecord[]> {
    const records = (await broker.call("plugins.registry", {})) as PluginRecord[];
    return records.filter((r) => r.status === "loaded" && r.kind === "channel" && r.service);
  }

  /** The connections served by this plugin service: of its id, pinned to its major (or to none, when it is the newest). */
  async function connectionsOf(plugin: PluginRecord, all: PluginRecord[]): Promise<ConnectionInfo[]> {
    const newest = Math.max(...all.filter((r) => r.id === plugin.id).map((r) => r.major ?? 0));
    const rows = (await broker.call("connections.byType", { type: plugin.id })) as ConnectionInfo[];
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
      await broker.call("connections.setStatus", { tenantId: c.tenantId, connectionId: c.id, status: "disconnected", detail: AWAY_DETAIL }).catch((err: Error) => logger.warn(`connection ${c.id}: status not recorded: ${err.message}`));
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
              now = (await broker.call(`${service}.status`, { tenantId: c.tenantId, connectionId: c.id })) as StatusResult;
            } catch {
              /* connect tells */
            }
            if (now?.status === "connected") {
              const row = (await broker.call("connections.getInternal", { id: c.id })) as { status: string } | null;
              if (row && row.status !== "connected") await broker.call("connections.setStatus", { tenantId: c.tenantId, connectionId: c.id, status: "connected", ...(now.detail ? { detail: now.detail } : {}) });
            } else {
              const res = (await broker.call("connections.connectInternal", { id: c.id })) as { status: string };
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
        const available = broker.registry.hasService(p.service!, undefined as unknown as string);
        const before = seen.get(p.service!);
        seen.set(p.service!, available);
        if (before === available || broker.stopping) continue;
        if (!available) {
          if (before === undefined) logger.info(`Channel plugin ${p.service} is not running (yet): its connections wait.`);
          else logger.warn(`Channel plugin ${p.service} is not running: its connections wait.`);
          // Shown only when it stays away a moment: a node taken as gone that was only slow
          // is back within a second or two, and its connections never stopped.
          const timer = setTimeout(() => {
            if (broker.stopping || broker.registry.hasService(p.service!, undefined as unknown as string)) return;
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

  /**
   * Sends a connection's waiting messages: tickets side by side, each ticket's in message
   * order; stops a ticket at the first send that meets an away plugin (it goes on later).
   * Only a connected connection is flushed (the plugin would refuse the rest).
   */
  async function flushConnection(connectionId: number, locked = false): Promise<number> {
    if (flushing.has(connectionId)) return 0;
    flushing.add(connectionId);
    try {
      const run = async () => {
        const c = (await broker.call("connections.getInternal", { id: connectionId })) as (ConnectionInfo & { tenantId: number }) | null;
        const rows = await model.findAll({ where: { connectionId }, order: [["ticketId", "ASC"], ["messageId", "ASC"]] });
        if (!rows.length) return 0;
        if (!c) {
          // The connection is gone: its messages cannot leave any more.
          for (const r of rows) {
            const row = r.get({ plain: true }) as OutboxRow;
            if ((row.op ?? "send") === "send") await settle(row, { status: "failed", failReason: "ERR_CONNECTION_NOT_FOUND" });
            else await model.destroy({ where: { id: row.id } });
          }
          return 0;
        }
        // A message's own send goes before the changes made to it after it was sent.
        const opOrder = (o: OutboxRow) => OUTBOX_OPS.indexOf(o.op ?? "send");
        const plain = rows.map((r) => r.get({ plain: true }) as OutboxRow).sort((a, b) => a.ticketId - b.ticketId || a.messageId - b.messageId || opOrder(a) - opOrder(b));
        if (c.status !== "connected") return 0;
        const plugin = (await broker.call("plugins.channelFor", { type: c.type }).catch(() => null)) as { service: string } | null;
        if (!plugin) return 0;
        const byTicket = new Map<number, OutboxRow[]>();
        for (const row of plain) byTicket.set(row.ticketId, [...(byTicket.get(row.ticketId) ?? []), row]);
        let sent = 0;
        await Promise.all(
          [...byTicket.values()].map(async (list) => {
            for (const row of list) {
              const op = row.op ?? "send";
              try {
                if (op === "send") {
                  const res = (await broker.call(`${plugin.service}.send`, { tenantId: row.tenantId, connectionId: row.connectionId, ...row.payload, messageId: row.messageId })) as SendResult;
                  await settle(row, { status: "sent", providerId: res.providerMessageId });
                } else {
                  // A change of a message sent before: no messageId (that keys the message's own send).
                  await broker.call(`${plugin.service}.send`, { tenantId: row.tenantId, connectionId: row.connectionId, ...row.payload });
                  await model.destroy({ where: { id: row.id } });
                }
                sent++;
              } catch (err) {
                if (isPluginAway(err)) {
                  await model.update({ attempts: row.attempts + 1, lastError: reasonOf(err) }, { where: { id: row.id } });
                  return;
                }
                if (op === "send") await settle(row, { status: "failed", failReason: reasonOf(err) });
                else {
                  // The channel refused the change (too old to edit, say): the platform keeps it.
                  logger.warn(`message ${row.messageId}: the waiting ${op} was refused by the channel: ${reasonOf(err)}`);
                  await model.destroy({ where: { id: row.id } });
                }
              }
            }
          }),
        );
        if (sent) logger.info(`connection ${connectionId}: ${sent} waiting message(s) sent`);
        return sent;
      };
      return (locked ? await run() : await withLock(connectionId, run)) ?? 0;
    } finally {
      flushing.delete(connectionId);
    }
  }

  /** Records a waiting message's outcome on the message, then lets its row go. */
  async function settle(row: OutboxRow, outcome: { status: "sent" | "failed"; providerId?: string; failReason?: string }) {
    await broker.call("messages.settle", { tenantId: row.tenantId, id: row.messageId, ...outcome });
    await model.destroy({ where: { id: row.id } });
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

  return {
    name: "outbox",
    events: {
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
          if (resuming.has(ctx.params.connectionId)) return true;
          const where = ctx.params.messageId ? { connectionId: ctx.params.connectionId, messageId: ctx.params.messageId } : { connectionId: ctx.params.connectionId };
          return !!(await model.findOne({ where, attributes: ["id"] }));
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
          if (op === "delete") await model.destroy({ where: { messageId: p.messageId, op: ["edit", "reaction"] } });
          try {
            await model.create({ tenantId: p.tenantId, connectionId: p.connectionId, ticketId: p.ticketId, messageId: p.messageId, op, payload: p.payload, attempts: 0, lastError: p.reason ?? null });
          } catch (err) {
            if (!(err instanceof UniqueConstraintError)) throw err;
            if (op !== "send") await model.update({ payload: p.payload, lastError: p.reason ?? null }, { where: { messageId: p.messageId, op } });
          }
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
    created(this: any) {
      broker = this.broker;
      logger = this.logger;
    },
    started(this: any) {
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
  };
}
