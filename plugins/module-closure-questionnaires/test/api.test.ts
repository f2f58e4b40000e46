/**
 * Closure questionnaires against a real core on MariaDB: the bundled plugin loaded by the host
 * (its own database migrated), its routes through the gateway, the core's beforeClose hook
 * refusing an agent's close while a required answer is missing, ticket.closed recording mass
 * and automatic closes as skipped, the report by question and its Excel and PDF exports,
 * admins-only settings, and another
 * tenant's questionnaires, tickets and queues answering 404.
 */
import ExcelJS from "exceljs";
import { createTenant, startCore, uid, type Auth, type Res, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { pdfText } from "@openatende/report-kit/src/pdf-text";
import { download } from "../../report-tickets/test/kit";

jest.setTimeout(240_000);

type Q = { id: string; question: string; type: string; required: boolean; options: string[]; reportType: string; queueIds: number[] };
type Qn = { id: number; name: string; active: boolean; questions: Q[] };

let t: TestCore;
let a: TenantFixture;
let b: TenantFixture;
let free: TenantFixture;
let connA: number;
let qn: Qn;
/** The ticket an agent closed after answering. */
let answeredTicket = 0;
const byText = (text: string) => qn.questions.find((q) => q.question === text)!;

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

async function ok<T = any>(p: Promise<Res<T>>, status = 200): Promise<T> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function waitFor<T>(what: string, read: () => Promise<T>, good: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (good(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A customer writes in on A's web chat (queue: the connection's, the first): a pending ticket. */
async function inbound(name = "Cliente"): Promise<number> {
  const r = (await t.core.broker.call("channels.inbound", { tenantId: a.tenantId, connectionId: connA, providerMessageId: `m-${uid()}`, timestamp: Date.now(), from: { externalId: `v-${uid()}`, name }, body: "Olá" })) as { ticketId: number };
  return r.ticketId;
}

const close = (id: number, who: Auth) => t.api.put(`/tickets/${id}`, { status: "closed" }, who);
const status = async (id: number) => (await ok(t.api.get(`/tickets/${id}`, a.admin))).status as string;
const closures = (id: number, who: Auth = a.agent) => t.api.get(`/closure-questionnaires/closures?ticketId=${id}`, who);

beforeAll(async () => {
  t = await startCore({ env: { NAMESPACE: `closure-${uid()}` } });
  [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
  await waitFor("GET /closure-questionnaires", () => t.api.get("/closure-questionnaires", a.admin), (r) => r.status === 200);
  const c = await ok(t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: a.queueIds[0], settings: {} }, a.admin), 201);
  await ok(t.api.post(`/connections/${c.id}/connect`, {}, a.admin));
  connA = c.id;
});

afterAll(async () => {
  await t?.stop();
});

describe("closure questionnaires in a core (MariaDB)", () => {
  it("settings are the admins': an agent or a supervisor is refused; questions are checked and their queues must be the tenant's", async () => {
    for (const who of [a.agent, a.supervisor]) expect((await t.api.get("/closure-questionnaires", who)).status).toBe(403);
    expect((await t.api.post("/closure-questionnaires", { name: "X", questions: [] }, a.agent)).status).toBe(403);
    const bad = await t.api.post("/closure-questionnaires", { name: "X", questions: [{ question: "Qual?", type: "select", options: [] }] }, a.admin);
    expectError(bad, 400, "ERR_CLOSURE_QUESTION_INVALID");
    expect(bad.body.data).toEqual({ position: 1, reason: "options" });
    expectError(await t.api.post("/closure-questionnaires", { name: "X", questions: [{ question: "Valor", type: "currency", reportType: "pie" }] }, a.admin), 400, "ERR_CLOSURE_QUESTION_INVALID");
    expect((await t.api.post("/closure-questionnaires", { name: "X", questions: [{ question: "Cor", type: "color" }] }, a.admin)).status).toBe(400);
    expectError(await t.api.post("/closure-questionnaires", { name: "X", questions: [{ question: "Nome", type: "text", queueIds: [b.queueIds[0]] }] }, a.admin), 404, "ERR_CLOSURE_QUEUE_NOT_FOUND");
  });

  it("an admin makes a questionnaire of every question type, in order, for the first queue (one question for every queue)", async () => {
    const q0 = a.queueIds[0];
    qn = await ok(
      t.api.post(
        "/closure-questionnaires",
        {
          name: "Pós-atendimento",
          description: "Por que o ticket foi resolvido",
          questions: [
            { question: "Motivo", type: "select", required: true, options: ["Dúvida", "Compra", "Reclamação"], reportType: "pie", queueIds: [q0] },
            { question: "Assuntos", type: "checkbox", options: ["Preço", "Prazo"], queueIds: [q0] },
            { question: "Valor da venda", type: "currency", required: true, queueIds: [q0] },
            { question: "Itens", type: "number", queueIds: [q0] },
            { question: "Resumo", type: "text", queueIds: [q0] },
            { question: "Detalhes", type: "textarea", showInReport: false, queueIds: [q0] },
            { question: "Retorno em", type: "date", queueIds: [q0] },
            { question: "Horário", type: "time", queueIds: [q0] },
            { question: "Observação geral", type: "text" },
          ],
        },
        a.admin,
      ),
    );
    expect(qn.questions.map((q) => [q.type, q.reportType, q.required])).toEqual([
      ["select", "pie", true],
      ["checkbox", "bar", false],
      ["currency", "average", true],
      ["number", "average", false],
      ["text", "list", false],
      ["textarea", "list", false],
      ["date", "bar", false],
      ["time", "bar", false],
      ["text", "list", false],
    ]);
    // An inactive questionnaire asks nothing, however required its questions.
    await ok(t.api.post("/closure-questionnaires", { name: "Desligado", active: false, questions: [{ question: "Nunca", type: "text", required: true }] }, a.admin));
    const list = await ok(t.api.get("/closure-questionnaires", a.admin));
    expect(list.questionnaires.map((x: Qn) => [x.name, x.active])).toEqual([["Desligado", false], ["Pós-atendimento", true]]);
    expect(list.queues.map((x: { id: number }) => x.id).sort()).toEqual([...a.queueIds].sort());
  });

  it("an agent's close of a ticket of that queue is refused until the required answers are stored; the answers stay with the ticket", async () => {
    const ticket = await inbound("Carla");
    answeredTicket = ticket;
    await ok(t.api.put(`/tickets/${ticket}`, { status: "open", userId: a.agent.userId }, a.agent));
    const refused = await close(ticket, a.agent);
    expectError(refused, 422, "ERR_CLOSURE_ANSWERS_REQUIRED");
    expect(refused.body.message).toContain('"Motivo", "Valor da venda"');
    expect(await status(ticket)).toBe("open");

    // What the closing dialog asks: the questionnaire of the queue with its questions, the inactive one not.
    const asked = await ok(t.api.get(`/closure-questionnaires/ticket?ticketId=${ticket}`, a.agent));
    expect(asked.questionnaires.map((x: Qn) => [x.name, x.questions.length])).toEqual([["Pós-atendimento", 9]]);

    const motivo = byText("Motivo").id;
    const valor = byText("Valor da venda").id;
    const send = (values: Record<string, unknown>) => t.api.post("/closure-questionnaires/answers", { ticketId: ticket, answers: [{ questionnaireId: qn.id, values }] }, a.agent);
    expectError(await send({ [motivo]: "Compra" }), 422, "ERR_CLOSURE_ANSWERS_REQUIRED");
    const invalid = await send({ [motivo]: "Outro", [valor]: 10 });
    expectError(invalid, 400, "ERR_CLOSURE_ANSWER_INVALID");
    expect(invalid.body.data).toMatchObject({ questionId: motivo, type: "select" });
    expectError(await send({ [motivo]: "Compra", [valor]: 10, [byText("Retorno em").id]: "2026-02-30" }), 400, "ERR_CLOSURE_ANSWER_INVALID");
    expect(await status(ticket)).toBe("open");

    const saved = await ok(send({ [motivo]: "Compra", [valor]: "149,90", [byText("Assuntos").id]: ["Prazo", "Preço"], [byText("Resumo").id]: "Comprou o plano anual", [byText("Horário").id]: "14:30" }));
    expect(saved.missing).toEqual([]);
    expect((await close(ticket, a.agent)).status).toBe(200);
    expect(await status(ticket)).toBe("closed");

    const stored = await ok(closures(ticket));
    expect(stored.skipped).toEqual([]);
    expect(stored.answers).toEqual([
      {
        questionnaireId: qn.id,
        userId: a.agent.userId,
        queueId: a.queueIds[0],
        answeredAt: expect.any(Number),
        answers: { [motivo]: "Compra", [valor]: 149.9, [byText("Assuntos").id]: ["Preço", "Prazo"], [byText("Resumo").id]: "Comprou o plano anual", [byText("Horário").id]: "14:30" },
      },
    ]);
    // Answers are given before the close, not after.
    expectError(await send({ [motivo]: "Dúvida", [valor]: 1 }), 409, "ERR_CLOSURE_TICKET_CLOSED");
  });

  it("a ticket of another queue is asked only the question for every queue, which is not required: it closes at once", async () => {
    const contact = await ok(t.api.post("/contacts", { name: "Diego", number: `55119${String(Date.now()).slice(-8)}` }, a.admin), 201);
    const ticket = (await ok(t.api.post("/tickets", { contactId: contact.id, connectionId: connA, queueId: a.queueIds[1] }, a.admin), 201)).id as number;
    const asked = await ok(t.api.get(`/closure-questionnaires/ticket?ticketId=${ticket}`, a.admin));
    expect(asked.questionnaires.map((x: Qn) => x.questions.map((q) => q.question))).toEqual([["Observação geral"]]);
    expect((await close(ticket, a.admin)).status).toBe(200);
  });

  it("mass resolve and an automatic close skip the questionnaire and record that they did (once per close); the agent's close records nothing", async () => {
    const [m1, m2, auto] = [await inbound("Elisa"), await inbound("Fábio"), await inbound("Gil")];
    await ok(t.api.post("/tickets/mass-resolve", { ticketIds: [m1, m2] }, a.admin));
    expect(await t.core.broker.call("tickets.autoClose", { tenantId: a.tenantId, id: auto, reason: "inactivity" })).toBeTruthy();
    for (const [id, via] of [[m1, "mass"], [m2, "mass"], [auto, "automatic"]] as const) {
      const r = await waitFor(`skip of ${id}`, async () => (await ok(closures(id))).skipped, (s) => s.length > 0);
      expect(r).toEqual([{ questionnaireId: qn.id, via, at: expect.any(Number) }]);
      expect(await status(id)).toBe("closed");
    }
    // The events of the tenant arrive in order: the agent's close, long before, recorded nothing.
    expect((await ok(closures(answeredTicket))).skipped).toEqual([]);
  });

  it("the report: answers by question as each report type asks, skipped closes by how, supervisors and admins only (BASIC), a period checked", async () => {
    expect((await t.api.get("/relatorios/closure-questionnaires", a.agent)).status).toBe(403);
    expectError(await t.api.get("/relatorios/closure-questionnaires?from=2026-11-30&to=2026-11-01", a.supervisor), 400, "ERR_CLOSURE_REPORT_PERIOD_INVALID");
    const r = await ok(t.api.get(`/relatorios/closure-questionnaires?questionnaireId=${qn.id}`, a.supervisor));
    expect(r.questionnaires.map((x: Qn) => x.name)).toEqual(["Desligado", "Pós-atendimento"]);
    const rep = r.report;
    expect(rep.answered).toBe(1);
    expect(rep.skipped).toEqual({ total: 3, mass: 2, automatic: 1, plugin: 0 });
    const of = (text: string) => rep.questions.find((q: { question: string }) => q.question === text);
    expect(rep.questions.map((q: { question: string }) => q.question)).not.toContain("Detalhes");
    expect(of("Motivo")).toMatchObject({ reportType: "pie", answered: 1, counts: [{ label: "Dúvida", count: 0 }, { label: "Compra", count: 1 }, { label: "Reclamação", count: 0 }] });
    expect(of("Assuntos").counts).toEqual([{ label: "Preço", count: 1 }, { label: "Prazo", count: 1 }]);
    expect(of("Valor da venda").stats).toMatchObject({ average: 149.9, text: { average: "149,90" } });
    expect(of("Itens")).toMatchObject({ answered: 0 });
    expect(of("Resumo").values).toEqual([{ ticketId: expect.any(Number), value: "Comprou o plano anual", answeredAt: expect.any(Number) }]);
    expect(of("Horário").counts).toEqual([{ label: "14:30", count: 1 }]);
    // A period without answers, and the default questionnaire (the first active one).
    const old = await ok(t.api.get("/relatorios/closure-questionnaires?from=2020-01-01&to=2020-01-31", a.admin));
    expect([old.report.questionnaire.name, old.report.answered, old.report.skipped.total]).toEqual(["Pós-atendimento", 0, 0]);
    // A tenant with no questionnaire: the page works with none.
    expect(await ok(t.api.get("/relatorios/closure-questionnaires", b.supervisor))).toMatchObject({ questionnaires: [], report: null });
    // The questionnaires are FREE; their report is BASIC, as every report.
    expect((await t.api.get("/closure-questionnaires", free.admin)).status).toBe(200);
    const refused = await t.api.get("/relatorios/closure-questionnaires", free.admin);
    expect(refused.body).toMatchObject({ error: "ERR_LICENSE_TIER_REQUIRED", data: { requiredTier: "BASIC" } });
  });

  it("exports the report's figures as Excel and PDF (streamed, in the reader's language), for supervisors of the tenant only", async () => {
    const x = await download(t, `/relatorios/closure-questionnaires/export?questionnaireId=${qn.id}&format=xlsx`, a.supervisor);
    expect(x.status).toBe(200);
    expect(x.headers.get("content-disposition")).toContain("filename*=UTF-8''Question%C3%A1rios%20de%20encerramento");
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.body as unknown as ArrayBuffer);
    const lines: unknown[][] = [];
    wb.worksheets[0].eachRow((row) => lines.push(Array.from({ length: 4 }, (_, i) => (row.values as unknown[])[i + 1] ?? "")));
    expect(lines[0][0]).toBe("Questionários de encerramento — Pós-atendimento");
    expect(lines[2]).toEqual(["Pergunta", "Respostas", "Item", "Valor"]);
    const of = (question: string) => lines.filter((l) => l[0] === question).map((l) => l.slice(1));
    expect(of("Tickets respondidos")).toEqual([["", "", 1]]);
    expect(of("Encerrados sem questionário")).toEqual([["", "", 3], ["", "Resolvidos em massa", 2], ["", "Encerrados automaticamente", 1], ["", "Encerrados por integrações", 0]]);
    expect(of("Motivo")).toEqual([[1, "Dúvida", 0], [1, "Compra", 1], [1, "Reclamação", 0]]);
    expect(of("Valor da venda")).toEqual([[1, "Média", 149.9], [1, "Mínimo", 149.9], [1, "Máximo", 149.9], [1, "Soma", 149.9]]);
    expect(of("Resumo")).toEqual([[1, expect.stringMatching(new RegExp(`^Ticket #${answeredTicket} — \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d$`)), "Comprou o plano anual"]]);
    expect(of("Itens")).toEqual([[0, "", ""]]);
    expect(lines.some((l) => l[0] === "Detalhes")).toBe(false);

    const p = await download(t, `/relatorios/closure-questionnaires/export?questionnaireId=${qn.id}&format=pdf`, a.supervisor, "ru");
    expect(p.status).toBe(200);
    expect(p.headers.get("content-type")).toBe("application/pdf");
    const text = (await pdfText(p.body)).pages.join("\n");
    for (const s of ["Анкеты закрытия — Pós-atendimento", "Вопрос", "Закрыто массово", "Среднее", "149,90", "Comprou o plano anual"]) expect(text).toContain(s);

    // Refusals: an agent, a format it has not, a bad period, another tenant's questionnaire, a tenant below BASIC.
    expect((await t.api.get(`/relatorios/closure-questionnaires/export?format=xlsx`, a.agent)).status).toBe(403);
    expect((await t.api.get(`/relatorios/closure-questionnaires/export?format=csv`, a.supervisor)).status).toBe(400);
    expectError(await t.api.get("/relatorios/closure-questionnaires/export?format=pdf&from=2026-11-30&to=2026-11-01", a.supervisor), 400, "ERR_CLOSURE_REPORT_PERIOD_INVALID");
    expectError(await t.api.get(`/relatorios/closure-questionnaires/export?format=xlsx&questionnaireId=${qn.id}`, b.supervisor), 404, "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND");
    expect((await t.api.get("/relatorios/closure-questionnaires/export?format=xlsx", free.admin)).body).toMatchObject({ error: "ERR_LICENSE_TIER_REQUIRED" });
  });

  it("another tenant's questionnaires and tickets answer 404 on every route", async () => {
    expectError(await t.api.put("/closure-questionnaires", { id: qn.id, name: "Roubado" }, b.admin), 404, "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND");
    expectError(await t.api.del(`/closure-questionnaires?id=${qn.id}`, b.admin), 404, "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND");
    expectError(await t.api.get(`/relatorios/closure-questionnaires?questionnaireId=${qn.id}`, b.admin), 404, "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND");
    expect((await ok(t.api.get("/closure-questionnaires", b.admin))).questionnaires).toEqual([]);
    const ticketA = await inbound("Helena");
    for (const r of [
      await t.api.get(`/closure-questionnaires/ticket?ticketId=${ticketA}`, b.agent),
      await t.api.get(`/closure-questionnaires/closures?ticketId=${ticketA}`, b.agent),
      await t.api.post("/closure-questionnaires/answers", { ticketId: ticketA, answers: [{ questionnaireId: qn.id, values: {} }] }, b.agent),
    ])
      expect(r.status).toBe(404);
    // A ticket of a queue the agent is not in is not theirs to see (spec §6): 404 there too, while an admin sees it.
    const elsewhere = await inbound("Iara");
    await ok(t.api.put(`/tickets/${elsewhere}`, { queueId: a.queueIds[1] }, a.admin));
    expect((await t.api.get(`/tickets/${elsewhere}`, a.agent)).status).toBe(404);
    for (const r of [
      await t.api.get(`/closure-questionnaires/ticket?ticketId=${elsewhere}`, a.agent),
      await t.api.get(`/closure-questionnaires/closures?ticketId=${elsewhere}`, a.agent),
      await t.api.post("/closure-questionnaires/answers", { ticketId: elsewhere, answers: [] }, a.agent),
    ])
      expectError(r, 404, "ERR_TICKET_NOT_FOUND");
    expect((await t.api.get(`/closure-questionnaires/ticket?ticketId=${elsewhere}`, a.admin)).status).toBe(200);
    // A's questionnaire id on A's ticket, but a questionnaire A does not have: 404 too.
    expectError(await t.api.post("/closure-questionnaires/answers", { ticketId: ticketA, answers: [{ questionnaireId: qn.id + 1, values: {} }] }, a.agent), 404, "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND");
  });

  it("an edit keeps the questions sent with their ids (and their answers); switched off, it asks nothing; deleted, it is gone", async () => {
    const keep = qn.questions.filter((q) => q.question !== "Valor da venda");
    const edited = await ok(t.api.put("/closure-questionnaires", { id: qn.id, questions: [...keep, { id: "made-up", question: "Nova", type: "text" }] }, a.admin));
    expect(edited.questions.slice(0, keep.length).map((q: Q) => q.id)).toEqual(keep.map((q) => q.id));
    expect(edited.questions.at(-1).id).not.toBe("made-up");
    const ticket = await inbound("Igor");
    expectError(await close(ticket, a.admin), 422, "ERR_CLOSURE_ANSWERS_REQUIRED");
    await ok(t.api.put("/closure-questionnaires", { id: qn.id, active: false }, a.admin));
    expect((await ok(t.api.get(`/closure-questionnaires/ticket?ticketId=${ticket}`, a.admin))).questionnaires).toEqual([]);
    expect((await close(ticket, a.admin)).status).toBe(200);
    await ok(t.api.del(`/closure-questionnaires?id=${qn.id}`, a.admin));
    expectError(await t.api.get(`/relatorios/closure-questionnaires?questionnaireId=${qn.id}`, a.admin), 404, "ERR_CLOSURE_QUESTIONNAIRE_NOT_FOUND");
  });
});
