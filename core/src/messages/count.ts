import type { ServiceSchema } from "moleculer";
import { Op, type WhereOptions } from "sequelize";
import { seesEveryTicket } from "@openatende/contracts/visibility";
import { call } from "../bus/call";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import type { defineMessage } from "./model";

interface CountParams {
  ticketId?: number;
  fromMe?: boolean;
  dateStart?: string;
  dateEnd?: string;
}

const dateParam = { type: "string", optional: true, max: 40 };

/** A date of the query (ISO text, or epoch milliseconds as text) in milliseconds. */
function millis(v: string | undefined, field: string): number | undefined {
  if (v === undefined || v === "") return undefined;
  const ms = /^\d{1,15}$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(ms)) throw new AppError("ERR_VALIDATION", { field, rule: "date" });
  return ms;
}

/**
 * GET /messages/count-all (spec §7: "with query params, returns a count"): how many messages,
 * answered as `{ count }`, of one ticket (`ticketId`, which the caller must be able to see) or
 * of the whole tenant, optionally only the agents' (`fromMe=true`) or the customers'
 * (`fromMe=false`), between `dateStart` and `dateEnd` (message time, inclusive). The whole
 * tenant is for those who see every ticket (admins and supervisors, spec §6); anyone else
 * names a ticket. Both read along the (tenantId, ticketId, providerTs) index.
 */
export function messageCountActions(model: ReturnType<typeof defineMessage>): NonNullable<ServiceSchema["actions"]> {
  return {
    countAll: {
      rest: "GET /messages/count-all",
      access: "user",
      params: {
        ticketId: { type: "number", integer: true, positive: true, convert: true, optional: true },
        fromMe: { type: "boolean", convert: true, optional: true },
        dateStart: dateParam,
        dateEnd: dateParam,
        $$strict: "remove",
      },
      async handler(ctx: Ctx<CountParams>) {
        const me = ctx.meta.user!;
        const p = ctx.params;
        const start = millis(p.dateStart, "dateStart");
        const end = millis(p.dateEnd, "dateEnd");
        if (start !== undefined && end !== undefined && end < start) throw new AppError("ERR_VALIDATION", { field: "dateEnd", rule: "dateMin" });
        const and: WhereOptions[] = [{ tenantId: me.tenantId }];
        if (p.ticketId !== undefined) {
          // Another tenant's ticket, or one the caller may not see, is not found (404).
          const ticket = await call(ctx, "tickets.visible", { id: p.ticketId });
          and.push({ ticketId: ticket.id });
        } else if (!seesEveryTicket(me)) {
          throw new AppError("ERR_NO_PERMISSION", { field: "ticketId" });
        }
        if (p.fromMe !== undefined) and.push({ fromMe: p.fromMe });
        if (start !== undefined) and.push({ providerTs: { [Op.gte]: start } });
        if (end !== undefined) and.push({ providerTs: { [Op.lte]: end } });
        return { count: await model.count({ where: { [Op.and]: and } }) };
      },
    },
  };
}
