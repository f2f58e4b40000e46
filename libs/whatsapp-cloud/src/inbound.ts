/**
 * What one routed "messages" change becomes in the core (after the webhook was answered):
 * messages through `inbound` (a file downloaded with its short-lived URL and streamed into the
 * core's storage first), reactions through `changeMessage`, statuses through `ack`, errors in
 * the log; as parts for the connection's lanes (lanes.ts, deliveries.ts). A wamid is taken in once: the core's unique key stores it once, the plugin joins a
 * delivery of it still running and skips a replay of a file it already handed over.
 */
import { changeMessage, CORE_CHANNEL_ACTIONS, inbound, MEDIA_MAX_BYTES, uploadMedia, type Caller, type ConnectionRef } from "@openatende/plugin-sdk";
import type { CloudChannel } from "./channel";
import type { Routed } from "./deliveries";
import type { Outcome } from "./lanes";
import { actionsOf, withoutSupersededStatuses, type Action } from "./normalise";
import { redact } from "./provider";

/** Waits before handing a message to the core again when it was away (not when it refused). */
const CORE_RETRY_MS = [500, 2000, 5000];
/** A status may come before the core recorded the send's wamid: asked again after these waits. */
const ACK_RETRY_MS = [1000, 4000];

const inFlight = new Map<string, Promise<void>>();
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** An error of the core that handing the same thing over again cannot fix. */
function refusedByCore(err: unknown): boolean {
  const code = Number((err as { code?: unknown })?.code);
  return code >= 400 && code < 500 && code !== 408 && code !== 429;
}

async function withCoreRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (err) {
      if (refusedByCore(err) || i >= CORE_RETRY_MS.length) throw err;
      await sleep(CORE_RETRY_MS[i]);
    }
  }
}

export function connectionKey(ref: ConnectionRef, phoneNumberId: string): string {
  return `${phoneNumberId}:${ref.tenantId}:${ref.connectionId}`;
}

async function takeMessage(channel: CloudChannel, core: Caller, x: Routed, a: Extract<Action, { kind: "message" }>): Promise<void> {
  const key = connectionKey(x.ref, x.settings.phoneNumberId);
  const id = a.draft.providerMessageId;
  // A replay goes to the core again (its unique key answers "duplicate"), except one with a
  // file already taken in: that would be downloaded and uploaded again for nothing.
  if (a.media && (await channel.opts.store.seen(key, id))) return;
  const flight = `${key}:${id}`;
  const running = inFlight.get(flight);
  if (running) return running;
  const p = (async () => {
    const verifiedBizName = channel.liveOf(x.ref)?.verifiedName;
    const draft = { ...x.ref, ...a.draft, ...(verifiedBizName ? { verifiedBizName } : {}) };
    if (a.media) {
      const graph = channel.liveOf(x.ref)?.graph ?? channel.graphFor(x.settings);
      try {
        const file = await graph.download(a.media.id, MEDIA_MAX_BYTES);
        const mimeType = (a.media.mimeType || file.mimeType).split(";")[0].trim();
        draft.media = await withCoreRetry(() => uploadMedia(core, x.ref, { data: file.data, mimeType, fileName: a.media!.fileName }));
      } catch (err) {
        // The message still goes in (the customer wrote it); what happened to its file is said in it.
        channel.opts.logger.warn(`connection ${x.ref.connectionId}: file of ${id} not downloaded: ${redact((err as Error).message, x.settings)}`);
        draft.body = [draft.body, `[${a.media.fileName ?? "file"}: download failed]`].filter(Boolean).join(" ");
      }
    }
    try {
      await withCoreRetry(() => inbound(core, draft));
    } catch (err) {
      if (!refusedByCore(err)) throw err;
      channel.opts.logger.warn(`connection ${x.ref.connectionId}: the core refused message ${id}: ${(err as Error).message}`);
      return;
    }
    if (a.media) await channel.opts.store.markSeen(key, id);
  })();
  inFlight.set(flight, p);
  try {
    await p;
  } finally {
    inFlight.delete(flight);
  }
}

/**
 * A status to the core. When the core does not know the wamid yet (the send's answer is
 * still on its way), the lane runs it again after ACK_RETRY_MS[attempt] without holding a runner.
 */
function ackPart(core: Caller, x: Routed, a: Extract<Action, { kind: "ack" }>): () => Promise<Outcome> {
  const evt = { ...x.ref, providerMessageId: a.providerMessageId, status: a.status, timestamp: a.timestamp, ...(a.reason ? { reason: a.reason } : {}) };
  let attempt = 0;
  return async () => {
    const res = (await withCoreRetry(() => core.call(CORE_CHANNEL_ACTIONS.ack, evt))) as { applied?: boolean } | undefined;
    if (res?.applied !== false || attempt >= ACK_RETRY_MS.length) return;
    return { againInMs: ACK_RETRY_MS[attempt++] };
  };
}

/** One piece of a change for the connection's lanes: what runs, in which lane, and what it is (for the log). */
export interface Part {
  /** `c:<wa_id>` for a customer's messages and reactions, `s:<wamid>` for the statuses of one sent message. */
  lane: string;
  what: string;
  run: () => Promise<Outcome>;
}

/**
 * A change's parts for the core: a customer's messages and reactions in the customer's lane
 * (stored in the order they were written), each sent message's statuses in that message's
 * lane (in Meta's order; the core never moves one back), only the furthest of a message's
 * statuses in one change. Errors and skipped parts are only
 * logged, here. A part that throws could not be handed over (the core away): its change is
 * then kept to run again.
 */
export function partsOf(channel: CloudChannel, core: Caller, x: Routed): Part[] {
  const log = channel.opts.logger;
  const parts: Part[] = [];
  for (const a of withoutSupersededStatuses(actionsOf(x.change.value, channel.provider.codes))) {
    switch (a.kind) {
      case "message":
        parts.push({ lane: `c:${a.draft.from.externalId}`, what: `message ${a.draft.providerMessageId}`, run: () => takeMessage(channel, core, x, a) });
        break;
      case "reaction":
        parts.push({
          lane: `c:${a.by}`,
          what: `reaction to ${a.targetId}`,
          run: async () => {
            await withCoreRetry(() => changeMessage(core, { ...x.ref, providerMessageId: a.targetId, change: { type: "reaction", emoji: a.emoji, by: a.by }, timestamp: a.timestamp }));
          },
        });
        break;
      case "ack":
        parts.push({ lane: `s:${a.providerMessageId}`, what: `status ${a.status} of ${a.providerMessageId}`, run: ackPart(core, x, a) });
        break;
      case "error":
        log.warn(`connection ${x.ref.connectionId}: Meta reported error ${a.code} ${a.title}${a.detail ? ` (${a.detail})` : ""}`);
        break;
      case "skip":
        log.info(`connection ${x.ref.connectionId}: ${a.reason}: skipped`);
        break;
    }
  }
  return parts;
}
