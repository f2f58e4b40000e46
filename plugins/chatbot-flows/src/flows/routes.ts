/**
 * The flows' routes (/api/chatbot-flows/…, admin, every tier). Ids travel in the query or the
 * body, not the path (like module-kanban: the core's isolation sweep needs a core fixture per
 * path id, which a plugin cannot add). `kind` on the id routes says which kinds the caller
 * expects ("chat", "entry,closure"): a flow of another kind, of another tenant or missing is that
 * family's not-found (ERR_FLOW_NOT_FOUND with chat or no kind, else ERR_AUTO_REPLY_NOT_FOUND).
 *
 * | GET    /chatbot-flows/flows?kind=&active=     | the tenant's flows (full)                       |
 * | GET    /chatbot-flows/flows/one?id=&kind=     | one flow                                        |
 * | POST   /chatbot-flows/flows                   | create (a chat flow without graph: start node)  |
 * | PUT    /chatbot-flows/flows {id, …}           | update: fields given, settings merged           |
 * | DELETE /chatbot-flows/flows?id=&kind=         | refused while bound or running (…_IN_USE)       |
 * | POST   /chatbot-flows/flows/duplicate {id}    | "<name> (cópia)", inactive                      |
 * | GET    /chatbot-flows/flows/export?id=&kind=  | FlowExport, as a download                       |
 * | POST   /chatbot-flows/flows/import            | the FlowExport as the body (?kind= to restrict) |
 *
 * Activating (create or update with active true) counts the tenant's other active flows and asks
 * the core's plan.assertWithin inside the store's locked transaction: the free plan's one active
 * flow holds even for two activations at once (ERR_FREE_PLAN_CHATFLOW_LIMIT).
 */
import type { ActionSchema } from "moleculer";
import { coreApi } from "@openatende/plugin-sdk";
import { DEFAULT_BOT_SETTINGS, FLOW_KINDS, type Flow, type FlowKind } from "../model";
import { assertTargets, assertWebhookUrls, expectFlow, fail, inUseCode, KINDS_PARAM, kindsOf, notFound, targetsOf } from "./checks";
import { ID, route, self, tenantOf, type Ctx } from "./context";
import { initialGraph } from "./graph";
import { NAME_MAX } from "./problem";
import { checkBody, DESCRIPTION_MAX, mergeSettings, normalizeTestPhone, parseExport, toExport, type FlowDraft } from "./shape";
import { staleBindings } from "./binding-routes";
import type { BindingRow, FlowFields, PlanCheck } from "./store";

const name = { type: "string", trim: true, empty: false, max: NAME_MAX } as const;
const description = { type: "string", max: DESCRIPTION_MAX, optional: true } as const;
const body = { type: "any", optional: true } as const;

interface FlowInput {
  name?: string;
  description?: string;
  active?: boolean;
  testPhone?: string | null;
  settings?: unknown;
  graph?: unknown;
  steps?: unknown;
}

/** The plan check of an activation: the core throws the plan's code past the cap. */
const planCheck =
  (ctx: Ctx<unknown>, tenantId: number): PlanCheck =>
  async (current) => {
    await coreApi(ctx).plan.assertWithin({ tenantId, kind: "chatflows", current });
  };

/** An auto-reply needs its steps to run: an active one without steps is refused like a wrong count. */
function assertRunnable(kind: FlowKind, active: boolean, steps: unknown[] | null) {
  if (active && kind !== "chat" && !steps?.length) fail({ code: "ERR_AUTO_REPLY_SINGLE_INITIAL_STEP", data: { count: 0 } });
}

/** The stored fields of a draft (create, import, duplicate), its queues and users checked. */
async function fieldsOf(ctx: Ctx<unknown>, tenantId: number, d: FlowDraft, active: boolean): Promise<FlowFields> {
  await assertWebhookUrls(d.graph, self(ctx.service).outboundAllow);
  await assertTargets(ctx, tenantId, targetsOf(d.settings, d.graph, d.steps));
  assertRunnable(d.kind, active, d.steps);
  return { kind: d.kind, name: d.name, description: d.description, active, testPhone: d.testPhone, settings: d.settings, graph: d.graph, steps: d.steps };
}

