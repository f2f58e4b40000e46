/**
 * The engine's turns: a customer's message (chatbot.onMessage), a timer's job, a closure
 * answer, an agent taking the ticket. Each runs alone for its ticket (KeyedQueue in this
 * process, the session's claim across nodes: sessions.ts), on a working copy of the session
 * that is written back with its run steps when the turn ends; a turn that throws frees the
 * claim and writes nothing, and its delivery is tried again by whoever sent it (the core's
 * inbound queue, the scheduler, the event delivery).
 *
 * Times are the core's (the inbound's `at`, the event's, the job's due time): with the core on
 * a TestClock, the sessions' times and the business-hours checks follow it.
 */
import type { Context, Service } from "moleculer";
import { coreApi, pluginContext, pluginJobs, type ChatbotInbound, type PluginData, type PluginJobs } from "@openatende/plugin-sdk";
import type { Flow } from "../model";
import { answerAutoReply, startAutoReply } from "./auto-reply";
import { answerChat, resumeChat, startChat } from "./chat";
import { TEXT_MAX } from "./conditions";
import type { FlowSource } from "./index";
import { KeyedQueue, SEEN_MAX, SessionStore, SessionBusyError, type SessionRow, type SessionStatus, type StepRow } from "./sessions";
import { isTestPhone } from "./text";
import { Timers } from "./timers";
import { Turn, type TurnContact, type TurnDeps, type TurnTicket } from "./turn";

/** A binding's ref: the flow's id, or "closure:<id>" for a closure flow the engine started itself. */
export function flowIdOfRef(ref: string): number | null {
  const m = /^(?:closure:)?(\d{1,10})$/.exec(ref.trim());
  return m ? Number(m[1]) : null;
}

export class Engine {
  store!: SessionStore;
  private svc!: Service;
  private jobs!: PluginJobs;
  private allow: string[] | undefined;
  readonly queue = new KeyedQueue();

  constructor(readonly flows: FlowSource) {}

  start(svc: Service, data: PluginData): void {
    this.svc = svc;
    this.store = new SessionStore(data);
    this.jobs = pluginJobs(svc);
    try {
      this.allow = pluginContext(svc).outboundAllow;
    } catch {
      this.allow = undefined;
    }
  }

  get logger() {
    return this.svc.logger;
  }

  deps(ctx: Context): TurnDeps {
    return { api: coreApi(ctx), timers: new Timers(this.jobs, ctx), outboundAllow: this.allow };
  }

  /** One ticket's turns, one after the other in this process. */
  alone<T>(tenantId: number, ticketId: number, task: () => Promise<T>): Promise<T> {
    return this.queue.run(`${tenantId}:${ticketId}`, task);
  }

  /**
   * Runs `body` on a claimed session and writes the result back. An ended session leaves no
   * timer behind. A throw frees the claim (nothing written) and is passed on.
   */
  async run(deps: TurnDeps, tenantId: number, claimed: SessionRow, build: (s: SessionRow) => Promise<Turn>, body: (turn: Turn) => Promise<void>): Promise<Turn> {
    const s: SessionRow = { ...claimed, vars: { ...claimed.vars }, seen: [...claimed.seen] };
    let turn: Turn;
    try {
      turn = await build(s);
      await body(turn);
    } catch (err) {
      await this.store.abandon(tenantId, claimed).catch(() => undefined);
      throw err;
    }
    const [released] = await Promise.all([
      this.store.release(tenantId, claimed, s, turn.steps),
      turn.ended ? deps.timers.cancelAll(tenantId, s.id, s.kind).catch((err: Error) => this.logger.warn(`session ${s.id}: timers not cancelled: ${err.message}`)) : undefined,
    ]);
    if (!released) this.logger.warn(`session ${s.id}: its claim ran out before the turn ended; the turn's state was not written`);
    return turn;
  }

