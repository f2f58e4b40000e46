import { Op } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { CLAIMED_INBOUND_ACTION, HOOK_TIMEOUT_MS, TICKET_BEFORE_CLOSE_ACTION, type ClaimedInboundReply } from "@openatende/plugin-sdk";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call, defineService } from "../bus/call";
import type { HooksActions } from "./contract";
import { defineHooksModels } from "./model";
import { hookProviders, isRefusal } from "./providers";

type P<A extends keyof HooksActions> = Ctx<HooksActions[A]["params"]>;
type R<A extends keyof HooksActions> = Promise<HooksActions[A]["result"]>;

const id = { type: "number", integer: true, positive: true };
const pluginId = { type: "string", min: 1, max: 64 };

/**
 * The plugins' hooks (plugin-sdk hooks-contract.ts): the close guards asked before a user's
 * close, and the contacts plugins claimed (a survey waiting for its answer), whose messages
 * go to the plugin before they open a ticket. A hook is asked only of plugins available to
 * the tenant; one that is down, slow or broken never holds a close or loses a message.
 */
export function createHooksService(deps: CoreDeps): ServiceSchema {
  const { InboundClaim } = defineHooksModels(deps.sequelize);
  const now = () => deps.clock.now();

  async function available(ctx: Ctx, tenantId: number, plugin: string): Promise<boolean> {
    const r = await call(ctx, "plugins.availability", { tenantId, id: plugin });
    return r.enabled;
  }

  return defineService({
    name: "hooks",
    actions: {
      beforeClose: {
        visibility: "public",
        params: { tenantId: id, ticket: "object", userId: id },
        async handler(ctx: P<"hooks.beforeClose">): R<"hooks.beforeClose"> {
          let asked = 0;
          for (const [plugin, service] of hookProviders(this.broker, "beforeClose")) {
            if (!(await available(ctx, ctx.params.tenantId, plugin))) continue;
            asked++;
            try {
              await ctx.call(`${service}.${TICKET_BEFORE_CLOSE_ACTION}`, ctx.params, { timeout: HOOK_TIMEOUT_MS });
            } catch (err) {
              if (isRefusal(err)) throw err;
              this.logger.warn(`beforeClose of ${plugin} failed, the close goes on: ${(err as Error).message}`);
            }
          }
          return { asked };
        },
      },

      claim: {
        visibility: "public",
        params: { tenantId: id, pluginId, contactId: id, connectionId: id, ref: { type: "string", min: 1, max: 64 }, ticketId: { ...id, optional: true, nullable: true }, minutes: { type: "number", integer: true, min: 1, max: 10080 } },
        async handler(ctx: P<"hooks.claim">): R<"hooks.claim"> {
          const p = ctx.params;
          const expiresAt = now() + p.minutes * 60_000;
          const where = { tenantId: p.tenantId, contactId: p.contactId, connectionId: p.connectionId };
          const values = { ...where, pluginId: p.pluginId, ref: p.ref, ticketId: p.ticketId ?? null, expiresAt };
          // One claim per contact and connection: the newest wins (upsert on the unique key).
          await InboundClaim.upsert(values);
          return { claimed: true, expiresAt };
        },
      },

      release: {
        visibility: "public",
        params: { tenantId: id, pluginId, contactId: id, connectionId: id },
        async handler(ctx: P<"hooks.release">): R<"hooks.release"> {
          const p = ctx.params;
          const n = await InboundClaim.destroy({ where: { tenantId: p.tenantId, contactId: p.contactId, connectionId: p.connectionId, pluginId: p.pluginId } });
          return { released: n > 0 };
        },
      },

      takeClaimed: {
        visibility: "public",
        params: { id: "string", tenantId: id, connectionId: id, contact: "object", message: "object" },
        async handler(ctx: P<"hooks.takeClaimed">): R<"hooks.takeClaimed"> {
          const p = ctx.params;
          const where = { tenantId: p.tenantId, contactId: p.contact.id, connectionId: p.connectionId };
          const claim = await InboundClaim.findOne({ where: { ...where, expiresAt: { [Op.gt]: now() } } });
          if (!claim) return null;
          const row = claim.get({ plain: true });
          const drop = () => InboundClaim.destroy({ where: { id: row.id } });
          const service = hookProviders(this.broker, "onClaimedInbound").get(row.pluginId);
          if (!service || !(await available(ctx, p.tenantId, row.pluginId))) {
            await drop();
            return null;
          }
          let reply: ClaimedInboundReply;
          try {
            reply = await ctx.call(`${service}.${CLAIMED_INBOUND_ACTION}`, { ...p, ref: row.ref, ticketId: row.ticketId, at: now() }, { timeout: HOOK_TIMEOUT_MS });
          } catch (err) {
            // The customer is never left unheard: the message opens a ticket as usual.
            this.logger.warn(`onClaimedInbound of ${row.pluginId} failed, the message opens a ticket: ${(err as Error).message}`);
            await drop();
            return null;
          }
          if (reply.release) await drop();
          return reply.consumed ? { ticketId: row.ticketId } : null;
        },
      },
    },
  });
}
