/**
 * The automation's decisions that need nothing but their inputs (unit-tested in
 * ./decide.test.ts): what a customer's message outside hours gets, and the placeholders of
 * the automatic texts. The rules themselves are told in ./automation.service.ts.
 */
import type { SmartCloseSettings, TimeState } from "@openatende/contracts/business-time";

/** What an inbound message answers when the ticket's hours are closed. */
export type OutOfHoursAction =
  /** Nothing to send (no text anywhere). */
  | { kind: "none" }
  /** A notice, once per ticket per closed period (`period`, the state's key of it). */
  | { kind: "notice"; text: string; period: number }
  /** Smart close: the ticket closes, with `text` when there is one. */
  | { kind: "smartClose"; text: string | null; period: number };

const filled = (s: string | null | undefined): string | null => (s && s.trim() ? s : null);

/**
 * Closed hours (`state.open` false) and the tenant's smart-close settings decide:
 *  - smart close on, no open time in the next 24 h, and not (window24h and the next local day
 *    has hours): close, with the no-next-day text (else the state's message);
 *  - otherwise a notice: with smart close on, its lunch text during lunch, the state's own
 *    message on a holiday (a holiday's text is the most specific one there is), its
 *    out-of-office text otherwise, each falling back to the other available text (the
 *    state's message, then out-of-office); with smart close off, the state's message.
 * An open state, or a notice with no text at all, is nothing.
 */
export function outOfHoursAction(state: TimeState, smart: SmartCloseSettings): OutOfHoursAction {
  if (state.open) return { kind: "none" };
  const period = state.period ?? -1;
  const message = filled(state.message);
  if (smart.enabled) {
    const waits = smart.window24h && state.nextDayHasHours;
    if (!state.openWithin24h && !waits) return { kind: "smartClose", text: filled(smart.noNextDayMessage) ?? message, period };
    const own = filled(smart.outOfOfficeMessage);
    const text = state.reason === "lunch" ? (filled(smart.lunchMessage) ?? message ?? own) : state.reason === "holiday" ? (message ?? own) : (own ?? message);
    return text ? { kind: "notice", text, period } : { kind: "none" };
  }
  return message ? { kind: "notice", text: message, period } : { kind: "none" };
}

/** What the placeholders of an automatic text stand for. */
export interface TextValues {
  /** The contact's first name (its first-name field, else the first word of its name). */
  name: string;
  /** The ticket's protocol ("" when it has none). */
  protocol: string;
}

/**
 * Fills the placeholders of a greeting, farewell, out-of-hours or closing text:
 * `{{name}}` (the contact's first name) and `{{protocol}}` (the ticket's protocol), any case,
 * spaces allowed inside the braces. Anything else in braces is left as written.
 */
export function fillText(text: string, v: TextValues): string {
  return text.replace(/\{\{\s*(name|protocol)\s*\}\}/gi, (_m, key: string) => (key.toLowerCase() === "name" ? v.name : v.protocol));
}

/** The first name a text calls the contact by. */
export function firstNameOf(contact: { name?: string | null; firstName?: string | null } | null): string {
  const first = filled(contact?.firstName ?? null);
  if (first) return first.trim();
  return (contact?.name ?? "").trim().split(/\s+/)[0] ?? "";
}
