/**
 * The connection and queue form sections' routes, and the builder's media upload:
 *
 * | GET /chatbot-flows/bindings?scope=&targetId=                               | {entryFlowId, closureFlowId} |
 * | PUT /chatbot-flows/bindings {scope, targetId, entryFlowId, closureFlowId}  | the same, stored             |
 * | POST /chatbot-flows/media {file: {fileName, mimeType, data (base64)}}      | FlowMedia (at most 5 MB)     |
 *
 * A binding names an active entry or chat flow as the entry flow (the bot a new ticket of the
 * connection or queue starts in) and an active closure flow. The entry flow is bound in the core
 * too (platform.chatbots.bind, ref = the flow's id; none: the plugin's binding removed), which
 * also refuses another tenant's connection or queue with its not-found code.
 */
import type { ActionSchema } from "moleculer";
import { coreApi, uploadPlatformFile, type TenantData } from "@openatende/plugin-sdk";
import { FLOW_MEDIA_MAX_BYTES, type FlowBindingValue, type FlowKind, type FlowMedia } from "../model";
import { fail } from "./checks";
import { ID, route, self, tenantOf, type Ctx } from "./context";
import type { BindingRow, FlowRow } from "./store";

type Scope = "connection" | "queue";
const scope = { type: "enum", values: ["connection", "queue"] } as const;
const flowRef = { type: "number", integer: true, positive: true, nullable: true, optional: true, convert: true } as const;

/** A connection or queue of the caller's tenant, else the core's not-found code. */
async function assertTarget(ctx: Ctx<unknown>, tenantId: number, s: Scope, targetId: number): Promise<void> {
  const api = coreApi(ctx);
  if (s === "queue") {
    if (!(await api.queues.list({ tenantId })).some((q) => q.id === targetId)) fail({ code: "ERR_QUEUE_NOT_FOUND", data: { field: "targetId" } });
    return;
  }
  // The core API names no connection lookup; businessTime.state is the action that checks a
  // connection id against the tenant (another tenant's: ERR_CONNECTION_NOT_FOUND), reading nothing else.
  await api.businessTime.state({ tenantId, target: { connectionId: targetId } });
}

/**
 * The bindings whose connection or queue is gone (the core tells no event of it): they no longer
 * hold a flow, so deleting the flow drops them rather than refusing forever.
 */
export async function staleBindings(ctx: Ctx<unknown>, tenantId: number, rows: BindingRow[]): Promise<BindingRow[]> {
  if (!rows.length) return [];
  const api = coreApi(ctx);
  const queues = rows.some((r) => r.scope === "queue") ? new Set((await api.queues.list({ tenantId })).map((q) => q.id)) : new Set<number>();
  const stale: BindingRow[] = [];
  for (const r of rows) {
    if (r.scope === "queue") {
      if (!queues.has(Number(r.targetId))) stale.push(r);
      continue;
    }
    try {
      await assertTarget(ctx, tenantId, "connection", Number(r.targetId));
    } catch (err) {
      if ((err as { type?: string }).type === "ERR_CONNECTION_NOT_FOUND") stale.push(r);
      else throw err;
    }
  }
  return stale;
}

async function bindable(tx: TenantData, id: number | null, field: string, kinds: FlowKind[]): Promise<void> {
  if (id === null) return;
  const row = await tx.table<FlowRow>("flows").get({ id });
  if (!row) fail({ code: kinds.includes("chat") ? "ERR_FLOW_NOT_FOUND" : "ERR_AUTO_REPLY_NOT_FOUND", data: { field } });
  if (!kinds.includes(row.kind)) fail({ code: "ERR_FLOW_BIND_KIND", data: { field } });
  if (!row.active) fail({ code: "ERR_FLOW_BIND_INACTIVE", data: { field } });
}

export const bindingActions: Record<string, ActionSchema> = {
  getBinding: {
    ...route("GET /chatbot-flows/bindings"),
    params: { scope, targetId: ID },
    async handler(ctx: Ctx<{ scope: Scope; targetId: number }>): Promise<FlowBindingValue> {
      const tenantId = tenantOf(ctx);
      await assertTarget(ctx, tenantId, ctx.params.scope, ctx.params.targetId);
      return (await self(this).store.binding(tenantId, ctx.params.scope, ctx.params.targetId)) ?? { entryFlowId: null, closureFlowId: null };
    },
  },

  putBinding: {
    ...route("PUT /chatbot-flows/bindings"),
    params: { scope, targetId: ID, entryFlowId: flowRef, closureFlowId: flowRef },
    async handler(ctx: Ctx<{ scope: Scope; targetId: number; entryFlowId?: number | null; closureFlowId?: number | null }>): Promise<FlowBindingValue> {
      const tenantId = tenantOf(ctx);
      const { scope: s, targetId } = ctx.params;
      const value: FlowBindingValue = { entryFlowId: ctx.params.entryFlowId ?? null, closureFlowId: ctx.params.closureFlowId ?? null };
      return self(this).store.setBinding(
        tenantId,
        s,
        targetId,
        value,
        async (tx) => {
          await bindable(tx, value.entryFlowId, "entryFlowId", ["entry", "chat"]);
          await bindable(tx, value.closureFlowId, "closureFlowId", ["closure"]);
        },
        async () => {
          await coreApi(ctx).chatbots.bind({ tenantId, scope: s, targetId, ref: value.entryFlowId === null ? null : String(value.entryFlowId) });
        },
      );
    },
  },

  uploadMedia: {
    ...route("POST /chatbot-flows/media"),
    params: {
      file: {
        type: "object",
        strict: "remove",
        props: { fileName: { type: "string", trim: true, empty: false, max: 255 }, mimeType: { type: "string", pattern: /^[\w.+-]+\/[\w.+-]+$/, max: 120 }, data: { type: "string", empty: false } },
      },
    },
    async handler(ctx: Ctx<{ file: { fileName: string; mimeType: string; data: string } }>): Promise<FlowMedia> {
      const tenantId = tenantOf(ctx);
      const f = ctx.params.file;
      // base64 is 4 characters per 3 bytes: refused before decoding when it cannot fit.
      if (Math.floor((f.data.length * 3) / 4) > FLOW_MEDIA_MAX_BYTES + 3) fail({ code: "ERR_FLOW_MEDIA_TOO_LARGE", data: { field: "file", max: "5 MB" } });
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(f.data)) fail({ code: "ERR_VALIDATION", data: { field: "file.data" } });
      const data = Buffer.from(f.data, "base64");
      if (!data.length) fail({ code: "ERR_NO_FILE_UPLOADED", data: { field: "file" } });
      if (data.length > FLOW_MEDIA_MAX_BYTES) fail({ code: "ERR_FLOW_MEDIA_TOO_LARGE", data: { field: "file", max: "5 MB" } });
      const stored = await uploadPlatformFile(ctx, { tenantId, data, mimeType: f.mimeType, fileName: f.fileName, maxBytes: FLOW_MEDIA_MAX_BYTES });
      return { path: stored.path, url: stored.url, mimeType: stored.mimeType, fileName: stored.fileName, size: stored.size };
    },
  },
};
