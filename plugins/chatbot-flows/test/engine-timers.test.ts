/**
 * The flow engine's time: a core on a test clock (its scheduler ticking every second, due times
 * by the clock), so the test moves time instead of waiting for it.
 *
 * - The wait time: no answer within the flow's minutes hands the ticket off (reason timeout,
 *   the run expired); an answer in time moves the one pending timeout to the next question, so
 *   the first question's never fires.
 * - A message node's pause is a job: the text after it goes when the clock has moved past it.
 * - A business-hours condition asks the core for the ticket's hours at the clock's now.
 * - A closure flow's question expires after its wait time (the customer's later ticket is not
 *   the bot's).
 */
import type { FlowRun } from "../src/model";
import { botTenant, chatFlowOn, createFlow, Customer, edge, engineCore, logsOf, node, ok, runsOf, settle, start, waitAsked, waitFor, waitStatus, type BotTenant, type TestCore } from "./engine-kit";

jest.setTimeout(180_000);

/** Local time of the tenants' default zone (America/Sao_Paulo, UTC-3) as epoch ms. */
const local = (isoLocal: string) => Date.parse(`${isoLocal}-03:00`);

class Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
  set(t: number): void {
    this.t = t;
  }
}

const clock = new Clock(local("2026-11-30T10:00:00")); // a Monday
let t: TestCore;
let f: BotTenant;

beforeAll(async () => {
  t = await engineCore({ clock, schedulerTickMs: 200 });
  f = await botTenant(t);
});
afterAll(async () => {
  await t?.stop();
});

const MIN = 60_000;
/** Long enough for a few scheduler ticks to have run whatever became due. */
const ticks = () => settle(1200);

