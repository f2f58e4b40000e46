/**
 * The questionnaires, answers and skipped closes in the plugin's own database, always through
 * the SDK's tenant-scoped repository: another tenant's questionnaire is simply not found (404).
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, PluginError, type PluginData } from "@openatende/plugin-sdk";
import type { Answers, Question, Questionnaire } from "./questions";

interface QuestionnaireRow extends Record<string, unknown> {
  id: number;
  name: string;
  description: string;
  active: boolean;
  questions: Question[];
  createdAt: number;
  updatedAt: number;
}

export interface AnswerRow extends Record<string, unknown> {
  ticketId: number;
  questionnaireId: number;
  queueId: number | null;
  userId: number | null;
  answers: Answers;
  answeredAt: number;
}

export type CloseVia = "agent" | "mass" | "automatic" | "plugin";

export interface SkipRow extends Record<string, unknown> {
  eventId: string;
  questionnaireId: number;
  ticketId: number;
  queueId: number | null;
  via: CloseVia;
  at: number;
}

export type QuestionnaireFields = Omit<Questionnaire, "id">;

export const questionnaireNotFound = (id: number) => new PluginError("ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND", 404, { id });
/** Ids are random (no auto-increment in the SDK's schema), positive 31-bit, retried on the rare clash. */
const newId = () => randomInt(1, 2 ** 31 - 1);

const fromRow = (r: QuestionnaireRow): Questionnaire => ({ id: r.id, name: r.name, description: r.description, active: !!r.active, questions: r.questions ?? [] });

export class QuestionnaireStore {
  constructor(
    private readonly data: PluginData,
    private readonly now: () => number = Date.now,
  ) {}

  private questionnaires(tenantId: number) {
    return this.data.forTenant(tenantId).table<QuestionnaireRow>("questionnaires");
  }

  private answerRows(tenantId: number) {
    return this.data.forTenant(tenantId).table<AnswerRow>("answers");
  }

  private skipRows(tenantId: number) {
    return this.data.forTenant(tenantId).table<SkipRow>("skips");
  }

  /** The tenant's questionnaires, by name. */
  async list(tenantId: number): Promise<Questionnaire[]> {
    const rows = await this.questionnaires(tenantId).find({}, { orderBy: [["name", "asc"], ["id", "asc"]] });
    return rows.map(fromRow);
  }

  async get(tenantId: number, id: number): Promise<Questionnaire> {
    const r = await this.questionnaires(tenantId).get({ id });
    if (!r) throw questionnaireNotFound(id);
    return fromRow(r);
  }

  async create(tenantId: number, f: QuestionnaireFields): Promise<Questionnaire> {
    const at = this.now();
    for (;;) {
      const row: QuestionnaireRow = { id: newId(), ...f, createdAt: at, updatedAt: at };
      try {
        await this.questionnaires(tenantId).insert(row);
        return fromRow(row);
      } catch (err) {
        if (!(err instanceof DuplicateRowError)) throw err;
      }
    }
  }

  async update(tenantId: number, id: number, f: Partial<QuestionnaireFields>): Promise<Questionnaire> {
    const n = await this.questionnaires(tenantId).update({ id }, { ...f, updatedAt: this.now() });
    if (!n) throw questionnaireNotFound(id);
    return this.get(tenantId, id);
  }

  /** Deletes a questionnaire with its answers and skipped closes. */
  async remove(tenantId: number, id: number): Promise<void> {
    await this.data.forTenant(tenantId).transaction(async (tx) => {
      const n = await tx.table<QuestionnaireRow>("questionnaires").delete({ id });
      if (!n) throw questionnaireNotFound(id);
      await tx.table<AnswerRow>("answers").delete({ questionnaireId: id });
      await tx.table<SkipRow>("skips").delete({ questionnaireId: id });
    });
  }

  /** Stores a ticket's answers (replacing earlier ones of the same questionnaires), all or none. */
  async saveAnswers(tenantId: number, rows: Array<Omit<AnswerRow, "answeredAt">>): Promise<number> {
    const at = this.now();
    await this.answerRows(tenantId).upsertMany(rows.map((r) => ({ ...r, answeredAt: at }) as AnswerRow));
    return at;
  }

  /** A ticket's stored answers, by questionnaire id. */
  async answersOf(tenantId: number, ticketId: number): Promise<Map<number, AnswerRow>> {
    const rows = await this.answerRows(tenantId).find({ ticketId });
    return new Map(rows.map((r) => [r.questionnaireId, r]));
  }

  /** Records closes that skipped the questionnaire (an event delivered again writes the same rows). */
  async recordSkips(tenantId: number, rows: SkipRow[]): Promise<void> {
    if (rows.length) await this.skipRows(tenantId).upsertMany(rows);
  }

  async skipsOfTicket(tenantId: number, ticketId: number): Promise<SkipRow[]> {
    return this.skipRows(tenantId).find({ ticketId }, { orderBy: [["at", "asc"]] });
  }

  /**
   * A questionnaire's answers in [start, end), newest first, `chunk` rows a query: the index
   * (questionnaireId, answeredAt) gives them in order, the newer ones are passed over and the
   * read stops at the first older than the period, so memory holds one chunk. The repository
   * has no range nor GROUP BY (an SDK change would make this one grouped query): an OFFSET over
   * the rows since the period's end is what is left.
   */
  answersIn(tenantId: number, questionnaireId: number, period: { start: number; end: number }, chunk = 500): AsyncGenerator<AnswerRow> {
    const rows = this.answerRows(tenantId);
    return newestIn((offset) => rows.find({ questionnaireId }, { orderBy: [["answeredAt", "desc"], ["ticketId", "desc"]], limit: chunk, offset }), (r) => Number(r.answeredAt), period, chunk);
  }

  /** A questionnaire's skipped closes in [start, end), newest first, as answersIn. */
  skipsIn(tenantId: number, questionnaireId: number, period: { start: number; end: number }, chunk = 1000): AsyncGenerator<SkipRow> {
    const rows = this.skipRows(tenantId);
    return newestIn((offset) => rows.find({ questionnaireId }, { orderBy: [["at", "desc"], ["eventId", "desc"]], limit: chunk, offset }), (r) => Number(r.at), period, chunk);
  }
}

/** The rows of a newest-first read that fall in [start, end), a chunk at a time, stopping at the first older one. */
async function* newestIn<Row>(read: (offset: number) => Promise<Row[]>, at: (r: Row) => number, period: { start: number; end: number }, chunk: number): AsyncGenerator<Row> {
  for (let offset = 0; ; offset += chunk) {
    const rows = await read(offset);
    for (const r of rows) {
      const t = at(r);
      if (t < period.start) return;
      if (t < period.end) yield r;
    }
    if (rows.length < chunk) return;
  }
}