  /** Ends a live session without touching its ticket (an agent took it, it was deleted, the bot restarted). */
  async stop(deps: TurnDeps, tenantId: number, row: SessionRow, status: Extract<SessionStatus, "cancelled" | "expired">, detail: string, now: number): Promise<void> {
    const claimed = await this.store.claim(tenantId, row);
    const s: SessionRow = { ...claimed };
    const steps: StepRow[] = [];
    if (s.openStep >= 0 && s.at) steps.push({ sessionId: s.id, seq: s.openStep, nodeId: s.at, state: "warning", detail, at: now });
    Object.assign(s, { status, liveTicketId: null, wait: null, waitDue: 0, openStep: -1, endedAt: now });
    await this.store.release(tenantId, claimed, s, steps);
    await deps.timers.cancelAll(tenantId, s.id, s.kind).catch((err: Error) => this.logger.warn(`session ${s.id}: timers not cancelled: ${err.message}`));
  }

  /** A turn of a session from the inbound's ticket and contact. */
  turnOf(deps: TurnDeps, tenantId: number, flow: Flow, ticket: TurnTicket, contact: TurnContact, now: number) {
    return async (s: SessionRow) => new Turn(deps, tenantId, s, flow, { ...ticket }, { ...contact }, now);
  }

  /** A turn of a session that no message started (a job): its ticket and contact read from the core. */
  async turnFromCore(deps: TurnDeps, tenantId: number, s: SessionRow, flow: Flow, now: number): Promise<Turn> {
    const t = await deps.api.tickets.get({ tenantId, id: s.ticketId });
    const c = await deps.api.contacts.get({ tenantId, id: t.contactId });
    return new Turn(deps, tenantId, s, flow, t, { id: c.id, name: c.name, number: c.number, email: c.email }, now);
  }

  /** The customer's answer to where the session waits (chat node or auto-reply step). */
  async answer(turn: Turn, text: string): Promise<void> {
    if (turn.flow.kind === "chat") await answerChat(turn, text);
    else await answerAutoReply(turn, text);
  }

  // --- inbound messages -------------------------------------------------------------------

  async onMessage(inbound: ChatbotInbound, ctx: Context): Promise<void> {
    await this.alone(inbound.tenantId, inbound.ticket.id, () => this.inbound(inbound, this.deps(ctx)));
  }

  private async inbound(inbound: ChatbotInbound, deps: TurnDeps): Promise<void> {
    const { tenantId, ticket } = inbound;
    // The flow the ticket's bot names, read alongside the session (it is the live session's flow unless the bot changed).
    const refFlowId = flowIdOfRef(inbound.ref);
    const [found, refFlow] = await Promise.all([this.store.live(tenantId, ticket.id), refFlowId === null ? null : this.flows.get(tenantId, refFlowId)]);
    const flowOf = async (id: number) => (refFlow && refFlow.id === id ? refFlow : this.flows.get(tenantId, id));
    let live = found;
    if (live?.seen.includes(inbound.id)) return;
    if (!live && (await this.store.latestOf(tenantId, ticket.id))?.seen.includes(inbound.id)) return;

    // The bot started again on a ticket it was still talking on (a transfer to a bound queue): the old conversation ends.
    if (live && inbound.reason === "started" && live.wait !== "closure") {
      await this.stop(deps, tenantId, live, "cancelled", "the bot was started again on this ticket", inbound.at);
      live = null;
    }
    if (!live) live = await this.adoptClosure(deps, inbound);
    const text = (inbound.message?.body ?? "").slice(0, TEXT_MAX);
    const contact: TurnContact = { ...inbound.contact };
    const remember = (turn: Turn) => {
      turn.s.seen = [...turn.s.seen, inbound.id].slice(-SEEN_MAX);
      if (inbound.message) turn.s.lastText = text;
    };

    if (live) {
      const flow = await flowOf(live.flowId);
      if (!flow) return this.noFlow(deps, inbound, live);
      await this.run(deps, tenantId, await this.store.claim(tenantId, live), this.turnOf(deps, tenantId, flow, ticket, contact, inbound.at), async (turn) => {
        remember(turn);
        if (turn.s.wait === "closure") {
          turn.s.wait = "answer";
          const answer = text || (await this.latestCustomerText(deps, tenantId, ticket.id));
          if (answer) await this.answer(turn, answer);
          else await turn.waitAnswer(turn.s.at ?? "");
        } else if (turn.s.wait === "answer" && inbound.message) await this.answer(turn, text);
        // A session whose first turn failed (nothing of it was written): it starts now.
        else if (turn.s.wait === null && turn.s.stepSeq === 0) await this.begin(turn);
        // Waiting out a delay: the message is kept as the latest (conditions read it), nothing more.
      });
      return;
    }

    const flow = refFlow;
    if (!flow || !flow.active) return this.noFlow(deps, inbound, null);
    // A flow with a test phone runs for that number only: anyone else goes straight to the queue.
    if (flow.testPhone && !isTestPhone(flow.testPhone, inbound.contact.number)) {
      await this.plainHandoff(deps, tenantId, ticket.id, flow);
      return;
    }
    const created = await this.store.create(tenantId, {
      ticketId: ticket.id,
      liveTicketId: ticket.id,
      flowId: flow.id,
      kind: flow.kind,
      contactId: inbound.contact.id,
      connectionId: ticket.connectionId,
      contactName: inbound.contact.name.slice(0, 191),
      startedAt: inbound.at,
    });
    if (!created) throw new SessionBusyError(0); // another node started this ticket's session just now: tried again, it continues that one
    await this.run(deps, tenantId, created, this.turnOf(deps, tenantId, flow, ticket, contact, inbound.at), async (turn) => {
      remember(turn);
      await this.begin(turn);
    });
  }

