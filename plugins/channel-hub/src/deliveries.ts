/**
 * What a checked webhook event does in the core: a message handed to `inbound` once even when
 * the hub delivers it several times at once, a status handed to `ack`.
 */
import { call, inbound, type Caller, type ConnectionRef } from "@openatende/plugin-sdk";
import type { Draft, Normalised } from "./normalise";

export type DeliveryResult = "stored" | "duplicate" | "acked" | "ignored" | "refused";

/** An error of the core that handing the same delivery over again cannot fix. */
const refusedByCore = (err: unknown) => {
  const code = Number((err as { code?: unknown })?.code);
  return code >= 400 && code < 500 && code !== 408 && code !== 429;
};

/**
 * A status as an ack. It may overtake its send's answer (INTEGRATIONS.md §2.4): when the core
 * does not know the message yet and sends are under way, it waits for them, then goes once more.
 */
export async function ackDelivered(caller: Caller, ref: ConnectionRef, evt: Extract<Normalised, { kind: "ack" }>, sending?: Set<Promise<unknown>>): Promise<DeliveryResult> {
  const a = { ...ref, providerMessageId: evt.providerMessageId, status: evt.status, ...(evt.reason ? { reason: evt.reason } : {}), ...(evt.timestamp ? { timestamp: evt.timestamp } : {}) };
  const first = await call(caller, "channels.ack", a);
  if (first?.applied !== false) return "acked";
  // A message the core does not know (sent from the hub's panel, or long gone) takes no ack.
  if (!sending?.size) return "ignored";
  await Promise.race([Promise.allSettled([...sending]), new Promise((ok) => setTimeout(ok, 10_000))]);
  // The core stores the provider's id once the send's answer reaches it: a few short tries.
  for (let i = 0; i < 5; i++) {
    if ((await call(caller, "channels.ack", a))?.applied !== false) return "acked";
    await new Promise((ok) => setTimeout(ok, 200));
  }
  return "ignored";
}

export class MessageDeliveries {
  private readonly inFlight = new Map<string, Promise<DeliveryResult>>();

  constructor(private readonly logger: { warn(...a: unknown[]): void }) {}

  async deliver(caller: Caller, ref: ConnectionRef, draft: Draft): Promise<DeliveryResult> {
    const key = `${ref.tenantId}:${ref.connectionId}:${draft.providerMessageId}`;
    const running = this.inFlight.get(key);
    // The same message delivered twice at once: the second waits for the first and stores nothing.
    if (running) return running.then((r) => (r === "stored" ? "duplicate" : r));
    const p = (async (): Promise<DeliveryResult> => {
      try {
        const res = await inbound(caller, { ...ref, ...draft });
        return res.duplicate ? "duplicate" : "stored";
      } catch (err) {
        if (!refusedByCore(err)) throw err;
        this.logger.warn(`connection ${ref.connectionId}: the core refused message ${draft.providerMessageId}: ${(err as Error).message}`);
        return "refused";
      }
    })();
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      this.inFlight.delete(key);
    }
  }
}
