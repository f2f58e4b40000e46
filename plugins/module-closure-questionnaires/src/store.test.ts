/**
 * The report's reads of the plugin's own database (SQLite in a temp folder, migrated as the host
 * does): a period's answers and skipped closes come newest first, exactly those of the period
 * and tenant, at most a chunk a query, and the read stops at the first row older than the
 * period — so a questionnaire's figures are tallied with one chunk in memory, and they equal the
 * figures over the whole list.
 */
import * as path from "node:path";
import { loadPluginMigrations, openPluginDataAt, runPluginMigrations, testPluginDatabase, type PluginData, type TestPluginDatabase } from "@openatende/plugin-sdk";
import { countedTenant, type FindNote } from "@openatende/report-kit/src/counted-finds";
import type { Question, Questionnaire } from "./questions";
import { questionnaireReport, ReportBuilder } from "./report";
import { QuestionnaireStore, type AnswerRow, type SkipRow } from "./store";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const TENANT = 5;
const MOTIVO: Question = { id: "m", question: "Motivo", type: "select", required: true, options: ["A", "B"], showInReport: true, reportType: "bar", queueIds: [] };
const VALOR: Question = { id: "v", question: "Valor", type: "currency", required: false, options: [], showInReport: true, reportType: "average", queueIds: [] };
const RESUMO: Question = { id: "r", question: "Resumo", type: "text", required: false, options: [], showInReport: true, reportType: "list", queueIds: [] };
const QN: Questionnaire = { id: 11, name: "Pós", description: "", active: true, questions: [MOTIVO, VALOR, RESUMO] };

let db: TestPluginDatabase;
let data: PluginData;
let store: QuestionnaireStore;
const answers: AnswerRow[] = [];
const skips: SkipRow[] = [];

/** The store with each query of its tables noted (report-kit's test helper). */
function counted(): { store: QuestionnaireStore; finds: FindNote[] } {
  const finds: FindNote[] = [];
  const spy = Object.create(data) as PluginData;
  spy.forTenant = (id: number) => countedTenant(data.forTenant(id), finds).tenant;
  return { store: new QuestionnaireStore(spy), finds };
}

beforeAll(async () => {
  db = await testPluginDatabase("sqlite");
  data = await openPluginDataAt(db.address);
  await runPluginMigrations(data, loadPluginMigrations(path.join(__dirname, "..")));
  store = new QuestionnaireStore(data);
  // 1200 answers over 120 days (ten a day), 300 skipped closes (2.5 a day).
  for (let i = 0; i < 1200; i++) answers.push({ ticketId: i + 1, questionnaireId: QN.id, queueId: null, userId: null, answers: { m: i % 3 ? "A" : "B", v: i % 7, r: `texto ${i}` }, answeredAt: T0 + Math.floor(i / 10) * DAY + (i % 10) * 60_000 });
  for (let i = 0; i < 300; i++) skips.push({ eventId: `e${i}`, questionnaireId: QN.id, ticketId: 5000 + i, queueId: null, via: (["mass", "automatic", "plugin"] as const)[i % 3], at: T0 + Math.floor(i / 2.5) * DAY + 1000 });
  const tenant = data.forTenant(TENANT);
  for (let i = 0; i < answers.length; i += 300) await tenant.table<AnswerRow>("answers").upsertMany(answers.slice(i, i + 300));
  await tenant.table<SkipRow>("skips").upsertMany(skips);
  // Another tenant's answers at the same instants stay out.
  await data.forTenant(TENANT + 1).table<AnswerRow>("answers").upsertMany(answers.slice(0, 200));
});

afterAll(async () => {
  await data?.close();
  await db?.drop();
});

async function all<T>(it: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe("the report's reads of a period", () => {
  const period = { start: T0 + 30 * DAY, end: T0 + 60 * DAY };
  const inside = <R>(rows: R[], at: (r: R) => number) => rows.filter((r) => at(r) >= period.start && at(r) < period.end);

  it("yield the period's answers newest first, a chunk a query, and stop at the first older one", async () => {
    const { store: s, finds } = counted();
    const got = await all(s.answersIn(TENANT, QN.id, period, 100));
    const want = inside(answers, (r) => r.answeredAt).sort((a, b) => b.answeredAt - a.answeredAt);
    expect(got.map((r) => r.ticketId)).toEqual(want.map((r) => r.ticketId));
    expect(got).toHaveLength(300);
    expect(Math.max(...finds.map((f) => f.rows))).toBeLessThanOrEqual(100);
    // 900 rows are newer than the period's start: nine chunks and the one that crosses it, never the 300 older ones.
    expect(finds).toHaveLength(10);
    expect(finds.reduce((n, f) => n + f.rows, 0)).toBe(1000);
  });

  it("yield the period's skipped closes, and nothing of another questionnaire or an empty period", async () => {
    expect((await all(store.skipsIn(TENANT, QN.id, period, 50))).map((s) => s.eventId).sort()).toEqual(inside(skips, (s) => s.at).map((s) => s.eventId).sort());
    expect(await all(store.answersIn(TENANT, QN.id + 1, period))).toEqual([]);
    expect(await all(store.answersIn(TENANT, QN.id, { start: T0 - 10 * DAY, end: T0 }))).toEqual([]);
  });

  it("tallied as read, give the figures of the whole list (the list question keeps the latest 50)", async () => {
    const b = new ReportBuilder(QN);
    for await (const r of store.answersIn(TENANT, QN.id, period, 64)) b.addAnswer(r);
    for await (const s of store.skipsIn(TENANT, QN.id, period, 64)) b.addSkip(s);
    const whole = questionnaireReport(QN, inside(answers, (r) => r.answeredAt), inside(skips, (s) => s.at));
    expect(b.result()).toEqual(whole);
    expect(whole.questions[0].counts).toEqual([{ label: "A", count: 200 }, { label: "B", count: 100 }]);
    expect(whole.questions[2].values).toHaveLength(50);
    expect(whole.skipped.total).toBe(75);
  });
});
