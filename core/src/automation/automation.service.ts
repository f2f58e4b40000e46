/**
 * Automation: the messages and closes nobody types (spec §3 Smart-close and General settings,
 * §4 Ticket, §9 auto-close choices). It listens to tickets.changed and messages.changed and
 * runs auto-close on the scheduler; every decision about time goes by the core's clock
 * (deps.clock) and business time (businessTime.state for the ticket's queue, user and
 * connection).
 *
 * What happens, precisely:
 *  1. Greeting: a ticket opened by a customer's message (its create event carries no user:
 *     not an agent's, not a group) on a connection with a greeting gets it once (claim
 *     "greeting", period 0) — unless its hours are closed right then: the closed-period
 *     notice (3) goes instead, from the message.
 *  2. Farewell: a ticket an agent closes (the close's event carries the user: PUT /tickets,
 *     mass resolve; not an automatic close, not a plugin's or a merge's) gets the connection's
 *     farewell, once per close (claim "farewell", period = the close time). It is sent after
 *     the close with messages.platformSend's internal `afterClose`.
 *  3. Out-of-hours notice: a customer's message (not fromMe, no group, ticket active and not
 *     a bot's — status chatbot: the bot keeps hours by its own conditions) while
 *     the ticket's hours are closed gets the state's message — the most specific of holiday,
 *     schedule and global, business-time's choice — once per ticket per closed period
 *     (claim "closed", period = state.period: the period's end), never on every message.
 *  4. Smart close (setting smartClose.enabled), on such a message: when no open time falls
 *     in the next 24 h (state.openWithin24h false) — and, with `window24h`, the next local day
 *     has no hours either (state.nextDayHasHours false; when it has, it waits) — the ticket
 *     closes (log "autoClose" { reason: "smartClose" }, claim "smartClose" per period) and
 *     then gets noNextDayMessage, else the state's message. Otherwise smart close's own texts
 *     replace the plain notice of 3: lunchMessage during lunch, outOfOfficeMessage outside
 *     hours, the state's message on a holiday, each falling back to the other texts when
 *     empty (./decide.ts outOfHoursAction, unit-tested).
 *  5. Auto-close (setting autoClose.minutes > 0, spec §9 choices): every message on an
 *     active, non-group ticket, either direction, (re)schedules the job "autoClose" (key:
 *     the ticket's id) at now + minutes; its handler re-checks (still active, no message
 *     since the one it was scheduled for, the setting still on), claims ("autoClose", period
 *     = lastMessageAt), closes (log "autoClose" { reason: "inactivity" }) and then sends
 *     autoClose.message when set. Any close or deletion cancels the job. A change of the
 *     setting reaches a ticket with its next message (the job already scheduled keeps its
 *     time; switched off, it does nothing when due, and messages leave it in place).
 *
 * Placeholders in every automatic text: {{name}} (the contact's first name) and {{protocol}}
 * (the ticket's protocol).
 *
 * Exactly once: each act is claimed in ticket_automations (./claims.ts) before it is done,
 * and the scheduler's job ids and done-markers run an occurrence once, so a re-delivered
 * event, a retried job, a restart or a second node never sends or closes twice.
 */
import type { ServiceBroker, ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import { TtlCache } from "../lib/ttl-cache";
import { jobHandlers } from "../scheduler";
import type { TicketsEvents } from "../tickets/contract";
import type { MessagesEvents } from "../messages/contract";
import type { SmartCloseSettings } from "@openatende/contracts/business-time";
import { automationClaims } from "./claims";
import { automaticMessages, type AutomaticMessages } from "./notices";
import { AUTO_CLOSE_JOB, OWNER, autoCloser, watched, type AutoCloseSetting, type AutoCloser } from "./auto-close";

type TicketChanged = TicketsEvents["tickets.changed"];
type MessageChanged = MessagesEvents["messages.changed"];
type Settings = { autoClose: AutoCloseSetting; smartClose: SmartCloseSettings };

/** How long a tenant's settings are reused for its messages (a save drops them at once: settings.changed). */
const SETTINGS_TTL_MS = 5000;

export function createAutomationService(deps: CoreDeps): ServiceSchema {
  const claims = automationClaims(deps.sequelize);
  let broker: ServiceBroker;
  let warn: (msg: string) => void;
  let messages: AutomaticMessages;
  let closer: AutoCloser;
  // Every message asks for its tenant's settings: kept a few seconds, per process (concurrent misses share one read).
  const settingsCache = new TtlCache<number, Settings>(SETTINGS_TTL_MS, 50_000);

  return {
    name: "automation",
    dependencies: ["scheduler"],

    created() {
      // Calls go from the broker, not the event's context: the automation acts as nobody.
      broker = this.broker;
      warn = (msg) => this.logger.warn(msg);
      messages = automaticMessages(broker, claims, deps.clock);
      closer = autoCloser(broker, claims, deps.clock);
      jobHandlers(broker).register(OWNER, AUTO_CLOSE_JOB, (job) => closer.run(job));
    },

    events: {
      "tickets.changed"(ctx: Ctx<TicketChanged>) {
        const p = ctx.params;
        // Who changed it: the event's context carries the request's user (an agent's close).
        const byUser = !!ctx.meta.user;
        return onTicket(p, byUser).catch((err: Error) => warn(`automation (ticket ${p.ticket.id}): ${err.message}`));
      },
      "settings.changed"(ctx: Ctx<{ tenantId: number }>) {
        settingsCache.dropKey(ctx.params.tenantId);
      },
      "messages.changed"(ctx: Ctx<MessageChanged>) {
        const p = ctx.params;
        if (p.action !== "create") return;
        return onMessage(p).catch((err: Error) => warn(`automation (message ${p.message.id}): ${err.message}`));
      },
    },
  };

  async function onTicket(p: TicketChanged, byUser: boolean): Promise<void> {
    const t = p.ticket;
    if (p.type === "ticket:delete") return closer.cancel(t);
    if (p.type === "ticket:create") {
      if (!byUser && watched(t)) await messages.greet(t);
      return;
    }
    const closedNow = t.status === "closed" && !!p.before && p.before.status !== "closed";
    if (!closedNow) return;
    await closer.cancel(t);
    if (byUser && !t.isGroup) await messages.farewell(t);
  }

  async function onMessage(p: MessageChanged): Promise<void> {
    const settings = await settingsOf(p.tenantId);
    const autoClose = settings.autoClose.minutes > 0;
    // Auto-close off: only a customer's message on a ticket that is no bot's may have something
    // to do (the out-of-hours notice); the ticket is not even read for the others (an own
    // message, a bot's conversation). A job left from when it was on does nothing when due.
    if (!autoClose && (p.message.fromMe || p.ticketStatus === "chatbot")) return;
    const t = await call(broker, "tickets.getInternal", { tenantId: p.tenantId, id: p.ticketId });
    if (!t) return;
    if (autoClose) await closer.onMessage(t, settings.autoClose, p.message.timestamp);
    // A bot's ticket (status chatbot) keeps hours by its own conditions: no notice, no smart close.
    if (!p.message.fromMe && watched(t) && t.status !== "chatbot") await messages.outOfHours(t, settings.smartClose);
  }

  function settingsOf(tenantId: number): Promise<Settings> {
    return settingsCache.get(tenantId, async () => {
      const all = await call(broker, "settings.forTenant", { tenantId });
      return { autoClose: (all.autoClose ?? { minutes: 0 }) as AutoCloseSetting, smartClose: (all.smartClose ?? { enabled: false, window24h: false }) as SmartCloseSettings };
    });
  }
}
