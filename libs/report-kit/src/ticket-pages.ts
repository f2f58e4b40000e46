/**
 * Every ticket of a tenant for a report's backfill, through the core API's keyset pages by id
 * (platform.tickets.after): each page costs the same however deep the read goes, and a ticket
 * that changes or goes meanwhile moves no other (pages of activity order with an OFFSET skipped
 * one whenever a ticket was deleted ahead of the read, and cost more at each page).
 */
import type { CoreApi, PlatformTicket, PlatformTicketStatus } from "@openatende/plugin-sdk";

export interface TicketPage {
  rows: PlatformTicket[];
  /** Tickets read so far, and how many there were when the read began (never less than read). */
  seen: number;
  expected: number;
}

export async function* ticketPages(api: CoreApi, tenantId: number, status: readonly PlatformTicketStatus[], limit = 500): AsyncGenerator<TicketPage> {
  let afterId = 0;
  let seen = 0;
  let expected = 0;
  for (;;) {
    const page = await api.tickets.after({ tenantId, status: [...status], afterId, limit, withTotal: afterId === 0 });
    if (page.total !== undefined) expected = page.total;
    seen += page.rows.length;
    yield { rows: page.rows, seen, expected: Math.max(expected, seen) };
    if (page.nextAfterId === null || !page.rows.length) return;
    afterId = page.nextAfterId;
  }
}
