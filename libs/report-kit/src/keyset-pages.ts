/**
 * Every ticket or contact of a tenant for a report's backfill, through the core API's keyset
 * pages by id (platform.tickets.after, platform.contacts.after): each page costs the same
 * however deep the read goes, and a row that changes or goes meanwhile moves no other (pages
 * in activity or name order with an OFFSET skipped one whenever a row ahead of the read was
 * deleted, and cost more at each page).
 */
import type { CoreApi, KeysetPage, PlatformContact, PlatformTicket, PlatformTicketStatus } from "@openatende/plugin-sdk";

export interface BackfillPage<T> {
  rows: T[];
  /** Rows read so far, and how many there were when the read began (never less than read). */
  seen: number;
  expected: number;
}

/** Pages of `read(afterId, withTotal)` until its last; the first page is asked its total. */
export async function* keysetPages<T>(read: (afterId: number, withTotal: boolean) => Promise<KeysetPage<T> & { total?: number }>): AsyncGenerator<BackfillPage<T>> {
  let afterId = 0;
  let seen = 0;
  let expected = 0;
  for (let first = true; ; first = false) {
    const page = await read(afterId, first);
    if (page.total !== undefined) expected = page.total;
    seen += page.rows.length;
    yield { rows: page.rows, seen, expected: Math.max(expected, seen) };
    if (page.nextAfterId === null || !page.rows.length) return;
    afterId = page.nextAfterId;
  }
}

export const ticketPages = (api: CoreApi, tenantId: number, status: readonly PlatformTicketStatus[], limit = 500): AsyncGenerator<BackfillPage<PlatformTicket>> =>
  keysetPages((afterId, withTotal) => api.tickets.after({ tenantId, status: [...status], afterId, limit, withTotal }));

export const contactPages = (api: CoreApi, tenantId: number, limit = 500): AsyncGenerator<BackfillPage<PlatformContact>> =>
  keysetPages((afterId, withTotal) => api.contacts.after({ tenantId, afterId, limit, withTotal }));
