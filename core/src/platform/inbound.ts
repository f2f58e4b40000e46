/**
 * The core API's inbound claims (plugin-sdk hooks-contract.ts): a plugin claims a contact on a
 * connection (a survey waiting for its answer) so the contact's messages there that would
 * open a ticket reach its onClaimedInbound hook first. Part of the platform service, whose
 * `before` hook has checked the caller and the tenant; the claims are the hooks service's.
 */
import type { ActionSchema } from "moleculer";
import type { PlatformActions } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { callerOf } from "./access";

type P<A extends keyof PlatformActions> = Ctx<PlatformActions[A]["params"]>;
type R<A extends keyof PlatformActions> = Promise<PlatformActions[A]["result"]>;

const id = { type: "number", integer: true, positive: true };
const T = { tenantId: id };

/** The tenant's contact and connection (and ticket, of that contact): their not-found codes otherwise. */
async function checkTargets(ctx: Ctx, tenantId: number, contactId: number, connectionId: number, ticketId?: number | null) {
  const contact = await call(ctx, "contacts.getInternal", { tenantId, id: contactId });
  if (!contact) throw new AppError("ERR_CONTACT_NOT_FOUND", { field: "contactId" });
  const connection = await call(ctx, "connections.getInternal", { id: connectionId });
  if (!connection || connection.tenantId !== tenantId) throw new AppError("ERR_CONNECTION_NOT_FOUND", { field: "connectionId" });
  if (ticketId) {
    const t = await call(ctx, "tickets.getInternal", { tenantId, id: ticketId });
    if (!t || t.contactId !== contactId) throw new AppError("ERR_TICKET_NOT_FOUND", { field: "ticketId" });
  }
}

export const inboundActions: Record<string, ActionSchema> = {
  "inbound.claim": {
    params: { ...T, contactId: id, connectionId: id, ref: { type: "string", min: 1, max: 64, trim: true }, ticketId: { ...id, optional: true, nullable: true }, minutes: { type: "number", integer: true, min: 1, max: 10080 } },
    async handler(ctx: P<"platform.inbound.claim">): R<"platform.inbound.claim"> {
      const p = ctx.params;
      await checkTargets(ctx, p.tenantId, p.contactId, p.connectionId, p.ticketId);
      return call(ctx, "hooks.claim", { tenantId: p.tenantId, pluginId: callerOf(ctx), contactId: p.contactId, connectionId: p.connectionId, ref: p.ref, ticketId: p.ticketId ?? null, minutes: p.minutes });
    },
  },
  "inbound.release": {
    params: { ...T, contactId: id, connectionId: id },
    async handler(ctx: P<"platform.inbound.release">): R<"platform.inbound.release"> {
      const p = ctx.params;
      return call(ctx, "hooks.release", { tenantId: p.tenantId, pluginId: callerOf(ctx), contactId: p.contactId, connectionId: p.connectionId });
    },
  },
};
