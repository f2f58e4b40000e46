/**
 * A campaign's contacts from their source (spec §2 Campaigns): the tenant's contacts carrying
 * any of some tags, chosen contacts of the list, or a CSV's numbers matched to the tenant's
 * contacts — all through the core API, so another tenant's ids select nothing (its not-found
 * code for a chosen contact). Groups are never a campaign's contacts.
 */
import { coreApi, type CampaignContactSource, type PlatformContact } from "@openatende/plugin-sdk";
import { parseCampaignCsv } from "./csv";
import type { CampaignErrors } from "./errors";
import type { NewContact } from "./store";

/** A tag's contacts per keyset page (platform.contacts.byTags): 100 000 in 20 calls. */
const TAG_PAGE = 5000;

type Caller = Parameters<typeof coreApi>[0];

const asNew = (c: PlatformContact): NewContact => ({ contactId: c.id, name: c.name, number: c.number });

/** Every contact of the tags, in keyset pages (each costs the same however deep: no count, no offset). */
export async function taggedContacts(ctx: Caller, tenantId: number, tagIds: number[]): Promise<NewContact[]> {
  const out: NewContact[] = [];
  for (let afterId: number | undefined; ; ) {
    const page = await coreApi(ctx).contacts.byTags({ tenantId, tagIds, afterId, limit: TAG_PAGE });
    for (const c of page.rows) out.push({ contactId: c.id, name: c.name, number: c.number });
    if (page.nextAfterId === null || page.rows.length === 0) return out;
    afterId = page.nextAfterId;
  }
}

export async function resolveContacts(ctx: Caller, tenantId: number, source: CampaignContactSource, errors: CampaignErrors): Promise<NewContact[]> {
  if (source.kind === "tags") return taggedContacts(ctx, tenantId, source.tagIds);
  if (source.kind === "contacts") {
    const found: PlatformContact[] = [];
    for (const id of [...new Set(source.contactIds)]) found.push(await coreApi(ctx).contacts.get({ tenantId, id }));
    return found.filter((c) => !c.isGroup).map(asNew);
  }
  const parsed = parseCampaignCsv(source.csv);
  if (!parsed.ok) throw errors.own("CSV_INVALID", { line: parsed.line });
  const out: NewContact[] = [];
  const unknown: string[] = [];
  for (const row of parsed.rows) {
    const hits = (await coreApi(ctx).contacts.list({ tenantId, search: row.number, limit: 20 })).rows.filter((c) => !c.isGroup && c.number?.replace(/\D/g, "") === row.number);
    if (hits[0]) out.push({ contactId: hits[0].id, name: hits[0].name || row.name, number: hits[0].number });
    else unknown.push(row.number);
  }
  if (unknown.length) throw errors.own("CSV_UNKNOWN_NUMBERS", { numbers: unknown.slice(0, 20).join(", "), count: unknown.length });
  return out;
}
