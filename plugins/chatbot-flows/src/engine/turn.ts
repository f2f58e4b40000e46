/**
 * One turn of a session: what the node and step runners act through. It holds the claimed
 * session's working copy (written back by the store's release), the run steps the turn records,
 * and the core calls of a conversation (send, hand off, close, save the contact), so the
 * runners say what happens and never how it is stored.
 */
import type { CoreApi } from "@openatende/plugin-sdk";
import type { BotSettings, Flow, FlowMedia, RunState } from "../model";
import type { SessionRow, SessionStatus, StepRow } from "./sessions";
import { fillText, firstNameOf } from "./text";
import type { Timers } from "./timers";

export interface TurnTicket {
  id: number;
  protocol: string | null;
  queueId: number | null;
  userId: number | null;
  connectionId: number | null;
}

export interface TurnContact {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
}

export interface TurnDeps {
  api: CoreApi;
  timers: Timers;
  /** The platform's outbound allow-list (webhooks). */
  outboundAllow: string[] | undefined;
}

const DETAIL_MAX = 255;
const clip = (s: string | null | undefined) => (s == null ? null : s.length > DETAIL_MAX ? `${s.slice(0, DETAIL_MAX - 1)}…` : s);

export class Turn {
  readonly steps: StepRow[] = [];

  constructor(
    readonly deps: TurnDeps,
    readonly tenantId: number,
    /** The session as it will be written back. */
    readonly s: SessionRow,
    readonly flow: Flow,
    readonly ticket: TurnTicket,
    readonly contact: TurnContact,
    /** The core's time of what caused the turn (its clock: the TestClock in tests). */
    readonly now: number,
  ) {}

  get settings(): BotSettings {
    return this.flow.settings;
  }

  get ended(): boolean {
    return this.s.status !== "running";
  }

  // --- run steps ------------------------------------------------------------------------

  /** Records a node visit (a step of its own); answers its seq. */
  step(nodeId: string, state: RunState, detail: string | null = null): number {
    const seq = this.s.stepSeq++;
    this.steps.push({ sessionId: this.s.id, seq, nodeId, state, detail: clip(detail), at: this.now });
    return seq;
  }

  /** A visit that waits (a question, a menu, a delay): recorded running, finished later by finishOpen. */
  open(nodeId: string, detail: string | null = null): void {
    this.s.openStep = this.step(nodeId, "running", detail);
  }

  /** Finishes the waiting visit with its state (the row of the same seq is rewritten). */
  finishOpen(state: RunState, detail: string | null = null): void {
    if (this.s.openStep < 0 || !this.s.at) return;
    const seq = this.s.openStep;
    const mine = this.steps.find((st) => st.seq === seq);
    if (mine) Object.assign(mine, { state, detail: clip(detail) ?? mine.detail, at: this.now });
    else this.steps.push({ sessionId: this.s.id, seq, nodeId: this.s.at, state, detail: clip(detail), at: this.now });
    this.s.openStep = -1;
  }

  // --- text -----------------------------------------------------------------------------

  fill(text: string): string {
    return fillText(text, { name: firstNameOf(this.contact.name), protocol: this.ticket.protocol ?? "", vars: this.s.vars });
  }

  /** `afterClose`: the ticket was just closed by an agent (a closure flow's question). */
  async send(text: string, afterClose = false): Promise<void> {
    const body = this.fill(text);
    if (!body.trim()) return;
    await this.deps.api.messages.send({ tenantId: this.tenantId, ticketId: this.ticket.id, body, ...(afterClose ? { afterClose } : {}) });
  }

  async sendMedia(media: FlowMedia, caption?: string): Promise<void> {
    await this.deps.api.messages.send({
      tenantId: this.tenantId,
      ticketId: this.ticket.id,
      body: caption ? this.fill(caption) : "",
      media: { path: media.path, mimeType: media.mimeType, fileName: media.fileName },
    });
  }

  // --- waiting --------------------------------------------------------------------------

  /** Waits at `nodeId` for the customer's answer, for the flow's wait time (then the hand-off "timeout"). */
  async waitAnswer(nodeId: string): Promise<void> {
    this.s.at = nodeId;
    this.s.wait = "answer";
    this.s.waitDue = await this.deps.timers.scheduleWait(this);
  }

  // --- endings --------------------------------------------------------------------------

  private end(status: SessionStatus): void {
    this.s.status = status;
    this.s.liveTicketId = null;
    this.s.wait = null;
    this.s.waitDue = 0;
    this.s.endedAt = this.now;
  }

  /**
   * Gives the ticket to a queue or user (neither: pending in its queue), distributed as the
   * flow's settings say. The ticket no longer being the bot's (an agent took it meanwhile)
   * ends the session as cancelled instead.
   */
  async handoff(target: { queueId: number | null; userId: number | null }, reason: "flow" | "attempts" | "timeout", status: SessionStatus = "handedOff"): Promise<void> {
    try {
      await this.deps.api.chatbots.handoff({
        tenantId: this.tenantId,
        ticketId: this.ticket.id,
        queueId: target.queueId,
        userId: target.userId,
        distribute: this.settings.distribute,
        reason,
      });
      this.end(status);
    } catch (err) {
      if ((err as { type?: string }).type !== "ERR_CHATBOT_NOT_OWNER") throw err;
      this.step(this.s.at ?? "handoff", "warning", "the ticket was no longer the bot's");
      this.end("cancelled");
    }
  }

  /** The hand-off the settings name (attempts, timeout, a path with nowhere to go). */
  handoffBySettings(reason: "flow" | "attempts" | "timeout", status?: SessionStatus): Promise<void> {
    return this.handoff({ queueId: this.settings.handoffQueueId, userId: this.settings.handoffUserId }, reason, status);
  }

  /** Closes the ticket (an end node). */
  async close(): Promise<void> {
    try {
      await this.deps.api.tickets.update({ tenantId: this.tenantId, id: this.ticket.id, status: "closed" });
      this.end("closed");
    } catch (err) {
      if ((err as { type?: string }).type !== "ERR_CHATBOT_NOT_OWNER") throw err;
      this.end("cancelled");
    }
  }

  /** Ends without touching the ticket (an agent took it, a closure answer never came). */
  stop(status: Extract<SessionStatus, "cancelled" | "expired">, detail: string): void {
    this.finishOpen("warning", detail);
    this.end(status);
  }

  // --- the contact ----------------------------------------------------------------------

  async saveContact(field: "name" | "email", value: string): Promise<void> {
    const c = await this.deps.api.contacts.update({ tenantId: this.tenantId, id: this.contact.id, [field]: value });
    this.contact.name = c.name;
    this.contact.email = c.email;
    this.s.contactName = c.name;
  }
}
