/** The questionnaire rules (questions.ts) and the report's figures (report.ts), without a database. */
import { PluginError } from "@openatende/plugin-sdk";
import { checkAnswer, checkAnswers, missingRequired, normaliseQuestions, questionsFor, REPORT_TYPES, type Question, type Questionnaire } from "./questions";
import { questionnaireReport } from "./report";
import type { AnswerRow, SkipRow } from "./store";

let n = 0;
const ids = () => `q${++n}`;
const q = (p: Partial<Question> & Pick<Question, "type">): Question => ({ id: ids(), question: `Pergunta ${p.type}`, required: false, options: [], showInReport: true, reportType: REPORT_TYPES[p.type][0], queueIds: [], ...p });

function code(fn: () => unknown): { code: string; data: unknown } {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(PluginError);
    return { code: (err as PluginError).type, data: (err as PluginError).data };
  }
  throw new Error("expected a PluginError");
}

describe("questions as an admin writes them", () => {
  it("trims, keeps or gives ids, fills the defaults (report type by type, shown in report, required off)", () => {
    const out = normaliseQuestions(
      [
        { id: "keep", question: "  Motivo do contato  ", type: "select", options: [" Dúvida ", "Compra", ""] },
        { question: "Valor", type: "currency", required: true, queueIds: [3, 3, 4] },
        { id: "keep", question: "Comentário", type: "textarea", showInReport: false },
      ],
      (() => {
        let k = 0;
        return () => `new${++k}`;
      })(),
    );
    expect(out).toEqual([
      { id: "keep", question: "Motivo do contato", type: "select", required: false, options: ["Dúvida", "Compra"], showInReport: true, reportType: "bar", queueIds: [] },
      { id: "new1", question: "Valor", type: "currency", required: true, options: [], showInReport: true, reportType: "average", queueIds: [3, 4] },
      // A repeated id is not kept twice.
      expect.objectContaining({ question: "Comentário", reportType: "list", showInReport: false }),
    ]);
    expect(out[2].id).not.toBe("keep");
  });

  it("refuses a blank question, select/checkbox without options or with repeated ones, and a report type its type cannot have", () => {
    expect(code(() => normaliseQuestions([{ question: "  ", type: "text" }], ids))).toEqual({ code: "ERR_CLOSURE_QUESTION_INVALID", data: { position: 1, reason: "question" } });
    expect(code(() => normaliseQuestions([{ question: "Ok", type: "text" }, { question: "Qual?", type: "checkbox", options: [] }], ids)).data).toEqual({ position: 2, reason: "options" });
    expect(code(() => normaliseQuestions([{ question: "Qual?", type: "select", options: ["Sim", "sim"] }], ids)).data).toEqual({ position: 1, reason: "options" });
    expect(code(() => normaliseQuestions([{ question: "Nome", type: "text", reportType: "pie" }], ids)).data).toEqual({ position: 1, reason: "reportType" });
    expect(code(() => normaliseQuestions([{ question: "Valor", type: "number", reportType: "bar" }], ids)).data).toEqual({ position: 1, reason: "reportType" });
    // Options of a type that has none are dropped, not kept.
    expect(normaliseQuestions([{ question: "Nome", type: "text", options: ["a"] }], ids)[0].options).toEqual([]);
  });
});

describe("which questions a close asks", () => {
  const forSales = q({ type: "text", queueIds: [1] });
  const forAll = q({ type: "number" });
  const forSupport = q({ type: "date", queueIds: [2] });
  const all: Questionnaire[] = [
    { id: 10, name: "Vendas", description: "", active: true, questions: [forSales, forAll, forSupport] },
    { id: 11, name: "Inativo", description: "", active: false, questions: [q({ type: "text" })] },
    { id: 12, name: "Suporte", description: "", active: true, questions: [q({ type: "time", queueIds: [2] })] },
  ];

  it("active questionnaires only, each with the questions of the ticket's queue (no queues: every queue and tickets without one)", () => {
    expect(questionsFor(all, 1).map((x) => [x.id, x.questions.map((y) => y.id)])).toEqual([[10, [forSales.id, forAll.id]]]);
    expect(questionsFor(all, 2).map((x) => x.id)).toEqual([10, 12]);
    expect(questionsFor(all, null).map((x) => [x.id, x.questions.map((y) => y.id)])).toEqual([[10, [forAll.id]]]);
    expect(questionsFor([all[1], all[2]], 1)).toEqual([]);
  });
});