  /** A new conversation: the chat flow's start node, or the auto-reply's initial step. */
  private async begin(turn: Turn): Promise<void> {
    if (turn.flow.kind === "chat") await startChat(turn);
    else await startAutoReply(turn);
  }

  /** A closure flow's question that waits for this contact's new ticket on the same connection: it becomes this ticket's session. */
  private async adoptClosure(deps: TurnDeps, inbound: ChatbotInbound): Promise<SessionRow | null> {
    const found = await this.waitingClosure(inbound.tenantId, inbound.contact.id, inbound.ticket.connectionId, inbound.at);
    if (!found) return null;
    return this.moveClosure(inbound.tenantId, found, inbound.ticket.id);
  }

  /** The contact's closure session still waiting (within its flow's wait time) for a new ticket on `connectionId`. */
  async waitingClosure(tenantId: number, contactId: number, connectionId: number | null, now: number): Promise<SessionRow | null> {
    if (connectionId === null) return null;
    for (const s of await this.store.waitingClosures(tenantId, contactId)) {
      if (s.connectionId !== connectionId) continue;
      const flow = await this.flows.get(tenantId, s.flowId);
      if (flow && now - s.startedAt <= flow.settings.waitMinutes * 60_000) return s;
    }
    return null;
  }

  /** Moves a waiting closure session to the customer's new ticket (still waiting for the answer there). Null if it cannot. */
  async moveClosure(tenantId: number, row: SessionRow, ticketId: number): Promise<SessionRow | null> {
    const claimed = await this.store.claim(tenantId, row);
    const moved = { ...claimed, ticketId, liveTicketId: ticketId };
    const ok = await this.store.release(tenantId, claimed, moved, []).catch((err: Error) => {
      this.logger.warn(`closure session ${row.id} not moved to ticket ${ticketId}: ${err.message}`);
      return false;
    });
    if (!ok) {
      await this.store.abandon(tenantId, claimed).catch(() => undefined);
      return null;
    }
    return { ...moved, version: claimed.version + 1, busyUntil: 0 };
  }

