import type { ServiceWindowView } from "@openatende/contracts/realtime";

/** What the composer needs of the window now. */
export interface WindowNow {
  hours: number;
  open: boolean;
  closesAt: number | null;
}

/**
 * The ticket's customer-service window as of `now`: what GET /tickets/{id} said, moved on by
 * the contact's messages that arrived since (their channel timestamps) and by the time passed,
 * so the composer turns to templates when the window closes and back when the contact writes.
 * Null on channels without a window.
 */
export function windowNow(sw: ServiceWindowView | null | undefined, messages: ReadonlyArray<{ fromMe: boolean; timestamp: number }>, now: number): WindowNow | null {
  if (!sw) return null;
  let last = sw.lastInboundAt ?? 0;
  for (const m of messages) if (!m.fromMe && m.timestamp > last) last = m.timestamp;
  const closesAt = last ? last + sw.hours * 3_600_000 : null;
  return { hours: sw.hours, open: closesAt !== null && closesAt > now, closesAt };
}
