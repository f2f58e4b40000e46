/**
 * For test and benchmark channels whose "provider" is memory (imported as
 * `@openatende/plugin-sdk/src/memory-channel`, never by a real channel): what every such
 * channel does alike — its connections connect at once and stay connected, it remembers the
 * broker of the core that runs it, and it acks its sends delivered then read as a provider's
 * webhook would, to whichever core is up (a core restarted in between loses no ack).
 */
import type { Context, ServiceBroker } from "moleculer";
import { ack, channelActionParams, reportStatus } from "./helpers";
import type { ConnectParams, ConnectionRef } from "./index";

/** The channel's own state: the broker of the core running it (null while none is). */
export interface MemoryChannelLink {
  broker: ServiceBroker | null;
}

/** The lifecycle and the always-connected actions (connect, disconnect, status, test) to spread into the fixture's service. */
export function memoryChannelBase(link: MemoryChannelLink) {
  return {
    started(this: { broker: ServiceBroker }) {
      link.broker = this.broker;
    },
    stopped(this: { broker: ServiceBroker }) {
      if (link.broker === this.broker) link.broker = null;
    },
    actions: {
      connect: {
        params: channelActionParams.connect,
        async handler(ctx: Context<ConnectParams>) {
          await reportStatus(ctx, { tenantId: ctx.params.tenantId, connectionId: ctx.params.connectionId, status: "connected" });
          return { status: "connected" };
        },
      },
      disconnect: { params: channelActionParams.disconnect, handler: () => ({ status: "disconnected" }) },
      status: { params: channelActionParams.status, handler: () => ({ status: "connected" }) },
      test: { params: channelActionParams.test, handler: () => ({ ok: true }) },
    },
  };
}

/**
 * Acks a send delivered, then read, `afterMs` after it: each ack is tried again (every 200 ms,
 * at most 600 times) until a core takes it. The timers never keep a test process alive.
 */
export function ackDeliveredThenRead(link: MemoryChannelLink, evt: ConnectionRef & { providerMessageId: string }, afterMs = 50): void {
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
  void (async () => {
    await pause(afterMs);
    for (const status of ["delivered", "read"] as const) {
      // Retried for two minutes, as a provider retries its webhooks: a core restarting under load
      // took longer than the twenty seconds this gave, and the acks of the messages sent just
      // before the stop were lost.
      for (let i = 0; i < 600; i++) {
        const taken = link.broker ? await ack(link.broker, { ...evt, status }).then(() => true, () => false) : false;
        if (taken) break;
        await pause(200);
      }
    }
  })();
}
