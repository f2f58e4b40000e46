/**
 * The flow engine's part of the chatbot-flows service (service.ts merges it): the chatbot
 * handler of the core's inbound messages, the core events it listens to, its job and route
 * actions, and what it opens when the service starts. It reads flows through a FlowSource
 * (the flows store, src/flows/), never their tables.
 *
 * How it works: engine.ts (turns, one at a time per ticket), sessions.ts (its tables), chat.ts
 * and nodes/ (chat flows), auto-reply.ts (entry and closure steps), events.ts (agents taking
 * tickets, closure flows), timers.ts (wait time, delays), runs.ts (the runs route).
 */
import type { ActionSchema, Context, Service } from "moleculer";
import { jobActions, type ChatbotHandlers, type JobDelivery, type PlatformEventHandlers, type PluginData } from "@openatende/plugin-sdk";
import type { Flow, FlowBindingValue } from "../model";
import { Engine } from "./engine";
import { engineEvents } from "./events";
import { runsActions } from "./runs";
import { JOB_CLOSURE, JOB_DELAY, JOB_WAIT, type ClosureJobData, type DelayJobData, type WaitJobData } from "./timers";

/** What the engine needs of the flows store. */
export interface FlowSource {
  get(tenantId: number, id: number): Promise<Flow | null>;
  /** A connection's or queue's flows (the form sections' value); null when none set. */
  binding(tenantId: number, scope: "connection" | "queue", targetId: number): Promise<FlowBindingValue | null>;
}

export interface EnginePart {
  chatbot: ChatbotHandlers;
  platformEvents: PlatformEventHandlers;
  /** Job actions (jobActions()) and the runs routes. */
  actions: Record<string, ActionSchema>;
  started(svc: Service, data: PluginData): Promise<void>;
  /** Running sessions of a flow (delete refuses a flow in use). */
  runningCount(tenantId: number, flowId: number): Promise<number>;
}

export function enginePart(flows: FlowSource): EnginePart {
  const engine = new Engine(flows);
  const jobs = jobActions({
    [JOB_WAIT]: (ctx: Context<JobDelivery>, job: JobDelivery) => engine.timeout(ctx, job.tenantId, job.data as WaitJobData, job.dueAt),
    [JOB_DELAY]: (ctx: Context<JobDelivery>, job: JobDelivery) => engine.resume(ctx, job.tenantId, job.data as DelayJobData, job.dueAt),
    [JOB_CLOSURE]: (ctx: Context<JobDelivery>, job: JobDelivery) => engine.closureExpired(ctx, job.tenantId, job.data as ClosureJobData, job.dueAt),
  }) as Record<string, ActionSchema>;
  return {
    chatbot: { onMessage: (inbound, ctx) => engine.onMessage(inbound, ctx) },
    platformEvents: engineEvents(engine),
    actions: { ...jobs, ...runsActions(engine) },
    async started(svc, data) {
      engine.start(svc, data);
    },
    runningCount: (tenantId, flowId) => engine.store.runningCount(tenantId, flowId),
  };
}
