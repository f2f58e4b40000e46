/**
 * A flow's recent runs (spec §4 "Flow node run states"): its last sessions, newest first, each
 * with its node visits in order and their states, for the builder's runs panel. Admin only
 * (the flow screens are admin settings), every tier; another tenant's flow is
 * ERR_FLOW_NOT_FOUND. The id travels in the query like the flows' other routes
 * (flows/routes.ts: the core's isolation sweep needs a core fixture per path id).
 *
 * | GET /chatbot-flows/flows/runs?id= | FlowRun[] (the last 50) |
 */
import type { ActionSchema, Context } from "moleculer";
import { PluginError } from "@openatende/plugin-sdk";
import type { FlowRun } from "../model";
import type { Engine } from "./engine";
import type { SessionRow, StepRow } from "./sessions";

type Meta = { user?: { id: number; tenantId: number } };

const iso = (ms: number) => new Date(ms).toISOString();

export function runOf(session: SessionRow, steps: StepRow[]): FlowRun {
  return {
    id: session.id,
    flowId: session.flowId,
    ticketId: session.ticketId,
    contactName: session.contactName,
    status: session.status,
    steps: steps.map((st) => ({ nodeId: st.nodeId, state: st.state, detail: st.detail, at: iso(st.at) })),
    startedAt: iso(session.startedAt),
    endedAt: session.endedAt === null ? null : iso(session.endedAt),
  };
}

export function runsActions(engine: Engine): Record<string, ActionSchema> {
  return {
    flowRuns: {
      rest: "GET /chatbot-flows/flows/runs",
      access: "admin",
      tier: "FREE",
      params: { id: { type: "number", integer: true, positive: true, convert: true } },
      async handler(ctx: Context<{ id: number }, Meta>): Promise<FlowRun[]> {
        const tenantId = ctx.meta.user?.tenantId;
        if (!tenantId) throw new PluginError("ERR_SESSION_REQUIRED", 401);
        const flow = await engine.flows.get(tenantId, ctx.params.id);
        if (!flow) throw new PluginError("ERR_FLOW_NOT_FOUND", 404, { id: ctx.params.id });
        return (await engine.store.runs(tenantId, flow.id)).map(({ session, steps }) => runOf(session, steps));
      },
    },
  };
}
