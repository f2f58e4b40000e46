/**
 * The core's events delivered to plugins (PlatformEvents of the SDK's core-api contract).
 *
 * The core says what changed at its choke points — `tickets.changed` (tickets/kit.ts
 * emitTicket: create, update with the row before, delete), `messages.changed` (messages/model.ts
 * emitMessage and channels/inbound-push.ts pushInbound), and the domains' own contacts.*,
 * tags.changed and users.* events — and translate() turns each into the plugins' events
 * (translate.ts). Each one goes, per tenant, to every plugin whose service subscribes to it
 * (definePlugin's `metadata.plugin.events`) and that is available to that tenant now, through
 * a durable Bull queue of that plugin (under the installation's Redis prefix; job id = the
 * envelope's id), processed one job at a time by one core node (the lease holder, leader.ts) so
 * the plugin sees them in order; the processor calls `v<major>.<id>.platformEvent`. A plugin that is down keeps its queue: the processor
 * waits for its service to be back (its waiting is not an attempt); a handler that throws is
 * tried again with backoff (at least once: `envelope.id` tells a repeat apart).
 *
 * Subscribers are learnt from the registry as plugin services appear and remembered in Redis,
 * so events for a plugin that is down when they happen are queued all the same.
 */
import { randomUUID } from "node:crypto";
import Bull from "bull";
import type { Service, ServiceBroker, ServiceSchema } from "moleculer";
import { PLATFORM_EVENT_ACTION, pluginServiceName, type PlatformEventEnvelope, type PlatformEventName } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { serviceRunning } from "../bus/call";
import type { AvailabilityCache } from "./access";
import { leaderLease } from "./leader";
import { translateContact, translateMessage, translateTicket, translateTag, translateUser, type Outgoing } from "./translate";
import type { MessagesEvents } from "../messages/contract";
import type { TicketsEvents } from "../tickets/contract";
import type { ContactsEvents } from "../contacts/contract";
import type { TagsEvents } from "../tags/contract";
import type { UsersEvents } from "../users/contract";
import { closeQueue } from "../lib/bull-close";

/** A plugin that subscribes to core events: its service and the events it listens to. */
export interface Subscriber {
  id: string;
  service: string;
  events: PlatformEventName[];
}

interface JobData {
  service: string;
  envelope: PlatformEventEnvelope;
}

/**
 * A handler that throws is tried again in the job itself, 1 s, 2 s, 4 s … apart (INLINE_TRIES
 * times), so the plugin's later events wait behind it and the order holds; when those run out
 * the job fails and Bull tries it again later (DELIVERY_ATTEMPTS in all, with backoff), letting
 * the queue move on: one broken event cannot hold a plugin's queue for ever.
 */
export const INLINE_TRIES = 5;
export const DELIVERY_ATTEMPTS = 4;
const KEEP_DONE_SECONDS = 24 * 3600;
const KEEP_FAILED_SECONDS = 7 * 24 * 3600;
const SUBSCRIBERS_KEY = "platform:subscribers";
const LEADER_KEY = "platform:events-leader";

type PluginMeta = { id?: string; version?: string; events?: PlatformEventName[] };

/** The plugins' services on the bus now that subscribe to core events (definePlugin's metadata). */
export function subscribersOnBus(broker: ServiceBroker): Subscriber[] {
  const list = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true, withActions: false }) as Array<{ name: string; version?: string | number; metadata?: { plugin?: PluginMeta } }>;
  const out = new Map<string, Subscriber>();
  for (const s of list) {
    const p = s.metadata?.plugin;
    if (!p?.id || !p.events?.length || s.version === undefined) continue;
    const major = Number(String(s.version).replace(/^v/, ""));
    const prev = out.get(p.id);
    const service = pluginServiceName(p.id, major);
    // The newest major of a plugin receives its events.
    if (!prev || Number(prev.service.split(".")[0].slice(1)) < major) out.set(p.id, { id: p.id, service, events: [...p.events] });
  }
  return [...out.values()];
}

