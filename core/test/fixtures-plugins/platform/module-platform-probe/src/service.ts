/**
 * A module that uses the core API (coreApi) the way every plugin does: `api` makes one call
 * of the API as this plugin (the tests drive it), and the core's events it is delivered are
 * kept in order (`received`); `failNext` makes the next deliveries throw, as a broken handler would.
 */
import { coreApi, definePlugin, PluginError, type ClaimedInbound, type ClaimedInboundReply, type PlatformActions, type PlatformEventEnvelope, type TicketCloseCheck } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import pkg from "../package.json";

const received: PlatformEventEnvelope[] = [];
let failures = 0;
/** The hooks' part: what they were asked, and how they answer (set by `hookMode`). */
const asked: { closes: TicketCloseCheck[]; claimed: ClaimedInbound[] } = { closes: [], claimed: [] };
let mode: { refuseClose: boolean; reply: ClaimedInboundReply | "throw" | "slow" } = { refuseClose: false, reply: { consumed: true } };

function record(e: PlatformEventEnvelope) {
  if (failures > 0) {
    failures--;
    throw new Error("probe handler failed on purpose");
  }
  received.push(e);
}

export const platformProbePlugin = definePlugin({
  pkgJson: pkg,
  service: {
    actions: {
      api: {
        params: { action: "string", params: "object" },
        handler(ctx: Context<{ action: keyof PlatformActions; params: never }>) {
          return coreApi(ctx).call(ctx.params.action, ctx.params.params);
        },
      },
      received: () => received,
      reset() {
        received.length = 0;
        failures = 0;
        asked.closes.length = 0;
        asked.claimed.length = 0;
        mode = { refuseClose: false, reply: { consumed: true } };
        return true;
      },
      asked: () => asked,
      hookMode: {
        params: { refuseClose: "boolean", reply: "any" },
        handler(ctx: Context<typeof mode>) {
          mode = ctx.params;
          return true;
        },
      },
      failNext: {
        params: { times: "number" },
        handler(ctx: Context<{ times: number }>) {
          failures = ctx.params.times;
          return true;
        },
      },
    },
  },
  hooks: {
    beforeClose(check) {
      asked.closes.push(check);
      if (mode.refuseClose) throw new PluginError("ERR_PROBE_CLOSE_REFUSED", 422, { ticketId: check.ticket.id });
    },
    async onClaimedInbound(inbound) {
      asked.claimed.push(inbound);
      if (mode.reply === "throw") throw new Error("probe hook failed on purpose");
      return mode.reply as ClaimedInboundReply;
    },
  },
  platformEvents: {
    "ticket.created": record,
    "ticket.statusChanged": record,
    "ticket.transferred": record,
    "ticket.closed": record,
    "ticket.deleted": record,
    "message.received": record,
    "message.sent": record,
    "message.acked": record,
    "contact.changed": record,
    "tags.changed": record,
    "user.changed": record,
  },
});

export default platformProbePlugin;
