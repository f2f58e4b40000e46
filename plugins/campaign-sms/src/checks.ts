/**
 * What an SMS campaign refuses (spec §5 SMS): contacts without a valid SMS number and numbers
 * that repeat (in a CSV, among the contacts found, or against the ones linked already), each
 * refusal naming the offending numbers and lines; connections that are not SMS ones or whose
 * provider refuses their token (ERR_SMS_INVALID_TOKEN: "token required"); and, before it is
 * scheduled, too few credits for every recipient's parts (ERR_SMS_INSUFFICIENT_CREDITS with
 * the credits, what is needed and how many of the first contacts the credits cover).
 */
import type { Context } from "moleculer";
import { coreApi, PluginError, smsNumber, type CampaignContactSource, type PlatformBalance } from "@openatende/plugin-sdk";
import { parseCampaignCsv } from "@openatende/campaign-engine";
import { partsFor, type SmsContent } from "./type";

export const PREFIX = "CAMPAIGN_SMS";
const SHOWN = 20;

export const own = (suffix: "INVALID_NUMBERS" | "DUPLICATE_NUMBERS" | "CONNECTION_NOT_SMS", data: Record<string, unknown>) => new PluginError(`ERR_${PREFIX}_${suffix}`, 400, data);

/** "a, b, c" with at most SHOWN of them (and how many more). */
function listed(items: string[]): string {
  return items.length > SHOWN ? `${items.slice(0, SHOWN).join(", ")} (+${items.length - SHOWN})` : items.join(", ");
}

/** A CSV's lines: every line with a number that is no SMS number, and every number on more than one line. */
export function checkCsv(source: CampaignContactSource): void {
  if (source.kind !== "csv") return;
  const parsed = parseCampaignCsv(source.csv, { keepRepeats: true });
  if (!parsed.ok) throw own("INVALID_NUMBERS", { numbers: `line ${parsed.line}`, lines: [parsed.line], count: 1 });
  const invalid = parsed.rows.filter((r) => !smsNumber(r.number));
  if (invalid.length) throw own("INVALID_NUMBERS", { numbers: listed(invalid.map((r) => `${r.number} (line ${r.line})`)), lines: invalid.map((r) => r.line), count: invalid.length });
  const lines = new Map<string, number[]>();
  for (const r of parsed.rows) lines.set(r.number, [...(lines.get(r.number) ?? []), r.line]);
  const repeated = [...lines].filter(([, l]) => l.length > 1);
  if (repeated.length) throw own("DUPLICATE_NUMBERS", { numbers: listed(repeated.map(([n, l]) => `${n} (lines ${l.join(", ")})`)), count: repeated.length });
}

interface Linkable {
  contactId: number;
  name: string;
  number: string | null;
}

/** Contacts about to be linked: each needs an SMS number, and no number may be another contact's already among them or linked. */
export function checkNumbers(found: Linkable[], linked: Linkable[]): void {
  const invalid = found.filter((c) => !c.number || !smsNumber(c.number));
  if (invalid.length) throw own("INVALID_NUMBERS", { numbers: listed(invalid.map((c) => `${c.name || c.contactId} (${c.number ?? "-"})`)), contactIds: invalid.map((c) => c.contactId), count: invalid.length });
  const owner = new Map<string, number>();
  for (const c of linked) if (c.number && smsNumber(c.number)) owner.set(smsNumber(c.number)!, c.contactId);
  const repeated = new Set<string>();
  for (const c of found) {
    const n = smsNumber(c.number!)!;
    const first = owner.get(n);
    if (first !== undefined && first !== c.contactId) repeated.add(n);
    else owner.set(n, c.contactId);
  }
  if (repeated.size) throw own("DUPLICATE_NUMBERS", { numbers: listed([...repeated]), count: repeated.size });
}

/** A connection's credits through the core; its refusals as the campaign's codes. */
export async function balanceOf(ctx: Context, tenantId: number, connectionId: number): Promise<PlatformBalance> {
  try {
    return await coreApi(ctx).connections.balance({ tenantId, connectionId });
  } catch (err) {
    const type = (err as { type?: string }).type;
    if (type === "ERR_CHANNEL_UNSUPPORTED") throw own("CONNECTION_NOT_SMS", { connections: String(connectionId), connectionId });
    if (type === "ERR_SMS_TOKEN_REFUSED" || type === "ERR_VALIDATION") throw new PluginError("ERR_SMS_INVALID_TOKEN", 400, { connectionId });
    throw err;
  }
}

/** Every connection of a draft is an SMS one whose provider accepts its token. */
export async function checkConnections(ctx: Context, tenantId: number, connectionIds: number[]): Promise<number> {
  let credits = 0;
  for (const id of connectionIds) credits += (await balanceOf(ctx, tenantId, id)).credits;
  return credits;
}

/**
 * Credits for every pending contact's parts, the contacts in the order they were linked (with
 * `limitTo`, the first N only). Short: ERR_SMS_INSUFFICIENT_CREDITS with { credits, needed,
 * affordable } — `affordable` the first contacts the credits cover, what the client may keep.
 */
export async function checkCredits(ctx: Context, p: { tenantId: number; connectionIds: number[]; content: SmsContent; pending: Array<{ name: string }> }): Promise<{ credits: number; needed: number }> {
  const credits = await checkConnections(ctx, p.tenantId, p.connectionIds);
  let needed = 0;
  let affordable = 0;
  for (const c of p.pending) {
    needed += partsFor(p.content, c.name);
    if (needed <= credits) affordable++;
  }
  if (needed > credits) throw new PluginError("ERR_SMS_INSUFFICIENT_CREDITS", 402, { credits, needed, affordable });
  return { credits, needed };
}