  /** The customer's last message on a ticket (a closure answer that opened a ticket the bot was then started on). */
  private async latestCustomerText(deps: TurnDeps, tenantId: number, ticketId: number): Promise<string> {
    const page = await deps.api.messages.list({ tenantId, ticketId, limit: 10 });
    const mine = page.rows.filter((m) => !m.fromMe && m.body).sort((a, b) => b.id - a.id)[0];
    return (mine?.body ?? "").slice(0, TEXT_MAX);
  }

  /** No flow to run (deleted, inactive, an unknown ref): the ticket goes to its queue. */
  private async noFlow(deps: TurnDeps, inbound: ChatbotInbound, live: SessionRow | null): Promise<void> {
    this.logger.warn(`ticket ${inbound.ticket.id}: no active flow for the bot "${inbound.ref}"; handed to its queue`);
    if (live) await this.stop(deps, inbound.tenantId, live, "cancelled", "the flow is gone", inbound.at);
    await this.plainHandoff(deps, inbound.tenantId, inbound.ticket.id, null);
  }

  private async plainHandoff(deps: TurnDeps, tenantId: number, ticketId: number, flow: Flow | null): Promise<void> {
    try {
      await deps.api.chatbots.handoff({ tenantId, ticketId, distribute: flow?.settings.distribute ?? "none", reason: "flow" });
    } catch (err) {
      if ((err as { type?: string }).type !== "ERR_CHATBOT_NOT_OWNER") throw err;
    }
  }

  // --- timers ---------------------------------------------------------------------------

  /** A job's turn on its session, if the session still waits as the job was set for (else nothing: the job is stale). */
  async onTimer(ctx: Context, tenantId: number, sessionId: number, dueAt: number, stillDue: (s: SessionRow) => boolean, body: (turn: Turn) => Promise<void>): Promise<boolean> {
    const first = await this.store.byId(tenantId, sessionId);
    if (!first || !stillDue(first)) return false;
    const deps = this.deps(ctx);
    return this.alone(tenantId, first.ticketId, async () => {
      const row = await this.store.byId(tenantId, sessionId);
      if (!row || !stillDue(row)) return false;
      const flow = await this.flows.get(tenantId, row.flowId);
      if (!flow) {
        await this.stop(deps, tenantId, row, "cancelled", "the flow is gone", dueAt);
        return false;
      }
      await this.run(deps, tenantId, await this.store.claim(tenantId, row), (s) => (s.liveTicketId === null ? Promise.resolve(new Turn(deps, tenantId, s, flow, { id: s.ticketId, protocol: null, queueId: null, userId: null, connectionId: s.connectionId }, { id: s.contactId, name: s.contactName, number: null, email: null }, dueAt)) : this.turnFromCore(deps, tenantId, s, flow, dueAt)), body);
      return true;
    });
  }

  timeout(ctx: Context, tenantId: number, data: { sessionId: number }, dueAt: number): Promise<boolean> {
    const due = (s: SessionRow) => s.status === "running" && s.wait === "answer" && s.waitDue === dueAt;
    return this.onTimer(ctx, tenantId, data.sessionId, dueAt, due, async (turn) => {
      turn.finishOpen("warning", `no answer in ${turn.settings.waitMinutes} min`);
      await turn.handoffBySettings("timeout", "expired");
    });
  }

  resume(ctx: Context, tenantId: number, data: { sessionId: number; nodeId: string; seq: number; index: number }, dueAt: number): Promise<boolean> {
    const due = (s: SessionRow) => s.status === "running" && s.wait === "delay" && s.waitDue === dueAt && s.resume === data.index;
    return this.onTimer(ctx, tenantId, data.sessionId, dueAt, due, (turn) => resumeChat(turn, data.index));
  }

  closureExpired(ctx: Context, tenantId: number, data: { sessionId: number }, dueAt: number): Promise<boolean> {
    const due = (s: SessionRow) => s.status === "running" && s.wait === "closure" && s.liveTicketId === null;
    return this.onTimer(ctx, tenantId, data.sessionId, dueAt, due, async (turn) => turn.stop("expired", `no new ticket in ${turn.settings.waitMinutes} min`));
  }
}