function testPhoneOf(v: unknown): string | null {
  const phone = normalizeTestPhone(v);
  if (phone === undefined) fail({ code: "ERR_VALIDATION", data: { field: "testPhone" } });
  return phone;
}

const fileNameOf = (flowName: string) => `${flowName.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "flow"}.json`;

export const flowActions: Record<string, ActionSchema> = {
  listFlows: {
    ...route("GET /chatbot-flows/flows"),
    params: { kind: KINDS_PARAM, active: { type: "boolean", optional: true, convert: true } },
    async handler(ctx: Ctx<{ kind?: string; active?: boolean }>): Promise<Flow[]> {
      return self(this).store.list(tenantOf(ctx), kindsOf(ctx.params.kind), ctx.params.active);
    },
  },

  getFlow: {
    ...route("GET /chatbot-flows/flows/one"),
    params: { id: ID, kind: KINDS_PARAM },
    async handler(ctx: Ctx<{ id: number; kind?: string }>): Promise<Flow> {
      return expectFlow(await self(this).store.get(tenantOf(ctx), ctx.params.id), kindsOf(ctx.params.kind));
    },
  },

  createFlow: {
    ...route("POST /chatbot-flows/flows"),
    params: { kind: { type: "enum", values: FLOW_KINDS }, name, description, active: { type: "boolean", optional: true }, testPhone: { type: "string", optional: true, nullable: true, max: 40 }, settings: body, graph: body, steps: body },
    async handler(ctx: Ctx<FlowInput & { kind: FlowKind }>): Promise<Flow> {
      const tenantId = tenantOf(ctx);
      const p = ctx.params;
      const settings = mergeSettings(DEFAULT_BOT_SETTINGS, p.settings);
      if ("problem" in settings) fail(settings.problem);
      const checked = checkBody(p.kind, p.kind === "chat" ? (p.graph ?? initialGraph()) : p.graph, p.kind === "chat" ? p.steps : (p.steps ?? []));
      if ("problem" in checked) fail(checked.problem);
      const draft: FlowDraft = { kind: p.kind, name: p.name!, description: p.description ?? "", testPhone: testPhoneOf(p.testPhone), settings: settings.settings, ...checked };
      const active = p.active === true;
      return self(this).store.create(tenantId, await fieldsOf(ctx, tenantId, draft, active), planCheck(ctx, tenantId));
    },
  },

  updateFlow: {
    ...route("PUT /chatbot-flows/flows"),
    params: { id: ID, kind: KINDS_PARAM, name: { ...name, optional: true }, description, active: { type: "boolean", optional: true }, testPhone: { type: "string", optional: true, nullable: true, max: 40 }, settings: body, graph: body, steps: body },
    async handler(ctx: Ctx<FlowInput & { id: number; kind?: string }>): Promise<Flow> {
      const tenantId = tenantOf(ctx);
      const p = ctx.params;
      const kinds = kindsOf(p.kind);
      const store = self(this).store;
      const before = expectFlow(await store.get(tenantId, p.id), kinds);
      const change: Partial<FlowFields> = {};
      if (p.name !== undefined) change.name = p.name;
      if (p.description !== undefined) change.description = p.description;
      if (p.testPhone !== undefined) change.testPhone = testPhoneOf(p.testPhone);
      if (p.active !== undefined) change.active = p.active;
      if (p.settings !== undefined) {
        const s = mergeSettings(before.settings, p.settings);
        if ("problem" in s) fail(s.problem);
        change.settings = s.settings;
      }
      const chat = before.kind === "chat";
      const other = chat ? p.steps : p.graph;
      if (other !== undefined && other !== null) fail({ code: "ERR_VALIDATION", data: { field: chat ? "steps" : "graph" } });
      const given = chat ? p.graph : p.steps;
      if (given !== undefined) {
        const checked = checkBody(before.kind, chat ? given : null, chat ? null : given);
        if ("problem" in checked) fail(checked.problem);
        if (chat) change.graph = checked.graph;
        else change.steps = checked.steps;
      }
      const after = { ...before, ...change };
      await assertWebhookUrls(change.graph ?? null, self(this).outboundAllow);
      await assertTargets(ctx, tenantId, targetsOf(change.settings ?? null, change.graph ?? null, change.steps ?? null));
      assertRunnable(after.kind, after.active, after.steps);
      try {
        // The row read again under the transaction: a flow deleted meanwhile is not written back.
        return await store.update(tenantId, p.id, change, planCheck(ctx, tenantId), (row) => {
          if (row.kind !== before.kind) notFound(kinds);
        });
      } catch (err) {
        if ((err as { notFound?: boolean }).notFound) notFound(kinds);
        throw err;
      }
    },
  },

  deleteFlow: {
    ...route("DELETE /chatbot-flows/flows"),
    params: { id: ID, kind: KINDS_PARAM },
    async handler(ctx: Ctx<{ id: number; kind?: string }>): Promise<{ id: number }> {
      const tenantId = tenantOf(ctx);
      const kinds = kindsOf(ctx.params.kind);
      const svc = self(this);
      const id = ctx.params.id;
      expectFlow(await svc.store.get(tenantId, id), kinds);
      const deleted = await svc.store.delete(tenantId, id, async (flow, found, tx) => {
        expectFlow(flow, kinds);
        const stale = await staleBindings(ctx, tenantId, found);
        for (const b of stale) await tx.table<BindingRow>("bindings").delete({ scope: b.scope, targetId: b.targetId });
        const bindings = found.filter((b) => !stale.includes(b));
        const ref = String(id);
        // The core's bindings of this flow (the entry flows, also stored here: counted once).
        const keys = new Set(bindings.map((b) => `${b.scope}:${b.targetId}`));
        for (const b of await coreApi(ctx).chatbots.bindings({ tenantId })) {
          if (b.ref === ref && b.pluginId === ctx.service?.name) keys.add(`${b.scope}:${b.targetId}`);
        }
        const running = await svc.runningCount(tenantId, id);
        if (keys.size || running > 0) fail({ code: inUseCode(flow), data: { bindings: keys.size, tickets: running } });
      });
      if (!deleted) notFound(kinds);
      return { id };
    },
  },

  duplicateFlow: {
    ...route("POST /chatbot-flows/flows/duplicate"),
    params: { id: ID, kind: KINDS_PARAM },
    async handler(ctx: Ctx<{ id: number; kind?: string }>): Promise<Flow> {
      const tenantId = tenantOf(ctx);
      const f = expectFlow(await self(this).store.get(tenantId, ctx.params.id), kindsOf(ctx.params.kind));
      const suffix = " (cópia)";
      const copyName = `${f.name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
      const fields: FlowFields = { kind: f.kind, name: copyName, description: f.description, active: false, testPhone: f.testPhone, settings: f.settings, graph: f.graph, steps: f.steps };
      return self(this).store.create(tenantId, fields, planCheck(ctx, tenantId));
    },
  },

  exportFlow: {
    ...route("GET /chatbot-flows/flows/export"),
    params: { id: ID, kind: KINDS_PARAM },
    async handler(ctx: Ctx<{ id: number; kind?: string }>) {
      const f = expectFlow(await self(this).store.get(tenantOf(ctx), ctx.params.id), kindsOf(ctx.params.kind));
      ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename="${fileNameOf(f.name)}"` };
      return toExport(f);
    },
  },

  importFlow: {
    ...route("POST /chatbot-flows/flows/import"),
    params: { kind: KINDS_PARAM, format: body, version: body, flow: body },
    async handler(ctx: Ctx<{ kind?: string; format?: unknown; version?: unknown; flow?: unknown }>): Promise<Flow> {
      const tenantId = tenantOf(ctx);
      const { format, version, flow } = ctx.params;
      const parsed = parseExport({ format, version, flow }, kindsOf(ctx.params.kind));
      if ("problem" in parsed) fail(parsed.problem);
      return self(this).store.create(tenantId, await fieldsOf(ctx, tenantId, parsed.draft, false), planCheck(ctx, tenantId));
    },
  },
};
