/**
 * The engine's data: campaigns and their contacts in the type plugin's own database, always
 * for one tenant (another tenant's campaign id is ERR_CAMPAIGN_NOT_FOUND). Every change of a
 * campaign runs in a transaction that first writes the campaign's row (its lock), applies the
 * spec's rule (rules.ts) to what it then reads, and writes the new state.
 */
import type { CampaignContactStatus, CampaignContactView, CampaignCounts, CampaignStatus, CampaignSummary, PluginData, TenantData } from "@openatende/plugin-sdk";
import type { CampaignErrors } from "./errors";
import type { LaneState } from "./pacing";
import { assertDeletable, assertEditable, type DraftFields } from "./rules";
import { CAMPAIGN_CONTACTS, CAMPAIGNS, SEQUENCES } from "./schema";

export interface CampaignRow extends Record<string, unknown> {
  id: number;
  name: string;
  status: CampaignStatus;
  startAt: number;
  connectionIds: number[];
  content: unknown;
  minIntervalSeconds: number;
  maxIntervalSeconds: number;
  lanes: LaneState | null;
  contactSeq: number;
  version: number;
  createdBy: number | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface ContactRow extends Record<string, unknown> {
  campaignId: number;
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  status: CampaignContactStatus;
  variant: number | null;
  connectionId: number | null;
  attempt: number;
  messageId: number | null;
  failReason: string | null;
  sentAt: number | null;
  updatedAt: number;
}

export interface NewContact {
  contactId: number;
  name: string;
  number: string | null;
}

export type Draft = DraftFields & { content: unknown; createdBy?: number | null };

/** `sending` with a message id: its send is being recorded, and an ack lifts it (the dispatcher then finds it no longer `sending`). */
const ACK_RANK: Partial<Record<CampaignContactStatus, number>> = { sending: 0, sent: 1, delivered: 2, read: 3, played: 4 };
const INSERT_CHUNK = 5000;

/** How each count adds up from contact statuses. */
const COUNTED: Record<keyof CampaignCounts, CampaignContactStatus[] | "all"> = {
  contacts: "all",
  toSend: ["pending", "sending"],
  delivered: ["sent", "delivered", "read", "played"],
  received: ["delivered", "read", "played"],
  read: ["read", "played"],
  played: ["played"],
  failed: ["failed"],
};

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function campaignOf(r: Record<string, unknown>): CampaignRow {
  return { ...(r as CampaignRow), id: Number(r.id), startAt: Number(r.startAt), contactSeq: Number(r.contactSeq), version: Number(r.version), createdAt: Number(r.createdAt), updatedAt: Number(r.updatedAt), startedAt: num(r.startedAt), finishedAt: num(r.finishedAt), createdBy: num(r.createdBy) };
}

function contactOf(r: Record<string, unknown>): ContactRow {
  return { ...(r as ContactRow), campaignId: Number(r.campaignId), id: Number(r.id), contactId: Number(r.contactId), attempt: Number(r.attempt), messageId: num(r.messageId), sentAt: num(r.sentAt), variant: num(r.variant), connectionId: num(r.connectionId) };
}

export function contactView(c: ContactRow): CampaignContactView {
  return { id: c.id, contactId: c.contactId, name: c.name, number: c.number, status: c.status, variant: c.variant, connectionId: c.connectionId, messageId: c.messageId, failReason: c.failReason, sentAt: c.sentAt };
}

export class CampaignStore {
  constructor(
    readonly data: PluginData,
    readonly errors: CampaignErrors,
    readonly now: () => number = Date.now,
  ) {}

  scope(tenantId: number): TenantData {
    return this.data.forTenant(tenantId);
  }

  /** Runs `fn` with the campaign locked (its row written first) and read again. */
  async locked<T>(tenantId: number, id: number, fn: (tx: TenantData, c: CampaignRow) => Promise<T>): Promise<T> {
    return this.scope(tenantId).transaction(async (tx) => {
      const t = tx.table<CampaignRow>(CAMPAIGNS);
      const before = await t.get({ id });
      if (!before) throw this.errors.core("notFound", { id });
      await t.update({ id }, { version: Number(before.version) + 1 });
      return fn(tx, campaignOf({ ...before, version: Number(before.version) + 1 }));
    });
  }

