import { Op } from "sequelize";
import type { ServiceSchema } from "moleculer";
import type { Ctx } from "../types";
import type { defineMessage } from "./model";
import type { MessagesActions } from "./contract";

type Actions = NonNullable<ServiceSchema["actions"]>;
const id = { type: "number", integer: true, positive: true };

/**
 * messages.lastInbound: when the contact last wrote (the channel's own timestamp of the newest
 * inbound message, not our clock) among the given tickets, no earlier than `since`: what a
 * provider's customer-service window counts from (tickets/service-window.ts). Walks the
 * tickets' order index from the newest message down to the first inbound one.
 */
export function lastInboundActions(model: ReturnType<typeof defineMessage>): Actions {
  return {
    lastInbound: {
      visibility: "public",
      params: { tenantId: id, ticketIds: { type: "array", items: id, max: 200 }, since: { type: "number", integer: true, min: 0 } },
      async handler(ctx: Ctx<MessagesActions["messages.lastInbound"]["params"]>): Promise<MessagesActions["messages.lastInbound"]["result"]> {
        const { tenantId, ticketIds, since } = ctx.params;
        if (!ticketIds.length) return null;
        const row = await model.findOne({
          where: { tenantId, ticketId: { [Op.in]: ticketIds }, fromMe: false, providerTs: { [Op.gte]: since } },
          attributes: ["providerTs"],
          order: [["providerTs", "DESC"]],
        });
        return row ? Number(row.get("providerTs")) : null;
      },
    },
  };
}