describe("flow timers on the scheduler (MariaDB, test clock)", () => {
  it("hands off after the wait time with no answer (timeout), and an answer in time moves the wait to the next question", async () => {
    const flow = await chatFlowOn(
      t,
      f,
      [
        start(),
        node("q1", { type: "question", name: "Cidade", text: "Em que cidade você está?", saveTo: "var.city", validate: "any" }),
        node("q2", { type: "question", name: "Bairro", text: "E o bairro?", saveTo: "var.area", validate: "any" }),
        node("bye", { type: "end", name: "Fim", close: true }),
      ],
      [edge("start", "q1"), edge("q1", "q2"), edge("q2", "bye")],
      { waitMinutes: 5, handoffQueueId: f.queueIds[1] },
    );
    const quiet = new Customer(t, f, "Elisa Prado");
    await quiet.say("Oi");
    await waitAsked(t, f.admin, flow.id, quiet.ticketId, "q1");
    const answering = new Customer(t, f, "Fábio Reis");
    await answering.say("Oi");
    await waitAsked(t, f.admin, flow.id, answering.ticketId, "q1");

    clock.advance(3 * MIN);
    await answering.say("Curitiba");
    await waitAsked(t, f.admin, flow.id, answering.ticketId, "q2");
    expect(await answering.sent()).toEqual(["Em que cidade você está?", "E o bairro?"]);
    await ticks();
    expect((await quiet.ticket()).status).toBe("chatbot");

    clock.advance(3 * MIN); // 6 min after the first question, 3 after the second
    const expired = await waitStatus(quiet, "pending");
    expect(expired.queueId).toBe(f.queueIds[1]);
    expect((await logsOf(t, f.tenantId, quiet.ticketId)).find((l) => l.type === "queue")?.data).toMatchObject({ reason: "timeout", queueId: f.queueIds[1] });
    await ticks();
    expect((await answering.ticket()).status).toBe("chatbot"); // its first question's timeout was moved, not left behind

    clock.advance(3 * MIN); // 6 min after the second question
    await waitStatus(answering, "pending");
    await settle();
    expect(await quiet.sent()).toEqual(["Em que cidade você está?"]);
    expect(await answering.sent()).toEqual(["Em que cidade você está?", "E o bairro?"]);

    const runs = await ok<FlowRun[]>(runsOf(t, f.admin, flow.id));
    const byTicket = new Map(runs.map((r) => [r.ticketId, r]));
    expect(byTicket.get(quiet.ticketId)).toMatchObject({ status: "expired" });
    expect(byTicket.get(quiet.ticketId)!.steps.at(-1)).toMatchObject({ nodeId: "q1", state: "warning", detail: "no answer in 5 min" });
    expect(byTicket.get(answering.ticketId)!.steps.map((s) => [s.nodeId, s.state])).toEqual([
      ["start", "success"],
      ["q1", "success"],
      ["q2", "warning"],
    ]);
  });

  it("a pause between texts is a scheduler job: the next text goes once the clock passes it", async () => {
    const flow = await chatFlowOn(
      t,
      f,
      [
        start(),
        node("wait", { type: "message", name: "Espera", interactions: [{ type: "text", text: "Um momento, {{name}}…" }, { type: "delay", seconds: 30 }, { type: "text", text: "Pronto!" }] }),
        node("menu", { type: "menu", name: "Menu", style: "buttons", title: "", text: "Posso ajudar em algo mais?", options: [{ id: "no", title: "Não" }], sections: [] }),
      ],
      [edge("start", "wait"), edge("wait", "menu")],
    );
    const c = new Customer(t, f, "Gabi Nunes");
    await c.say("Oi");
    await waitAsked(t, f.admin, flow.id, c.ticketId, "wait");
    expect(await c.sent()).toEqual(["Um momento, Gabi…"]);
    await c.say("Alô?"); // during the pause: kept as the latest message, not an answer
    await ticks();
    expect(await c.sent()).toEqual(["Um momento, Gabi…"]);
    clock.advance(31_000);
    expect(await c.waitSent(3)).toEqual(["Um momento, Gabi…", "Pronto!", "Posso ajudar em algo mais?\n\n1 — Não"]);
  });

  it("a business-hours condition follows the ticket's hours at the core's now", async () => {
    const days = [
      { mode: "closed" },
      ...Array.from({ length: 5 }, () => ({ mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:00", end: "18:00" } })),
      { mode: "closed" },
    ];
    expect((await t.api.put("/business-hours/global", { active: true, days, messages: {} }, f.admin)).status).toBe(200);
    await chatFlowOn(
      t,
      f,
      [
        start(),
        node("isOpen", { type: "condition", name: "Aberto?", match: "all", conditions: [{ type: "businessHours", open: true }] }),
        node("open", { type: "transfer", name: "Atendente", queueId: f.queueIds[0], userId: null, message: "Estamos abertos, já vamos atender." }),
        node("closed", { type: "end", name: "Fechado", message: "Estamos fechados. Volte de segunda a sexta, das 8h às 18h.", close: true }),
      ],
      [edge("start", "isOpen"), edge("isOpen", "open", "true"), edge("isOpen", "closed", "false")],
    );
    clock.set(local("2026-11-30T10:00:00"));
    const day = new Customer(t, f, "Hugo Dias");
    await day.say("Oi");
    await waitStatus(day, "pending");
    expect(await day.sent()).toEqual(["Estamos abertos, já vamos atender."]);

    clock.set(local("2026-11-30T20:00:00"));
    const night = new Customer(t, f, "Iara Costa");
    await night.say("Oi");
    await waitStatus(night, "closed");
    expect(await night.sent()).toEqual(["Estamos fechados. Volte de segunda a sexta, das 8h às 18h."]);

    clock.set(local("2026-12-01T12:30:00")); // lunch
    const lunch = new Customer(t, f, "João Melo");
    await lunch.say("Oi");
    await waitFor("the lunch-time answer", () => lunch.sent(), (m) => m.length > 0);
    expect(await lunch.sent()).toEqual(["Estamos fechados. Volte de segunda a sexta, das 8h às 18h."]);
  });

  it("a closure flow's question expires after its wait time: a later message opens a ticket the bot leaves alone", async () => {
    clock.set(local("2026-12-02T10:00:00"));
    const flow = await createFlow(t, f.admin, {
      kind: "closure",
      name: "Avaliação",
      settings: { waitMinutes: 30 },
      steps: [{ id: "rate", initial: true, message: "Nota de 1 a 5?", actions: [{ id: "a", key: "5", nextStepId: null, queueId: null, userId: null, returnMessage: "Obrigado!" }] }],
    });
    await ok(t.api.put("/chatbot-flows/bindings", { scope: "connection", targetId: f.conn, entryFlowId: null, closureFlowId: flow.id }, f.admin));
    const c = new Customer(t, f, "Vera Lins");
    await c.say("Oi");
    const first = c.ticketId;
    await waitStatus(c, "pending");
    expect((await t.api.put(`/tickets/${first}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.put(`/tickets/${first}`, { status: "closed" }, f.agent)).status).toBe(200);
    await waitAsked(t, f.admin, flow.id, first, "rate");
    expect(await c.sent(first)).toEqual(["Nota de 1 a 5?"]);

    clock.advance(31 * MIN);
    const [run] = await waitFor("the closure run expired", () => ok<FlowRun[]>(runsOf(t, f.admin, flow.id)), (r) => r[0]?.status === "expired");
    expect(run.steps.at(-1)).toMatchObject({ nodeId: "rate", state: "warning", detail: "no new ticket in 30 min" });
    await c.say("5");
    expect(c.ticketId).not.toBe(first);
    await waitStatus(c, "pending");
    await ticks();
    expect(await c.sent()).toEqual([]);
    expect((await c.ticket()).chatbotPluginId).toBeNull();
  });
});
