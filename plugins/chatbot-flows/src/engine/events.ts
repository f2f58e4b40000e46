/**
 * The core's ticket events, as the engine hears them (definePlugin's platformEvents; each may
 * come more than once, so every handler is idempotent):
 *
 * - An agent taking the ticket (statusChanged away from chatbot, a transfer leaving it out of
 *   the bot's hands), a close or a delete end the ticket's live session: status cancelled, its
 *   timers cancelled. The bot's own hand-off and close end the session before their events
 *   come, so those find nothing live.
 * - Closure flows. A ticket an agent closed (it has a user: the bot's own closes and tickets
 *   nobody took are left alone) on a connection whose binding (or, without one, its queue's)
 *   names an active closure flow gets the flow's initial step, sent on the closed ticket. The
 *   customer's answer opens a new ticket: on its ticket.created (same contact and connection,
 *   within the flow's wait time) the session moves to it and the bot is started on it
 *   (chatbots.start, ref "closure:<id>"); the "started" inbound's message is the answer. A new
 *   ticket that a bound connection already gave a bot is adopted when that inbound comes
 *   (engine.ts adoptClosure).
 */
import type { Context } from "moleculer";
import type { PlatformEventEnvelope, PlatformEventHandlers, PlatformTicket } from "@openatende/plugin-sdk";
import type { Engine } from "./engine";
import { SEEN_MAX } from "./sessions";
import { isTestPhone } from "./text";
import { Turn } from "./turn";

/** Ends the ticket's live session, if any, as cancelled. */
async function endLive(engine: Engine, ctx: Context, tenantId: number, ticketId: number, detail: string, at: number): Promise<void> {
  await engine.alone(tenantId, ticketId, async () => {
    const live = await engine.store.live(tenantId, ticketId);
    if (live) await engine.stop(engine.deps(ctx), tenantId, live, "cancelled", detail, at);
  });
}

/** The closure flow of a closed ticket's connection (else its queue), if one is bound. */
async function closureFlowOf(engine: Engine, tenantId: number, t: PlatformTicket): Promise<number | null> {
  const byConnection = t.connectionId ? await engine.flows.binding(tenantId, "connection", t.connectionId) : null;
  if (byConnection?.closureFlowId) return byConnection.closureFlowId;
  const byQueue = t.queueId ? await engine.flows.binding(tenantId, "queue", t.queueId) : null;
  return byQueue?.closureFlowId ?? null;
}

/** Sends a closure flow's initial step on the ticket an agent just closed, and waits for the customer's new ticket. */
async function startClosure(engine: Engine, ctx: Context, env: PlatformEventEnvelope<"ticket.closed">): Promise<void> {
  const { tenantId } = env;
  const t = env.data.ticket;
  if (!t.userId || t.isGroup) return;
  const flowId = await closureFlowOf(engine, tenantId, t);
  const flow = flowId ? await engine.flows.get(tenantId, flowId) : null;
  if (!flow || !flow.active || flow.kind !== "closure") return;
  const initial = flow.steps?.find((s) => s.initial);
  if (!initial) return;
  const deps = engine.deps(ctx);
  await engine.alone(tenantId, t.id, async () => {
    const latest = await engine.store.latestOf(tenantId, t.id);
    if (latest?.seen.includes(env.id)) return; // this close was handled already
    const contact = await deps.api.contacts.get({ tenantId, id: t.contactId });
    if (flow.testPhone && !isTestPhone(flow.testPhone, contact.number)) return;
    const created = await engine.store.create(tenantId, {
      ticketId: t.id,
      liveTicketId: null,
      flowId: flow.id,
      kind: "closure",
      contactId: t.contactId,
      connectionId: t.connectionId,
      contactName: contact.name.slice(0, 191),
      startedAt: env.at,
    });
    if (!created) return;
    const build = async (s: typeof created) => new Turn(deps, tenantId, s, flow, t, { id: contact.id, name: contact.name, number: contact.number, email: contact.email }, env.at);
    await engine.run(deps, tenantId, created, build, async (turn) => {
      turn.s.seen = [env.id].slice(-SEEN_MAX);
      await turn.send(initial.message, true);
      turn.s.at = initial.id;
      turn.open(initial.id, "waiting for the customer's new ticket");
      turn.s.wait = "closure";
      await deps.timers.scheduleClosure(tenantId, turn.s.id, flow.settings.waitMinutes);
    });
  });
}

/** A new ticket of a contact a closure flow waits for: the session moves to it and the bot starts on it. */
async function answerClosure(engine: Engine, ctx: Context, env: PlatformEventEnvelope<"ticket.created">): Promise<void> {
  const { tenantId } = env;
  const t = env.data.ticket;
  // A ticket a bound connection gave a bot already is adopted by its first inbound (engine.ts).
  if (t.status !== "pending" || t.userId || t.isGroup) return;
  const moved = await engine.alone(tenantId, t.id, async () => {
    if (await engine.store.live(tenantId, t.id)) return null;
    const waiting = await engine.waitingClosure(tenantId, t.contactId, t.connectionId, env.at);
    return waiting && engine.moveClosure(tenantId, waiting, t.id);
  });
  if (!moved) return;
  // Outside the ticket's turn: the core may hand the started inbound over before start answers.
  try {
    await engine.deps(ctx).api.chatbots.start({ tenantId, ticketId: t.id, ref: `closure:${moved.flowId}` });
  } catch (err) {
    engine.logger.warn(`closure flow ${moved.flowId}: not started on ticket ${t.id}: ${(err as Error).message}`);
    await endLive(engine, ctx, tenantId, t.id, `not started on the new ticket: ${(err as Error).message}`, env.at);
  }
}

export function engineEvents(engine: Engine): PlatformEventHandlers {
  return {
    "ticket.statusChanged": async (env, ctx) => {
      const t = env.data.ticket;
      if (env.data.from === "chatbot" && t.status !== "chatbot") await endLive(engine, ctx, env.tenantId, t.id, `the ticket became ${t.status}${t.userId ? ` (user ${t.userId})` : ""}`, env.at);
    },
    "ticket.transferred": async (env, ctx) => {
      const t = env.data.ticket;
      if (t.status !== "chatbot") await endLive(engine, ctx, env.tenantId, t.id, "the ticket was transferred", env.at);
    },
    "ticket.closed": async (env, ctx) => {
      await endLive(engine, ctx, env.tenantId, env.data.ticket.id, "the ticket was closed", env.at);
      await startClosure(engine, ctx, env);
    },
    "ticket.created": (env, ctx) => answerClosure(engine, ctx, env),
    "ticket.deleted": (env, ctx) => endLive(engine, ctx, env.tenantId, env.data.ticketId, "the ticket was deleted", env.at),
  };
}
