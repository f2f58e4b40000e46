/**
 * A connection's message templates (Step 11; spec §3/§4/§5 Template), kept by the channel
 * plugin at its provider and reached through the channel contract's optional template actions
 * (contract 1.3), never by calling the plugin's own routes:
 *
 *   GET    /templates?connectionId=&after=&status=   a page (any user: the chat's picker; sending
 *                                                    a template works on every tier, or a WABA
 *                                                    number could not answer after 24 hours)
 *   POST   /templates {connectionId, template}       create and submit for review (admins, PLUS)
 *   DELETE /templates?connectionId=&name=&id=        delete (admins, PLUS)
 *
 * The connection must be the caller's tenant's (else not found) and its channel must declare
 * templates (else ERR_CHANNEL_UNSUPPORTED). The plugin's own errors (a template refused, with
 * the field) reach the caller as they are.
 */
import type { ServiceSchema } from "moleculer";
import { callChannel, type TemplateCreateParams, type TemplateStatus } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { call, defineService } from "../bus/call";

const connectionId = { type: "number", integer: true, positive: true, convert: true };
const listParams = {
  connectionId,
  after: { type: "string", optional: true, min: 1, max: 512 },
  status: { type: "enum", values: ["PENDING", "APPROVED", "REJECTED", "PAUSED", "DISABLED", "IN_APPEAL"], optional: true },
  limit: { type: "number", integer: true, min: 1, max: 100, optional: true, convert: true },
};
type ListParams = { connectionId: number; after?: string; status?: TemplateStatus; limit?: number };

/** A page of the connection's templates, from its channel plugin (contract 1.3 templatesList). */
function listOf(ctx: Ctx, service: string, tenantId: number, p: ListParams) {
  const { connectionId: id, after, status, limit } = p;
  return callChannel(ctx, service, "templatesList", { tenantId, connectionId: id, ...(after ? { after } : {}), ...(status ? { status } : {}), ...(limit ? { limit } : {}) });
}

export function createTemplatesService(_deps: CoreDeps): ServiceSchema {
  /** The channel service of the caller's tenant's connection, when its channel has templates. */
  async function channelOf(ctx: Ctx, id: number): Promise<{ service: string; tenantId: number }> {
    const tenantId = ctx.meta.user?.tenantId;
    if (!tenantId) throw new AppError("ERR_SESSION_REQUIRED");
    return channelOfTenant(ctx, tenantId, id);
  }

  /** The same for a tenant named by the core API of plugins (core/src/platform), which checked the plugin acts for it. */
  async function channelOfTenant(ctx: Ctx, tenantId: number, id: number): Promise<{ service: string; tenantId: number }> {
    const c = await call(ctx, "connections.getInternal", { id });
    if (!c || c.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { field: "connectionId" });
    const plugin = await call(ctx, "plugins.channelFor", { type: c.type, tenantId, major: c.pluginMajor ?? undefined }).catch(() => null);
    if (!plugin?.templates) throw new AppError("ERR_CHANNEL_UNSUPPORTED", { field: "connectionId", kind: "template" });
    return { service: plugin.service, tenantId };
  }

  return defineService({
    name: "templates",
    settings: { rest: "/" },
    actions: {
      list: {
        rest: "GET /templates",
        access: "user",
        params: listParams,
        async handler(ctx: Ctx<ListParams>) {
          const { service, tenantId } = await channelOf(ctx, ctx.params.connectionId);
          return listOf(ctx, service, tenantId, ctx.params);
        },
      },
      /** templates.listFor: the same page for a plugin (platform.templates.list), for the tenant it names. */
      listFor: {
        visibility: "public",
        params: { tenantId: { type: "number", integer: true, positive: true }, ...listParams },
        async handler(ctx: Ctx<ListParams & { tenantId: number }>) {
          const { service, tenantId } = await channelOfTenant(ctx, ctx.params.tenantId, ctx.params.connectionId);
          return listOf(ctx, service, tenantId, ctx.params);
        },
      },
      create: {
        rest: "POST /templates",
        access: "admin",
        tier: "PLUS",
        params: { connectionId, template: { type: "object" } },
        async handler(ctx: Ctx<{ connectionId: number; template: TemplateCreateParams["template"] }>) {
          const { service, tenantId } = await channelOf(ctx, ctx.params.connectionId);
          const r = await callChannel(ctx, service, "templateCreate", { tenantId, connectionId: ctx.params.connectionId, template: ctx.params.template });
          ctx.meta.$statusCode = 201;
          return r;
        },
      },
      remove: {
        rest: "DELETE /templates",
        access: "admin",
        tier: "PLUS",
        params: { connectionId, name: { type: "string", min: 1, max: 512, pattern: /^[a-z0-9_]+$/ }, id: { type: "string", optional: true, min: 1, max: 64 } },
        async handler(ctx: Ctx<{ connectionId: number; name: string; id?: string }>) {
          const { service, tenantId } = await channelOf(ctx, ctx.params.connectionId);
          return callChannel(ctx, service, "templateDelete", { tenantId, connectionId: ctx.params.connectionId, name: ctx.params.name, ...(ctx.params.id ? { id: ctx.params.id } : {}) });
        },
      },
    },
  });
}
