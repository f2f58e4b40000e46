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

const PAGE = 100;

type Caller = Parameters<typeof coreApi>[0];

const asNew = (c: PlatformContact): NewContact => ({ contactId: c.id, name: c.name, number: c.number });

/** Every page of a contacts query. */
async function all(ctx: Caller, tenantId: number, q: { tagIds?: number[]; ids?: number[]; search?: string }): Promise<PlatformContact[]> {
  const out: PlatformContact[] = [];
  for (let page = 1; ; page++) {
    const r = await coreApi(ctx).contacts.list({ tenantId, ...q, page, limit: PAGE });
    out.push(...r.rows);
    if (!r.hasMore || r.rows.length === 0) return out;
  }
}

export async function resolveContacts(ctx: Caller, tenantId: number, source: CampaignContactSource, errors: CampaignErrors): Promise<NewContact[]> {
  if (source.kind === "tags") return (await all(ctx, tenantId, { tagIds: source.tagIds })).filter((c) => !c.isGroup).map(asNew);
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
