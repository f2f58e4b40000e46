/**
 * One inbound message of a ticket the Typebot plugin owns (chatbot-contract.ts), walked to its
 * replies:
 *
 * 1. a delivery already handled (its id among the session's last ones) is skipped;
 * 2. the ticket's connection must have its Typebot section enabled and the tenant a viewer URL,
 *    else the ticket is handed off at once (recorded);
 * 3. "started", the restart keyword, no session, our own timeout passed (counted from the
 *    customer's last message, by the core's clock: `inbound.at`) → startChat with the contact's
 *    name, number and the ticket's protocol as prefilled variables (and the message, when it is
 *    not the restart keyword); otherwise continueChat with the session id, a menu number
 *    mapped back to its choice; a session Typebot no longer knows (ended, expired) → start again;
 * 4. the answer's bubbles go out through the channel (text, media, the choice menu); Typebot's
 *    retry of an invalid answer is replaced by the connection's invalid message;
 * 5. no input left (the flow ended) → hand-off to the tenant's queue (distribute none); any
 *    Typebot failure (HTTP 4xx/5xx, network, timeout) → recorded, then the same hand-off.
 */
import { coreApi, pluginContext, type ChatbotInbound, type OutboundPolicy, type PluginJobs } from "@openatende/plugin-sdk";
import type { Context } from "moleculer";
import { effectiveSettings, targetOf, type Effective } from "./config";
import { sendMedia } from "./media";
import { bubbleOut, choicesOf, isEnd, isRetry, mapReply, menuText } from "./render";
import type { ConnectionRow, SessionRow, TypebotStore } from "./store";
import { continueChat, startChat, TypebotError, type ChatResponse, type TypebotTarget } from "./typebot-client";

/** Longest pause a `wait` client-side action makes between two bubbles. */
const MAX_WAIT_MS = 5000;

export interface Deps {
  store: TypebotStore;
  policy: OutboundPolicy;
  jobs: PluginJobs;
}

/** The scheduler job that ends a session our timeout let lapse (by the core's clock). */
export const EXPIRE_JOB = "expire";

/** Schedules (or moves) the ticket's expiry `timeoutMs` from now, or cancels it (0, or the session ended). */
async function expiry(ctx: Context, d: Deps, tenantId: number, ticketId: number, timeoutMs: number, lastAt: number): Promise<void> {
  const key = String(ticketId);
  if (timeoutMs > 0) await d.jobs.schedule(ctx, { name: EXPIRE_JOB, key, tenantId, delayMs: timeoutMs, data: { ticketId, lastAt } });
  else await d.jobs.cancel(ctx, { name: EXPIRE_JOB, key, tenantId });
}

/** The expiry job: the session is ended unless the customer wrote again since it was scheduled. */
export async function expireSession(store: TypebotStore, tenantId: number, data: { ticketId?: unknown; lastAt?: unknown }): Promise<boolean> {
  const s = await store.session(tenantId, Number(data.ticketId));
  if (!s || s.status !== "active" || s.lastAt !== Number(data.lastAt)) return false;
  await store.saveSession(tenantId, { ...s, status: "ended", sessionId: null, choices: null });
  return true;
}