  async get(tenantId: number, id: number): Promise<CampaignRow> {
    const r = await this.scope(tenantId).table<CampaignRow>(CAMPAIGNS).get({ id });
    if (!r) throw this.errors.core("notFound", { id });
    return campaignOf(r);
  }

  /** The campaign or null (the dispatcher: a deleted campaign's job does nothing). */
  async find(tenantId: number, id: number): Promise<CampaignRow | null> {
    const r = await this.scope(tenantId).table<CampaignRow>(CAMPAIGNS).get({ id });
    return r ? campaignOf(r) : null;
  }

  async list(tenantId: number): Promise<CampaignRow[]> {
    return (await this.scope(tenantId).table<CampaignRow>(CAMPAIGNS).find({}, { orderBy: [["id", "desc"]] })).map(campaignOf);
  }

  async create(tenantId: number, d: Draft): Promise<CampaignRow> {
    return this.scope(tenantId).transaction(async (tx) => {
      const seq = tx.table<{ name: string; value: number }>(SEQUENCES);
      const cur = await seq.get({ name: "campaign" });
      const id = Number(cur?.value ?? 0) + 1;
      await seq.upsert({ name: "campaign", value: id });
      const now = this.now();
      const row: CampaignRow = { id, name: d.name, status: "pending", startAt: d.startAt, connectionIds: d.connectionIds, content: d.content, minIntervalSeconds: d.minIntervalSeconds, maxIntervalSeconds: d.maxIntervalSeconds, lanes: null, contactSeq: 0, version: 0, createdBy: d.createdBy ?? null, createdAt: now, updatedAt: now, startedAt: null, finishedAt: null };
      await tx.table<CampaignRow>(CAMPAIGNS).insert(row);
      return row;
    });
  }

  /** Edits the shared fields and content: only pending or canceled (spec §4). */
  async update(tenantId: number, id: number, d: Draft): Promise<CampaignRow> {
    return this.locked(tenantId, id, async (tx, c) => {
      assertEditable(c, this.errors);
      const values = { name: d.name, startAt: d.startAt, connectionIds: d.connectionIds, content: d.content, minIntervalSeconds: d.minIntervalSeconds, maxIntervalSeconds: d.maxIntervalSeconds, updatedAt: this.now() };
      await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, values);
      return { ...c, ...values };
    });
  }

  /** Deletes: only pending or canceled, with no linked contacts (spec §4). */
  async remove(tenantId: number, id: number): Promise<void> {
    await this.locked(tenantId, id, async (tx, c) => {
      assertDeletable(c, await tx.table(CAMPAIGN_CONTACTS).count({ campaignId: id }), this.errors);
      await tx.table(CAMPAIGNS).delete({ id });
    });
  }

  /** Links contacts (the ones already linked are skipped): only while editable. Answers how many were added and the total. */
  async addContacts(tenantId: number, id: number, contacts: NewContact[]): Promise<{ added: number; total: number }> {
    return this.locked(tenantId, id, async (tx, c) => {
      assertEditable(c, this.errors);
      const table = tx.table<ContactRow>(CAMPAIGN_CONTACTS);
      const linked = new Set((await table.find({ campaignId: id })).map((r) => Number(r.contactId)));
      const fresh: NewContact[] = [];
      for (const k of contacts) {
        if (linked.has(k.contactId)) continue;
        linked.add(k.contactId);
        fresh.push(k);
      }
      const now = this.now();
      let seq = c.contactSeq;
      const rows: ContactRow[] = fresh.map((k) => ({ campaignId: id, id: ++seq, contactId: k.contactId, name: k.name.slice(0, 200), number: k.number?.slice(0, 32) ?? null, status: "pending", variant: null, connectionId: null, attempt: 0, messageId: null, failReason: null, sentAt: null, updatedAt: now }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) await table.upsertMany(rows.slice(i, i + INSERT_CHUNK));
      await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, { contactSeq: seq, updatedAt: now });
      return { added: rows.length, total: linked.size };
    });
  }

  /** Unlinks contacts not sent yet (all of them without `contactIds`): only while editable. */
  async removeContacts(tenantId: number, id: number, contactIds?: number[]): Promise<{ removed: number; total: number }> {
    return this.locked(tenantId, id, async (tx, c) => {
      assertEditable(c, this.errors);
      const table = tx.table(CAMPAIGN_CONTACTS);
      const removed = await table.delete({ campaignId: id, status: "pending", ...(contactIds ? { contactId: contactIds } : {}) });
      return { removed, total: await table.count({ campaignId: id }) };
    });
  }

