/**
 * A module that uses the core API (coreApi) the way every plugin does: `api` makes one call
 * of the API as this plugin (the tests drive it), and the core's events it is delivered are
 * kept in order (`received`); `failNext` makes the next deliveries throw, as a broken handler would.
 */
import { coreApi, definePlugin, type PlatformActions, type PlatformEventEnvelope } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import pkg from "../package.json";

const received: PlatformEventEnvelope[] = [];
let failures = 0;

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
        return true;
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