export function policyOf(service: unknown): OutboundPolicy {
  return { allow: pluginContext(service as { settings?: unknown }).outboundAllow ?? [] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function variables(inbound: ChatbotInbound): Record<string, string> {
  return {
    name: inbound.contact.name ?? "",
    number: inbound.contact.number ?? "",
    protocol: inbound.ticket.protocol ?? "",
    ticket: String(inbound.ticket.id),
  };
}

/** Sends a Typebot answer's bubbles; answers the menu now waiting (null: none). */
async function deliver(ctx: Context, d: Deps, inbound: ChatbotInbound, r: ChatResponse, invalidMessage: string | null, retry: boolean): Promise<SessionRow["choices"]> {
  const api = coreApi(ctx);
  const { tenantId } = inbound;
  const ticketId = inbound.ticket.id;
  const waits = new Map<string, number>();
  for (const a of r.clientSideActions ?? []) {
    const secs = Number(a.wait?.secondsToWaitFor ?? 0);
    if (a.type === "wait" && a.lastBubbleBlockId && secs > 0) waits.set(a.lastBubbleBlockId, Math.min(secs * 1000, MAX_WAIT_MS));
  }
  if (retry && invalidMessage) {
    await api.messages.send({ tenantId, ticketId, body: invalidMessage });
  } else {
    for (const b of r.messages) {
      const out = bubbleOut(b);
      if (out?.kind === "text") await api.messages.send({ tenantId, ticketId, body: out.text });
      else if (out?.kind === "media") await sendMedia(ctx, tenantId, ticketId, out.url, out.media, d.policy);
      const pause = waits.get(b.id);
      if (pause) await sleep(pause);
    }
  }
  const items = choicesOf(r.input);
  if (items.length) await api.messages.send({ tenantId, ticketId, body: menuText(items) });
  return r.input ? { inputId: r.input.id, items } : null;
}

async function handoff(ctx: Context, inbound: ChatbotInbound, s: Effective | null): Promise<void> {
  try {
    await coreApi(ctx).chatbots.handoff({ tenantId: inbound.tenantId, ticketId: inbound.ticket.id, ...(s?.queueId ? { queueId: s.queueId } : {}), distribute: "none", reason: "flow" });
  } catch (err) {
    // An agent took the ticket meanwhile: the bot's part is over anyway.
    if ((err as { type?: string }).type !== "ERR_CHATBOT_NOT_OWNER") throw err;
  }
}

function freshSession(inbound: ChatbotInbound, conn: ConnectionRow, s: Effective): SessionRow {
  return { ticketId: inbound.ticket.id, connectionId: inbound.ticket.connectionId, publicId: conn.publicId, generation: s.apiGeneration, sessionId: null, status: "active", lastAt: inbound.at, choices: null, handled: [], updatedAt: inbound.at };
}

export async function onInbound(ctx: Context, d: Deps, inbound: ChatbotInbound): Promise<{ handled: boolean; action: string }> {
  const { tenantId } = inbound;
  const ticketId = inbound.ticket.id;
  const prior = await d.store.session(tenantId, ticketId);
  if (prior?.handled?.includes(inbound.id)) return { handled: false, action: "repeat" };
  const remember = async (row: SessionRow) => d.store.saveSession(tenantId, { ...row, handled: [...(prior?.handled ?? []), inbound.id], updatedAt: inbound.at });

  const connectionId = inbound.ticket.connectionId ?? Number(inbound.ref);
  const [conn, settings] = await Promise.all([d.store.connection(tenantId, connectionId), effectiveSettings(ctx, d.store, tenantId)]);
  const target: TypebotTarget | null = targetOf(settings, d.policy);
  if (!conn?.enabled || !conn.publicId || !target) {
    await d.store.recordFailure(tenantId, { ticketId, connectionId, kind: "config", status: null, message: !target ? "no Typebot viewer URL is set" : "the connection's Typebot section is not enabled", at: inbound.at });
    await handoff(ctx, inbound, settings);
    await remember({ ...(prior ?? freshSession(inbound, conn ?? ({ publicId: "" } as ConnectionRow), settings)), status: "ended", sessionId: null, choices: null });
    return { handled: true, action: "not-configured" };
  }

  const text = (inbound.message?.body ?? "").trim();
  const restart = !!conn.restartKeyword && text.toLowerCase() === conn.restartKeyword.trim().toLowerCase();
  const timeoutMs = settings.sessionTimeoutMinutes * 60_000;
  const expired = !!prior && timeoutMs > 0 && inbound.at - prior.lastAt > timeoutMs;
  const live = prior && prior.status === "active" && prior.sessionId && prior.publicId === conn.publicId && prior.generation === settings.apiGeneration;
  let session: SessionRow = prior && live ? { ...prior } : freshSession(inbound, conn, settings);
  const begin = () => startChat(target, { publicId: conn.publicId, prefilledVariables: variables(inbound), ...(text && !restart ? { message: text } : {}) });

  let action: string;
  let r: ChatResponse;
  let retry = false;
  try {
    if (inbound.reason === "started" || restart || !live || expired) {
      action = restart ? "restart" : expired ? "expired" : "start";
      r = await begin();
    } else {
      action = "continue";
      try {
        r = await continueChat(target, session.sessionId!, mapReply(text, session.choices?.items));
        retry = isRetry(r, session.choices?.inputId ?? null);
      } catch (err) {
        if (!(err instanceof TypebotError) || err.kind !== "gone") throw err;
        action = "gone";
        r = await begin();
      }
    }
  } catch (err) {
    if (!(err instanceof TypebotError)) throw err;
    await d.store.recordFailure(tenantId, { ticketId, connectionId, kind: err.kind, status: err.status, message: err.message, at: inbound.at });
    await handoff(ctx, inbound, settings);
    await remember({ ...session, status: "ended", sessionId: null, choices: null, lastAt: inbound.at });
    await expiry(ctx, d, tenantId, ticketId, 0, inbound.at);
    return { handled: true, action: "failed" };
  }
  if (action !== "continue") session = { ...freshSession(inbound, conn, settings), sessionId: r.sessionId ?? null };

  const waiting = await deliver(ctx, d, inbound, r, conn.invalidMessage, retry);
  if (isEnd(r)) {
    await handoff(ctx, inbound, settings);
    await remember({ ...session, status: "ended", choices: null, lastAt: inbound.at });
    await expiry(ctx, d, tenantId, ticketId, 0, inbound.at);
    return { handled: true, action: `${action}:end` };
  }
  await remember({ ...session, choices: waiting, lastAt: inbound.at });
  await expiry(ctx, d, tenantId, ticketId, timeoutMs, inbound.at);
  return { handled: true, action: retry ? `${action}:retry` : action };
}
