/**
 * The delivery of a `chatbot` ticket's inbound messages (and of its start) to the plugin that
 * owns it: `v<major>.<pluginId>.chatbotMessage`, as a ChatbotInbound (plugin-sdk
 * chatbot-contract.ts).
 *
 * - Durable: one Bull queue per chatbot plugin, under the installation's Redis prefix (like the
 *   core's events to plugins, platform/events.ts); a plugin that is down keeps its queue and the
 *   processor waits for it (its waiting is not an attempt).
 * - Once per id: the job id is the inbound's id ("<ticketId>:<messageId>", "<ticketId>:start:<n>"),
 *   so a repeat of the same delivery is not queued again while the first is kept (an hour; a
 *   replayed channel message is told apart before, by its stored provider id).
 * - One node delivers: the holder of a Redis lease (platform/leader.ts), so the order below holds.
 * - Several tickets at once (CONCURRENCY jobs), in order per ticket: Bull hands the processor
 *   its jobs in the order they were queued, and each job waits behind the one before it of the
 *   same ticket (a lane per ticket, in memory: one node processes).
 * - A handler that throws is tried again in the job itself (backoff, INLINE_TRIES times), so the
 *   ticket's later messages wait behind it; then the job fails and Bull tries it later.
 * - Nothing polls on the way: the processor is woken by the job (Bull's blocking pop).
 *
 * Before handing a job over, the ticket is read again: a ticket no longer in status chatbot, or
 * owned by another plugin or bot since (an agent accepted it, a hand-off), is not delivered.
 */
import { randomUUID } from "node:crypto";
import Bull from "bull";
import type { ServiceBroker } from "moleculer";
import { CHATBOT_MESSAGE_ACTION, pluginServiceName, type ChatbotInbound } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import { broadcast, call } from "../bus/call";
import { leaderLease } from "../platform/leader";
import { messageOf, ticketOf } from "../platform/views";
import { deliveryId, type ChatbotDelivery } from "./contract";
import { closeQueue } from "../lib/bull-close";

export const CONCURRENCY = 16;
export const INLINE_TRIES = 5;
export const DELIVERY_ATTEMPTS = 4;
const INLINE_BACKOFF_MS = 250;
/** A delivered job is kept this long (and at most KEEP_DONE_COUNT of a plugin): a repeat of it within that time is not queued again. */
const KEEP_DONE_SECONDS = 3600;
const KEEP_DONE_COUNT = 100_000;
const KEEP_FAILED_SECONDS = 7 * 24 * 3600;
const PLUGINS_KEY = "chatbots:plugins";
const LEADER_KEY = "chatbots:delivery-leader";

type Job = ChatbotDelivery & { id: string; at: number };
type PluginMeta = { id?: string; chatbot?: boolean };

/** The newest major of the chatbot plugin `pluginId` running on the bus, as its service name; null when none runs. */
export function chatbotServiceOnBus(broker: ServiceBroker, pluginId: string): string | null {
  const list = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true, withActions: false }) as Array<{ version?: string | number; metadata?: { plugin?: PluginMeta } }>;
  let best = -1;
  for (const s of list) {
    const p = s.metadata?.plugin;
    if (p?.id !== pluginId || !p.chatbot || s.version === undefined) continue;
    best = Math.max(best, Number(String(s.version).replace(/^v/, "")));
  }
  return best < 0 ? null : pluginServiceName(pluginId, best);
}

/** The chatbot plugins running on the bus. */
function chatbotPluginsOnBus(broker: ServiceBroker): string[] {
  const list = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true, withActions: false }) as Array<{ metadata?: { plugin?: PluginMeta } }>;
  return [...new Set(list.map((s) => s.metadata?.plugin).filter((p) => p?.id && p.chatbot).map((p) => p!.id!))];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