  async contacts(tenantId: number, id: number, opts: { status?: CampaignContactStatus; page?: number; limit?: number } = {}): Promise<{ rows: CampaignContactView[]; count: number }> {
    await this.get(tenantId, id);
    const table = this.scope(tenantId).table<ContactRow>(CAMPAIGN_CONTACTS);
    const where = { campaignId: id, ...(opts.status ? { status: opts.status } : {}) };
    const limit = opts.limit ?? 50;
    const rows = await table.find(where, { orderBy: [["id", "asc"]], limit, offset: ((opts.page ?? 1) - 1) * limit });
    return { rows: rows.map((r) => contactView(contactOf(r))), count: await table.count(where) };
  }

  /** Every linked contact (of one status), in the order they were linked. */
  async allContacts(tenantId: number, id: number, status?: CampaignContactStatus): Promise<ContactRow[]> {
    const rows = await this.scope(tenantId).table<ContactRow>(CAMPAIGN_CONTACTS).find({ campaignId: id, ...(status ? { status } : {}) }, { orderBy: [["id", "asc"]] });
    return rows.map(contactOf);
  }

  async counts(tenantId: number, id: number): Promise<CampaignCounts> {
    const table = this.scope(tenantId).table(CAMPAIGN_CONTACTS);
    const by: Partial<Record<CampaignContactStatus, number>> = {};
    for (const s of ["pending", "sending", "sent", "delivered", "read", "played", "failed"] as CampaignContactStatus[]) by[s] = await table.count({ campaignId: id, status: s });
    const sum = (list: CampaignContactStatus[] | "all") => (list === "all" ? Object.values(by) : list.map((s) => by[s])).reduce<number>((a, b) => a + (b ?? 0), 0);
    return Object.fromEntries(Object.entries(COUNTED).map(([k, list]) => [k, sum(list)])) as unknown as CampaignCounts;
  }

  async summary(tenantId: number, c: CampaignRow): Promise<CampaignSummary & { content: unknown }> {
    const { id, name, status, startAt, connectionIds, minIntervalSeconds, maxIntervalSeconds, createdAt, updatedAt, startedAt, finishedAt, content } = c;
    return { id, name, status, startAt, connectionIds, minIntervalSeconds, maxIntervalSeconds, createdAt, updatedAt, startedAt, finishedAt, content, counts: await this.counts(tenantId, id) };
  }

  /** Sets a status decided by a rule on the locked campaign (`decide` throws the rule's code). */
  async transition(tenantId: number, id: number, decide: (c: CampaignRow, linked: number) => CampaignStatus): Promise<CampaignRow> {
    return this.locked(tenantId, id, async (tx, c) => {
      const status = decide(c, await tx.table(CAMPAIGN_CONTACTS).count({ campaignId: id }));
      const values: Partial<CampaignRow> = { status, updatedAt: this.now() };
      if (status === "canceled") {
        // A claim not recorded yet keeps its key; a later schedule sends it again under that key (the core answers the first message).
        await tx.table(CAMPAIGN_CONTACTS).update({ campaignId: id, status: "sending" }, { status: "pending" });
      }
      await tx.table<CampaignRow>(CAMPAIGNS).update({ id }, values);
      return { ...c, ...values };
    });
  }

  /** An ack of a campaign's message: the contact's status goes up (never down). Answers the campaign's id, or null when the message is no campaign's. */
  async ack(tenantId: number, messageId: number, status: string): Promise<number | null> {
    const table = this.scope(tenantId).table<ContactRow>(CAMPAIGN_CONTACTS);
    // Compare and set: two acks of one message (delivered, read) handled at once each lift from
    // what they read; the one that finds the status moved reads it again.
    for (let tries = 0; ; tries++) {
      const [row] = await table.find({ messageId }, { limit: 1 });
      if (!row) return null;
      const c = contactOf(row);
      const rank = ACK_RANK[status as CampaignContactStatus];
      if (!rank || rank <= (ACK_RANK[c.status] ?? 99)) return c.campaignId;
      const n = await table.update({ campaignId: c.campaignId, id: c.id, status: c.status }, { status: status as CampaignContactStatus, updatedAt: this.now() });
      if (n > 0 || tries >= 4) return c.campaignId;
    }
  }
}

export { campaignOf, contactOf };