export function createPlatformEvents(deps: CoreDeps, access: AvailabilityCache) {
  const subscribers = new Map<string, Subscriber>();
  /** Queues this node adds to (any node), and those it works (the leader only, leader.ts). */
  const producers = new Map<string, Bull.Queue<JobData>>();
  const workers = new Map<string, Bull.Queue<JobData>>();
  let svc: Service | undefined;
  let stopping = false;
  let lease: ReturnType<typeof leaderLease> | undefined;

  const queueName = (pluginId: string) => `platform-events:${pluginId}`;

  function open(pluginId: string): Bull.Queue<JobData> {
    const q = new Bull<JobData>(queueName(pluginId), deps.config.redisUrl, {
      prefix: `${deps.redisPrefix()}bull`,
      // A plugin that is down holds its job while the processor waits: not a stall.
      settings: { maxStalledCount: 1000 },
      defaultJobOptions: {
        attempts: DELIVERY_ATTEMPTS,
        backoff: { type: "exponential", delay: 1000 },
        removeOnComplete: { age: KEEP_DONE_SECONDS },
        removeOnFail: { age: KEEP_FAILED_SECONDS },
      },
    });
    q.on("error", (err) => svc?.logger.warn(`platform events of ${pluginId}: ${(err as Error | undefined)?.message ?? String(err)}`));
    return q;
  }

  function producer(pluginId: string): Bull.Queue<JobData> {
    let q = producers.get(pluginId);
    if (!q) producers.set(pluginId, (q = open(pluginId)));
    return q;
  }

  /** The leader works every subscriber's queue, one job at a time. */
  function work(pluginId: string): void {
    if (stopping || !lease?.isLeader() || workers.has(pluginId)) return;
    const q = open(pluginId);
    workers.set(pluginId, q);
    q.on("failed", (job, err) => {
      if (job.attemptsMade >= DELIVERY_ATTEMPTS) svc?.logger.warn(`platform event ${job.id} not delivered to ${pluginId}: ${(err as Error | undefined)?.message ?? String(err)}`);
    });
    void q.process(1, (job) => deliver(pluginId, job)).catch((err: Error) => svc?.logger.warn(`platform events of ${pluginId} stopped: ${(err as Error | undefined)?.message ?? String(err)}`));
  }

  async function closeAll(queues: Map<string, Bull.Queue<JobData>>): Promise<void> {
    const all = [...queues.values()];
    queues.clear();
    // Jobs a waiting processor holds go back to the queue for the next leader (Bull's stalled check).
    await Promise.all(all.map((q) => closeQueue(q, true).catch(() => undefined)));
  }

  function leadershipChanged(leader: boolean): void {
    if (leader) for (const id of subscribers.keys()) work(id);
    else void closeAll(workers);
  }

  /** Waits for the plugin's service (a plugin that is down gets its events when it is back), then hands it the envelope. */
  async function deliver(pluginId: string, job: Bull.Job<JobData>): Promise<unknown> {
    for (;;) {
      if (!svc) throw new Error("the platform service stopped");
      const broker = svc.broker;
      const service = subscribers.get(pluginId)?.service ?? job.data.service;
      if (serviceRunning(broker, service)) return handOver(service, job.data.envelope);
      if (stopping || !lease?.isLeader()) throw new Error(`${service} is not running`);
      await broker.waitForServices([service], 2000, 50).catch(() => undefined);
    }
  }

  async function handOver(service: string, envelope: PlatformEventEnvelope): Promise<unknown> {
    for (let tried = 1; ; tried++) {
      try {
        if (!svc) throw new Error("the platform service stopped");
        return await svc.broker.call(`${service}.${PLATFORM_EVENT_ACTION}`, envelope);
      } catch (err) {
        if (tried >= INLINE_TRIES || stopping || !lease?.isLeader()) throw err;
        await new Promise((r) => setTimeout(r, 1000 * 2 ** (tried - 1)).unref());
      }
    }
  }

  /** Learns the subscribing plugins on the bus; remembers them (Redis) and opens their queues. */
  async function learn(): Promise<void> {
    if (!svc) return;
    for (const s of subscribersOnBus(svc.broker)) {
      const known = subscribers.get(s.id);
      subscribers.set(s.id, s);
      if (!known || known.service !== s.service || known.events.join() !== s.events.join()) await deps.redis().hset(SUBSCRIBERS_KEY, s.id, JSON.stringify(s));
      work(s.id);
    }
  }

  async function remembered(): Promise<void> {
    const all = await deps.redis().hgetall(SUBSCRIBERS_KEY);
    for (const [id, json] of Object.entries(all)) {
      try {
        const s = JSON.parse(json) as Subscriber;
        if (!subscribers.has(id)) subscribers.set(id, s);
        work(id);
      } catch {
        /* a damaged entry is learnt again when the plugin shows up */
      }
    }
  }

  /** Queues each event for every subscribed plugin available to its tenant. */
  async function dispatch(ctx: Ctx, out: Outgoing[]): Promise<void> {
    for (const e of out) {
      for (const s of subscribers.values()) {
        if (!s.events.includes(e.event)) continue;
        const ok = await access.assertAvailable(ctx, s.id, e.tenantId).then(
          () => true,
          () => false,
        );
        if (!ok) continue;
        const envelope = { id: e.id, event: e.event, tenantId: e.tenantId, at: e.at, data: e.data } as PlatformEventEnvelope;
        await producer(s.id).add({ service: s.service, envelope }, { jobId: e.id });
      }
    }
  }

  /** One dispatch after the other, in the order the events arrived: the queues keep that order. */
  let chain: Promise<void> = Promise.resolve();
  const handle =
    <P>(translate: (p: P) => Outgoing[]) =>
    (ctx: Ctx<P>) => {
      if (!subscribers.size || !ctx.params) return;
      const out = translate(ctx.params);
      if (!out.length) return;
      chain = chain.then(() => dispatch(ctx, out)).catch((err: Error) => svc?.logger.warn(`platform events not queued: ${(err as Error | undefined)?.message ?? String(err)}`));
      return chain;
    };

  const listeners: NonNullable<ServiceSchema["events"]> = {
    "tickets.changed": handle<TicketsEvents["tickets.changed"]>(translateTicket),
    "messages.changed": handle<MessagesEvents["messages.changed"]>(translateMessage),
    "contacts.created": handle<ContactsEvents["contacts.created"]>((p) => translateContact(p.tenantId, p.contactId, "created")),
    "contacts.updated": handle<ContactsEvents["contacts.updated"]>((p) => translateContact(p.tenantId, p.contactId, "updated")),
    "contacts.deleted": handle<ContactsEvents["contacts.deleted"]>((p) => translateContact(p.tenantId, p.contactId, "deleted")),
    "contacts.merged": handle<ContactsEvents["contacts.merged"]>((p) => translateContact(p.tenantId, p.keptId, "merged", p.removedIds)),
    "tags.changed": handle<TagsEvents["tags.changed"]>(translateTag),
    "users.created": handle<UsersEvents["users.created"]>((p) => translateUser(p.tenantId, p.userId, "created")),
    "users.updated": handle<UsersEvents["users.updated"]>((p) => translateUser(p.tenantId, p.userId, "updated")),
    "users.deleted": handle<UsersEvents["users.deleted"]>((p) => translateUser(p.tenantId, p.userId, "deleted")),
    // A plugin's service came or went (any node): learn who listens.
    "$services.changed"() {
      void learn().catch((err: Error) => svc?.logger.warn(`platform events: ${(err as Error | undefined)?.message ?? String(err)}`));
    },
  };

  return {
    listeners,
    subscribers,
    async start(service: Service) {
      svc = service;
      stopping = false;
      await remembered();
      await learn();
      lease = leaderLease(deps.redis, LEADER_KEY, `${service.broker.nodeID}:${randomUUID()}`, leadershipChanged);
      await lease.start();
    },
    async stop() {
      stopping = true;
      await lease?.stop();
      await Promise.all([closeAll(workers), closeAll(producers)]);
      subscribers.clear();
      svc = undefined;
    },
  };
}
