import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { callChannel } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import { call } from "../bus/call";
import { isPluginAway, OUTBOX_OPS, OutboxEntry, OutboxRow, reasonOf } from "./outbox";

/** Lock of one connection's resume-and-flush across core nodes (ms; renewed while held). */
export const LOCK_MS = 30_000;

/**
 * The outbox's way out: a connection's waiting messages handed to its plugin, in order per
 * ticket and each once, under the connection's Redis lock (several core nodes may run the
 * outbox service). The outcome of a message's own send is recorded on the message
 * (messages.settle); its row leaves the outbox only when the plugin answered.
 */
export function outboxFlusher(deps: CoreDeps, model: typeof OutboxEntry, broker: () => ServiceBroker, logger: () => ServiceBroker["logger"]) {
  const flushing = new Set<number>();

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
      if (Date.now() >= until || broker().stopping) return undefined;
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
        const c = await call(broker(), "connections.getInternal", { id: connectionId });
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
        const plugin = await call(broker(), "plugins.channelFor", { type: c.type }).catch(() => null);
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
                  const res = await callChannel(broker(), plugin.service, "send", { tenantId: row.tenantId, connectionId: row.connectionId, ...row.payload, messageId: row.messageId });
                  await settle(row, { status: "sent", providerId: res.providerMessageId });
                } else {
                  // A change of a message sent before: no messageId (that keys the message's own send).
                  await callChannel(broker(), plugin.service, "send", { tenantId: row.tenantId, connectionId: row.connectionId, ...row.payload });
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
                  logger().warn(`message ${row.messageId}: the waiting ${op} was refused by the channel: ${reasonOf(err)}`);
                  await model.destroy({ where: { id: row.id } });
                }
              }
            }
          }),
        );
        if (sent) logger().info(`connection ${connectionId}: ${sent} waiting message(s) sent`);
        return sent;
      };
      return (locked ? await run() : await withLock(connectionId, run)) ?? 0;
    } finally {
      flushing.delete(connectionId);
    }
  }

  /** Records a waiting message's outcome on the message, then lets its row go. */
  async function settle(row: OutboxRow, outcome: { status: "sent" | "failed"; providerId?: string; failReason?: string }) {
    await call(broker(), "messages.settle", { tenantId: row.tenantId, id: row.messageId, ...outcome });
    await model.destroy({ where: { id: row.id } });
  }

  return { withLock, flushConnection };
}
