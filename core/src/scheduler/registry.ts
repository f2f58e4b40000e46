/**
 * The handlers of core-owned jobs, per broker (a test process runs several brokers; each has
 * its own). A core domain registers its handlers when its service is created, and the
 * scheduler of the same broker runs that owner's queue on this node:
 *
 *   created() {
 *     jobHandlers(this.broker).register("tickets", "autoClose", async (job, broker) => {
 *       await call(broker, "tickets.autoClose", { tenantId: job.tenantId, id: Number(job.key) });
 *     });
 *   }
 *
 * Plugins do not register here: their jobs are delivered to their service (SDK jobActions).
 */
import type { ServiceBroker } from "moleculer";
import type { JobDelivery } from "@openatende/plugin-sdk";

/** Runs one job; what it answers is kept as the Bull job's result. `broker` is a Caller for typed calls. */
export type CoreJobHandler = (job: JobDelivery, broker: ServiceBroker) => unknown;

export class JobHandlers {
  private readonly byOwner = new Map<string, Map<string, CoreJobHandler>>();
  private readonly listeners = new Set<(owner: string) => void>();

  register(owner: string, name: string, handler: CoreJobHandler): void {
    let names = this.byOwner.get(owner);
    if (!names) this.byOwner.set(owner, (names = new Map()));
    if (names.has(name)) throw new Error(`the job ${owner}.${name} has a handler already`);
    names.set(name, handler);
    for (const l of this.listeners) l(owner);
  }

  get(owner: string, name: string): CoreJobHandler | undefined {
    return this.byOwner.get(owner)?.get(name);
  }

  owners(): string[] {
    return [...this.byOwner.keys()];
  }

  /** Tells `listener` of every owner that gets a handler from now on (the scheduler starts its queue's worker). */
  onRegister(listener: (owner: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

const registries = new WeakMap<object, JobHandlers>();

/** The core job handlers of `broker`'s process. */
export function jobHandlers(broker: ServiceBroker): JobHandlers {
  let r = registries.get(broker);
  if (!r) registries.set(broker, (r = new JobHandlers()));
  return r;
}
