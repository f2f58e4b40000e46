/**
 * What the flows' routes need of the service: the store (set when it starts), the engine's
 * count of a flow's running sessions, and the caller's tenant.
 */
import type { Context } from "moleculer";
import { PluginError } from "@openatende/plugin-sdk";
import type { FlowStore } from "./store";

export type Meta = { user?: { id: number; tenantId: number; profile: string }; $responseHeaders?: Record<string, string> };
export type Ctx<P = Record<string, never>> = Context<P, Meta>;

export interface FlowsSelf {
  store: FlowStore;
  /** Running sessions of a flow (the engine's): a flow in use is not deleted. */
  runningCount(tenantId: number, flowId: number): Promise<number>;
  /** The platform's outbound allow-list (webhook URLs checked on save). */
  outboundAllow: string[] | undefined;
}

export const self = (svc: unknown) => svc as FlowsSelf;

export function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw new PluginError("ERR_SESSION_REQUIRED", 401);
  return t;
}

/** A route of the flows' screens: admin only (spec §6, settings pages), every tier (§6: the free plan has one active flow). */
export const route = (rest: string) => ({ rest, access: "admin" as const, tier: "FREE" as const });

export const ID = { type: "number", integer: true, positive: true, convert: true } as const;