export function createDelivery(deps: CoreDeps) {
  const producers = new Map<string, Bull.Queue<Job>>();
  const workers = new Map<string, Bull.Queue<Job>>();
  /** The last job of each ticket being delivered ("<pluginId>:<ticketId>"). */
  const lanes = new Map<string, Promise<unknown>>();
  const announced = new Set<string>();
  /** Woken when a service comes or goes (a plugin back). */
  let busChanged: Array<() => void> = [];
  let broker: ServiceBroker | undefined;
  let stopping = false;
  let lease: ReturnType<typeof leaderLease> | undefined;
  const warn = (msg: string) => broker?.logger.warn(msg);

  function open(pluginId: string): Bull.Queue<Job> {
    const q = new Bull<Job>(`chatbots:${pluginId}`, deps.config.redisUrl, {
      prefix: `${deps.redisPrefix()}bull`,
      // A plugin that is down holds its jobs while the processor waits: not a stall.
      settings: { maxStalledCount: 1000 },
      defaultJobOptions: {
        attempts: DELIVERY_ATTEMPTS,
        backoff: { type: "exponential", delay: 1000 },
        removeOnComplete: { age: KEEP_DONE_SECONDS, count: KEEP_DONE_COUNT },
        removeOnFail: { age: KEEP_FAILED_SECONDS },
      },
    });
    q.on("error", (err) => warn(`chatbot deliveries of ${pluginId}: ${(err as Error | undefined)?.message ?? String(err)}`));
    return q;
  }

  function producer(pluginId: string): Bull.Queue<Job> {
    let q = producers.get(pluginId);
    if (!q) producers.set(pluginId, (q = open(pluginId)));
    return q;
  }

  /** The lease holder works the plugin's queue. */
  function work(pluginId: string): void {
    if (stopping || !lease?.isLeader() || workers.has(pluginId)) return;
    const q = open(pluginId);
    workers.set(pluginId, q);
    q.on("failed", (job, err) => {
      if (job.attemptsMade >= DELIVERY_ATTEMPTS) warn(`chatbot delivery ${job.id} not delivered to ${pluginId}: ${(err as Error | undefined)?.message ?? String(err)}`);
    });
    void q.process(CONCURRENCY, (job) => inLane(pluginId, job)).catch((err: Error) => warn(`chatbot deliveries of ${pluginId} stopped: ${(err as Error | undefined)?.message ?? String(err)}`));
  }

  /** Runs the job after the ticket's job before it (Bull calls this in queue order). */
  function inLane(pluginId: string, job: Bull.Job<Job>): Promise<unknown> {
    const key = `${pluginId}:${job.data.ticketId}`;
    const before = lanes.get(key) ?? Promise.resolve();
    const run = before.then(() => deliver(pluginId, job.data));
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    lanes.set(key, tail);
    void tail.then(() => {
      if (lanes.get(key) === tail) lanes.delete(key);
    });
    return run;
  }

  async function closeAll(queues: Map<string, Bull.Queue<Job>>): Promise<void> {
    const all = [...queues.values()];
    queues.clear();
    await Promise.all(all.map((q) => closeQueue(q, true).catch(() => undefined)));
  }

  async function learn(): Promise<void> {
    if (!broker) return;
    const known = await deps.redis().smembers(PLUGINS_KEY);
    const running = chatbotPluginsOnBus(broker);
    const fresh = running.filter((p) => !known.includes(p));
    if (fresh.length) await deps.redis().sadd(PLUGINS_KEY, ...fresh);
    for (const p of [...known, ...fresh]) work(p);
  }

  function leadershipChanged(leader: boolean): void {
    if (leader) void learn().catch((err: Error) => warn(`chatbot deliveries: ${(err as Error | undefined)?.message ?? String(err)}`));
    else void closeAll(workers);
  }

  /** The plugin's service, waiting while it is down (woken when the bus changes). */
  async function serviceOf(pluginId: string): Promise<string> {
    for (;;) {
      if (!broker || stopping || !lease?.isLeader()) throw new Error(`chatbot deliveries of ${pluginId} stopped`);
      const service = chatbotServiceOnBus(broker, pluginId);
      if (service) return service;
      await new Promise<void>((resolve) => {
        busChanged.push(resolve);
        setTimeout(resolve, 1000).unref();
      });
    }
  }

  async function deliver(pluginId: string, d: Job): Promise<{ handled: boolean }> {
    if (!broker) throw new Error("the chatbots service stopped");
    const b = broker;
    const [ticket, first] = await Promise.all([call(b, "tickets.getInternal", { tenantId: d.tenantId, id: d.ticketId }), call(b, "contacts.botCard", { tenantId: d.tenantId, id: d.contactId })]);
    // The bot's part ended meanwhile (an agent took it, a hand-off): nothing to deliver.
    if (!ticket || ticket.status !== "chatbot" || ticket.chatbotPluginId !== pluginId || ticket.chatbotRef !== d.ref) return { handled: false };
    // Contacts merged meanwhile: the ticket's contact now.
    const contact = first?.id === ticket.contactId ? first : await call(b, "contacts.botCard", { tenantId: d.tenantId, id: ticket.contactId });
    if (!contact) return { handled: false };
    const inbound: ChatbotInbound = {
      id: d.id,
      tenantId: d.tenantId,
      ref: d.ref,
      reason: d.reason,
      ticket: ticketOf(ticket, contact),
      contact: { id: contact.id, name: contact.name, number: contact.number ?? null, email: contact.email ?? null },
      message: d.message ? messageOf({ ...d.message, ticketId: d.ticketId }) : null,
      at: d.at,
    };
    for (let tried = 1; ; tried++) {
      const service = await serviceOf(pluginId);
      try {
        return (await b.call(`${service}.${CHATBOT_MESSAGE_ACTION}`, inbound)) as { handled: boolean };
      } catch (err) {
        if (tried >= INLINE_TRIES || stopping || !lease?.isLeader()) throw err;
        await sleep(INLINE_BACKOFF_MS * 2 ** (tried - 1));
      }
    }
  }

  return {
    /** Queues a delivery (any node); the lease holder delivers it. */
    async queue(d: ChatbotDelivery): Promise<{ id: string }> {
      const id = deliveryId(d);
      const job: Job = { ...d, id, at: Date.now() };
      await producer(d.pluginId).add(job, { jobId: id });
      if (!announced.has(d.pluginId)) {
        announced.add(d.pluginId);
        await deps.redis().sadd(PLUGINS_KEY, d.pluginId);
        if (broker) await broadcast(broker, "chatbots.queued", { pluginId: d.pluginId });
      }
      work(d.pluginId);
      return { id };
    },
    /** A node queued for the plugin (chatbots.queued) or the bus changed: work what there is. */
    queued(pluginId: string): void {
      work(pluginId);
    },
    busChanged(): void {
      const waiting = busChanged;
      busChanged = [];
      for (const w of waiting) w();
      if (lease?.isLeader()) void learn().catch((err: Error) => warn(`chatbot deliveries: ${(err as Error | undefined)?.message ?? String(err)}`));
    },
    async start(b: ServiceBroker): Promise<void> {
      broker = b;
      stopping = false;
      lease = leaderLease(deps.redis, LEADER_KEY, `${b.nodeID}:${randomUUID()}`, leadershipChanged);
      await lease.start();
    },
    async stop(): Promise<void> {
      stopping = true;
      for (const w of busChanged) w();
      busChanged = [];
      await lease?.stop();
      await Promise.all([closeAll(workers), closeAll(producers)]);
      broker = undefined;
    },
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
