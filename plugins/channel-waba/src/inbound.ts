/**
 * What one routed "messages" change becomes in the core (after the webhook was answered):
 * messages through `inbound` (a file downloaded with its short-lived URL and streamed into the
 * core's storage first), reactions through `changeMessage`, statuses through `ack`, errors in
 * the log. A wamid is taken in once: the core's unique key stores it once, the plugin joins a
 * delivery of it still running and skips a replay of a file it already handed over.
 */
import { changeMessage, CORE_CHANNEL_ACTIONS, inbound, MEDIA_MAX_BYTES, uploadMedia, type Caller, type ConnectionRef } from "@openatende/plugin-sdk";
import type { WabaChannel } from "./channel";
import type { Routed } from "./deliveries";
import { actionsOf, type Action } from "./normalise";
import { redact } from "./settings";

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

async function takeMessage(channel: WabaChannel, core: Caller, x: Routed, a: Extract<Action, { kind: "message" }>): Promise<void> {
  const key = connectionKey(x.ref, x.settings.phoneNumberId);
  const id = a.draft.providerMessageId;
  // A replay goes to the core again (its unique key answers "duplicate"), except one with a
  // file already taken in: that would be downloaded and uploaded again for nothing.
  if (a.media && (await channel.opts.store.seen(key, id))) return;
  const flight = `${key}:${id}`;
  const running = inFlight.get(flight);
  if (running) return running;
  const p = (async () => {
    const draft = { ...x.ref, ...a.draft };
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

/** A status to the core; asked again a little later when the core does not know the wamid yet. */
async function takeAck(channel: WabaChannel, core: Caller, x: Routed, a: Extract<Action, { kind: "ack" }>): Promise<void> {
  const evt = { ...x.ref, providerMessageId: a.providerMessageId, status: a.status, timestamp: a.timestamp, ...(a.reason ? { reason: a.reason } : {}) };
  for (let i = 0; ; i++) {
    const res = (await withCoreRetry(() => core.call(CORE_CHANNEL_ACTIONS.ack, evt))) as { applied?: boolean } | undefined;
    if (res?.applied !== false || i >= ACK_RETRY_MS.length) return;
    await sleep(ACK_RETRY_MS[i]);
  }
}

/** Hands a change's parts to the core; false when one could not be (the core away): the change is then kept to run again. */
export async function processChange(channel: WabaChannel, core: Caller, x: Routed): Promise<boolean> {
  const log = channel.opts.logger;
  let complete = true;
  for (const a of actionsOf(x.change.value)) {
    try {
      switch (a.kind) {
        case "message":
          await takeMessage(channel, core, x, a);
          break;
        case "reaction":
          await withCoreRetry(() => changeMessage(core, { ...x.ref, providerMessageId: a.targetId, change: { type: "reaction", emoji: a.emoji, by: a.by }, timestamp: a.timestamp }));
          break;
        case "ack":
          // Not awaited: a wait for the send's record must not hold the connection's later changes.
          void takeAck(channel, core, x, a).catch((err: Error) => log.warn(`connection ${x.ref.connectionId}: status ${a.status} of ${a.providerMessageId} not recorded: ${err.message}`));
          break;
        case "error":
          log.warn(`connection ${x.ref.connectionId}: Meta reported error ${a.code} ${a.title}${a.detail ? ` (${a.detail})` : ""}`);
          break;
        case "skip":
          log.info(`connection ${x.ref.connectionId}: ${a.reason}: skipped`);
          break;
      }
    } catch (err) {
      complete = false;
      log.warn(`connection ${x.ref.connectionId}: ${a.kind} not handed to the core: ${(err as Error).message}`);
    }
  }
  return complete;
}
