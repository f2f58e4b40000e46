/**
 * Surveys and the replies they took, in the plugin's own database, always through the SDK's
 * tenant-scoped repository (another tenant's survey is simply not found: 404). A survey moves
 * from state to state by conditional updates on the state read, so a reply racing the
 * timeout, or a job run twice, changes it once.
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, PluginError, type PluginData } from "@openatende/plugin-sdk";
import type { NpsGroup } from "./scale";

/**
 * - asking: written by the request job, the request not yet known sent;
 * - waiting: asked, the contact's next messages are the survey's;
 * - retry: one invalid reply got the invalid message, waiting again;
 * - answered: a valid reply (score, group); invalid: a second invalid reply (the message
 *   opened a ticket); timedOut: no valid reply in time; replaced: a newer survey asked the
 *   same contact on the same connection; failed: the request could not be sent.
 */
export const STATES = ["asking", "waiting", "retry", "answered", "invalid", "timedOut", "replaced", "failed"] as const;
export type SurveyState = (typeof STATES)[number];
export const OPEN_STATES: SurveyState[] = ["waiting", "retry"];

export type CloseVia = "agent" | "mass" | "automatic" | "plugin";

/** A period of the statistics (epoch ms, both ends in; either may be open). */
export interface Period {
  from?: number;
  to?: number;
}

/** The period as a range on a time column: a row with no time (null) never falls in it. */
const rangeOf = (p: Period) => ({ gte: p.from ?? 0, ...(p.to === undefined ? {} : { lte: p.to }) });

export interface SurveyRow extends Record<string, unknown> {
  id: number;
  ticketId: number;
  closedAt: number;
  closedVia: CloseVia;
  contactId: number;
  connectionId: number;
  queueId: number | null;
  userId: number | null;
  scale: number;
  state: SurveyState;
  score: number | null;
  npsGroup: NpsGroup | null;
  askedAt: number | null;
  expiresAt: number | null;
  answeredAt: number | null;
  endedAt: number | null;
  error: string | null;
}

export type ReplyOutcome = "valid" | "invalid" | "released";

export interface ReplyRow extends Record<string, unknown> {
  inboundId: string;
  surveyId: number;
  body: string | null;
  outcome: ReplyOutcome;
  at: number;
}

export type NewSurvey = Pick<SurveyRow, "ticketId" | "closedAt" | "closedVia" | "contactId" | "connectionId" | "queueId" | "userId" | "scale">;

export const notFound = (id: number) => new PluginError("ERR_NPS_SURVEY_NOT_FOUND", 404, { id });

export class SurveyStore {
  constructor(private readonly data: PluginData) {}

  private surveys(tenantId: number) {
    return this.data.forTenant(tenantId).table<SurveyRow>("surveys");
  }

  replies(tenantId: number) {
    return this.data.forTenant(tenantId).table<ReplyRow>("replies");
  }

  find(tenantId: number, id: number): Promise<SurveyRow | null> {
    return this.surveys(tenantId).get({ id });
  }

  async get(tenantId: number, id: number): Promise<SurveyRow> {
    const row = await this.find(tenantId, id);
    if (!row) throw notFound(id);
    return row;
  }

  /** The survey of a close (ticket + close time), made "asking" the first time it is asked for. */
  async forClose(tenantId: number, s: NewSurvey): Promise<SurveyRow> {
    for (let attempt = 0; ; attempt++) {
      const existing = await this.surveys(tenantId).get({ ticketId: s.ticketId, closedAt: s.closedAt });
      if (existing) return existing;
      const row: SurveyRow = { id: randomInt(1, 2 ** 31 - 1), ...s, state: "asking", score: null, npsGroup: null, askedAt: null, expiresAt: null, answeredAt: null, endedAt: null, error: null };
      try {
        await this.surveys(tenantId).insert(row);
        return row;
      } catch (err) {
        // A clash of the close's key: another run made it (read it above); of the id: draw again.
        if (!(err instanceof DuplicateRowError) || attempt > 3) throw err;
      }
    }
  }

  /** Applies `values` only while the survey is still in state `from`: answers whether it did. */
  async move(tenantId: number, id: number, from: SurveyState, values: Partial<SurveyRow>): Promise<boolean> {
    return (await this.surveys(tenantId).update({ id, state: from }, values)) === 1;
  }

  /** Sets values whatever the state (the times of asking). */
  async update(tenantId: number, id: number, values: Partial<SurveyRow>): Promise<void> {
    await this.surveys(tenantId).update({ id }, values);
  }

  /** The contact's other surveys still waiting on that connection. */
  async openFor(tenantId: number, contactId: number, connectionId: number): Promise<SurveyRow[]> {
    return this.surveys(tenantId).find({ contactId, connectionId, state: [...OPEN_STATES, "asking"] });
  }

  /**
   * The answers given in a period (by answer time, both ends in), counted by `key` (the
   * ticket's queue or user at its close; null: none) and NPS group: one grouped query.
   */
  async answeredBy(tenantId: number, key: "queueId" | "userId", p: Period): Promise<Array<{ id: number | null; promoters: number; passives: number; detractors: number }>> {
    const group = (npsGroup: NpsGroup) => ({ count: true as const, where: { npsGroup } });
    const rows = await this.surveys(tenantId).aggregate({
      where: { state: "answered", answeredAt: rangeOf(p) },
      groupBy: [key],
      measures: { promoters: group("promoter"), passives: group("passive"), detractors: group("detractor") },
    });
    return rows.map((r) => ({ id: r[key] === null ? null : Number(r[key]), promoters: Number(r.promoters ?? 0), passives: Number(r.passives ?? 0), detractors: Number(r.detractors ?? 0) }));
  }

  /** The surveys asked in a period (by asking time, both ends in), counted by state. */
  async askedByState(tenantId: number, p: Period): Promise<Map<SurveyState, number>> {
    const rows = await this.surveys(tenantId).aggregate({ where: { askedAt: rangeOf(p) }, groupBy: ["state"], measures: { n: { count: true } } });
    return new Map(rows.map((r) => [r.state as SurveyState, Number(r.n ?? 0)]));
  }

  list(tenantId: number, where: { state?: SurveyState[]; queueId?: number; userId?: number }, limit: number, offset: number): Promise<SurveyRow[]> {
    const w: Record<string, number | SurveyState[]> = {};
    if (where.state?.length) w.state = where.state;
    if (where.queueId) w.queueId = where.queueId;
    if (where.userId) w.userId = where.userId;
    return this.surveys(tenantId).find(w, { orderBy: [["closedAt", "desc"], ["id", "desc"]], limit, offset });
  }

  count(tenantId: number, where: { state?: SurveyState[]; queueId?: number; userId?: number }): Promise<number> {
    const w: Record<string, number | SurveyState[]> = {};
    if (where.state?.length) w.state = where.state;
    if (where.queueId) w.queueId = where.queueId;
    if (where.userId) w.userId = where.userId;
    return this.surveys(tenantId).count(w);
  }
}
