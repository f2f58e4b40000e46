import type { Caller } from "@openatende/plugin-sdk";
import { call } from "../bus/call";
import type { Clock } from "../lib/clock";
import type { TicketRow } from "../tickets/contract";
import type { SmartCloseSettings, TimeState } from "@openatende/contracts/business-time";
import type { AutomationClaims, AutomationKind } from "./claims";
import { fillText, firstNameOf, outOfHoursAction } from "./decide";

/**
 * The automatic messages of ./automation.service.ts: the greeting, the farewell and the
 * out-of-hours notice with smart close. Each is claimed (./claims.ts) before it is sent.
 */
export function automaticMessages(broker: Caller, claims: AutomationClaims, clock: Clock) {
  const stateOf = (t: TicketRow): Promise<TimeState> =>
    call(broker, "businessTime.state", { tenantId: t.tenantId, target: { queueId: t.queueId, userId: t.userId, connectionId: t.connectionId }, at: clock.now() });

  /** `text` with its placeholders filled for the ticket. */
  async function textFor(t: TicketRow, text: string): Promise<string> {
    if (!/\{\{/.test(text)) return text;
    const contact = await call(broker, "contacts.getInternal", { tenantId: t.tenantId, id: t.contactId });
    return fillText(text, { name: firstNameOf(contact), protocol: t.protocol ?? "" });
  }

  /** Claims (kind, period) of the ticket and sends `text`; false when it was claimed before. */
  async function once(t: TicketRow, kind: AutomationKind, period: number, text: string, afterClose = false): Promise<boolean> {
    const claim = await claims.claim(t.tenantId, t.id, kind, period);
    if (claim === null) return false;
    const body = (await textFor(t, text)).trim();
    if (!body) return true;
    const sent = await call(broker, "messages.platformSend", { tenantId: t.tenantId, ticketId: t.id, body, ...(afterClose ? { afterClose } : {}) });
    await claims.sent(t.tenantId, claim, sent.id);
    return true;
  }

  async function connectionOf(t: TicketRow) {
    return t.connectionId ? await call(broker, "connections.getInternal", { id: t.connectionId }) : null;
  }

  return {
    /** A ticket a customer's message opened: the connection's greeting, unless the hours are closed (then the notice goes, from the message). */
    async greet(t: TicketRow): Promise<void> {
      const connection = await connectionOf(t);
      if (!connection?.greeting?.trim() || connection.tenantId !== t.tenantId) return;
      if (!(await stateOf(t)).open) return;
      await once(t, "greeting", 0, connection.greeting);
    },

    /** A ticket an agent closed: the connection's farewell, once per close. */
    async farewell(t: TicketRow): Promise<void> {
      const connection = await connectionOf(t);
      if (!connection?.farewell?.trim() || connection.tenantId !== t.tenantId) return;
      const closedAt = t.closedAt ? new Date(t.closedAt).getTime() : 0;
      await once(t, "farewell", closedAt, connection.farewell, true);
    },

    /**
     * A customer's message on an active ticket: outside hours, the notice of the closed
     * period (once per period) or smart close (once: the ticket closes, then its text goes).
     */
    async outOfHours(t: TicketRow, smart: SmartCloseSettings): Promise<void> {
      const state = await stateOf(t);
      const action = outOfHoursAction(state, smart);
      if (action.kind === "notice") {
        await once(t, "closed", action.period, action.text);
      } else if (action.kind === "smartClose") {
        const claim = await claims.claim(t.tenantId, t.id, "smartClose", action.period);
        if (claim === null) return;
        const closed = await call(broker, "tickets.autoClose", { tenantId: t.tenantId, id: t.id, reason: "smartClose" });
        if (!closed || !action.text) return;
        const body = (await textFor(closed, action.text)).trim();
        if (!body) return;
        const sent = await call(broker, "messages.platformSend", { tenantId: t.tenantId, ticketId: t.id, body, afterClose: true });
        await claims.sent(t.tenantId, claim, sent.id);
      }
    },
  };
}

export type AutomaticMessages = ReturnType<typeof automaticMessages>;