describe("answers by type", () => {
  const sel = q({ type: "select", options: ["Dúvida", "Compra"] });
  const box = q({ type: "checkbox", options: ["A", "B", "C"] });
  it("takes what each type takes", () => {
    expect(checkAnswer(q({ type: "text" }), "  ok  ")).toBe("ok");
    expect(checkAnswer(q({ type: "textarea" }), "linha 1\nlinha 2")).toBe("linha 1\nlinha 2");
    expect(checkAnswer(sel, "Compra")).toBe("Compra");
    expect(checkAnswer(box, ["C", "A"])).toEqual(["A", "C"]);
    expect(checkAnswer(q({ type: "number" }), "12,5")).toBe(12.5);
    expect(checkAnswer(q({ type: "number" }), -3)).toBe(-3);
    expect(checkAnswer(q({ type: "currency" }), 10.456)).toBe(10.46);
    expect(checkAnswer(q({ type: "date" }), "2024-02-29")).toBe("2024-02-29");
    expect(checkAnswer(q({ type: "time" }), "23:59")).toBe("23:59");
    for (const blank of [undefined, null, "", "   ", []]) expect(checkAnswer(sel, blank)).toBeUndefined();
  });

  it("refuses what a type does not take, naming the question", () => {
    const bad: Array<[Question, unknown]> = [
      [q({ type: "text" }), 5],
      [q({ type: "text" }), "x".repeat(501)],
      [sel, "Outro"],
      [box, ["A", "Z"]],
      [q({ type: "number" }), "doze"],
      [q({ type: "number" }), Infinity],
      [q({ type: "currency" }), 2e12],
      [q({ type: "date" }), "2023-02-29"],
      [q({ type: "date" }), "29/02/2024"],
      [q({ type: "time" }), "24:00"],
      [q({ type: "time" }), "9:00"],
    ];
    for (const [question, v] of bad) expect(code(() => checkAnswer(question, v))).toEqual({ code: "ERR_CLOSURE_ANSWER_INVALID", data: { questionId: question.id, question: question.question, type: question.type } });
  });

  it("keeps only the questionnaire's questions, and tells the required ones still blank", () => {
    const must = q({ type: "select", options: ["Sim", "Não"], required: true });
    const may = q({ type: "text" });
    const qn: Questionnaire = { id: 1, name: "x", description: "", active: true, questions: [must, may] };
    expect(checkAnswers(qn, { [may.id]: "nota", other: "fora" })).toEqual({ [may.id]: "nota" });
    expect(missingRequired(qn, checkAnswers(qn, { [may.id]: "nota" })).map((x) => x.id)).toEqual([must.id]);
    expect(missingRequired(qn, { [must.id]: "Sim" })).toEqual([]);
    expect(missingRequired(qn, undefined).map((x) => x.id)).toEqual([must.id]);
  });
});

describe("the report by question", () => {
  const reason = q({ type: "select", options: ["Dúvida", "Compra", "Reclamação"], reportType: "pie" });
  const topics = q({ type: "checkbox", options: ["Preço", "Prazo"] });
  const value = q({ type: "currency" });
  const note = q({ type: "text" });
  const hidden = q({ type: "text", showInReport: false });
  const qn: Questionnaire = { id: 7, name: "Pós-venda", description: "d", active: true, questions: [reason, topics, value, note, hidden] };
  const row = (ticketId: number, at: number, answers: AnswerRow["answers"]): AnswerRow => ({ ticketId, questionnaireId: 7, queueId: 1, userId: 2, answers, answeredAt: at });
  const answers = [
    row(1, 100, { [reason.id]: "Compra", [topics.id]: ["Preço", "Prazo"], [value.id]: 100, [note.id]: "primeira" }),
    row(2, 300, { [reason.id]: "Compra", [topics.id]: ["Prazo"], [value.id]: 50.5 }),
    row(3, 200, { [reason.id]: "Dúvida", [value.id]: 0, [note.id]: "segunda" }),
  ];
  const skip = (via: SkipRow["via"]): SkipRow => ({ eventId: `e-${via}`, questionnaireId: 7, ticketId: 9, queueId: 1, via, at: 1 });

  it("counts per option (every option, in order), average with min, max and sum in pt-BR, the latest texts first, skipped closes by how", () => {
    const r = questionnaireReport(qn, answers, [skip("mass"), skip("automatic"), skip("mass")]);
    expect(r.answered).toBe(3);
    expect(r.skipped).toEqual({ total: 3, mass: 2, automatic: 1, plugin: 0 });
    expect(r.questions.map((x) => x.id)).toEqual([reason.id, topics.id, value.id, note.id]);
    expect(r.questions[0]).toMatchObject({ reportType: "pie", answered: 3, counts: [{ label: "Dúvida", count: 1 }, { label: "Compra", count: 2 }, { label: "Reclamação", count: 0 }] });
    expect(r.questions[1]).toMatchObject({ reportType: "bar", answered: 2, counts: [{ label: "Preço", count: 1 }, { label: "Prazo", count: 2 }] });
    expect(r.questions[2].stats).toEqual({ average: 150.5 / 3, min: 0, max: 100, sum: 150.5, text: { average: "50,17", min: "0,00", max: "100,00", sum: "150,50" } });
    expect(r.questions[3].values).toEqual([{ ticketId: 3, value: "segunda", answeredAt: 200 }, { ticketId: 1, value: "primeira", answeredAt: 100 }]);
  });

  it("works with no answers at all", () => {
    const r = questionnaireReport(qn, [], []);
    expect(r.answered).toBe(0);
    expect(r.questions[2].stats).toBeUndefined();
    expect(r.questions[0].counts!.every((c) => c.count === 0)).toBe(true);
    expect(r.questions[3].values).toEqual([]);
  });
});
