/**
 * Auto-reply flows on real tickets (MariaDB):
 * - entry: the initial step's message; a key (any case) sends its return message and the next
 *   step, or hands the ticket to its user; a wrong key gets the flow's invalid message; a test
 *   phone keeps everyone else out of the bot (straight to the queue);
 * - closure: an agent closes a ticket of a connection bound to a closure flow; its question goes
 *   on the closed ticket; the customer's answer opens a new ticket, the bot is started on it and
 *   takes that message as the answer (its return message, then the action's queue).
 */
import type { Flow, FlowRun } from "../src/model";
import { botTenant, createFlow, Customer, endedRuns, engineCore, logsOf, ok, runsOf, settle, waitFor, waitStatus, type BotTenant, type TestCore } from "./engine-kit";

jest.setTimeout(180_000);

let t: TestCore;
let f: BotTenant;

beforeAll(async () => {
  t = await engineCore();
  f = await botTenant(t);
});
afterAll(async () => {
  await t?.stop();
});

const action = (id: string, key: string, o: { next?: string; queueId?: number; userId?: number; returnMessage?: string } = {}) => ({
  id,
  key,
  nextStepId: o.next ?? null,
  queueId: o.queueId ?? null,
  userId: o.userId ?? null,
  returnMessage: o.returnMessage ?? null,
});

async function bind(value: { entryFlowId?: number | null; closureFlowId?: number | null }) {
  await ok(t.api.put("/chatbot-flows/bindings", { scope: "connection", targetId: f.conn, entryFlowId: null, closureFlowId: null, ...value }, f.admin));
}

describe("auto-reply flows (MariaDB)", () => {
  it("entry: steps and keys, a return message, the next step, a wrong key, then the action's user", async () => {
    const flow: Flow = await createFlow(t, f.admin, {
      kind: "entry",
      name: "Recepção",
      settings: { invalidMessage: "Opção inválida, {{name}}. Tente de novo." },
      steps: [
        { id: "s1", initial: true, message: "Olá {{name}}! Digite 1 para Vendas ou 2 para Pedidos.", actions: [action("a1", "1", { queueId: f.queueIds[1], returnMessage: "Certo, Vendas." }), action("a2", "2", { next: "s2", returnMessage: "Vamos ver seu pedido." })] },
        { id: "s2", initial: false, message: "É um pedido novo (A) ou antigo (B)?", actions: [action("b1", "a", { userId: f.agent.userId })] },
      ],
    });
    await bind({ entryFlowId: flow.id });
    const c = new Customer(t, f);
    await c.say("Oi");
    expect(await c.waitSent(1)).toEqual(["Olá Ana! Digite 1 para Vendas ou 2 para Pedidos."]);
    await c.say("2");
    expect((await c.waitSent(3)).slice(1)).toEqual(["Vamos ver seu pedido.", "É um pedido novo (A) ou antigo (B)?"]);
    await c.say("C");
    expect((await c.waitSent(4))[3]).toBe("Opção inválida, Ana. Tente de novo.");
    await c.say(" A ");
    const tk = await waitStatus(c, "open");
    expect(tk.userId).toBe(f.agent.userId);
    expect((await logsOf(t, f.tenantId, c.ticketId)).map((l) => l.type)).toEqual(expect.arrayContaining(["chatBot", "userDefine"]));
    const [run] = await endedRuns(t, f.admin, flow.id, c.ticketId);
    expect(run.steps.map((s) => [s.nodeId, s.state, s.detail])).toEqual([
      ["s1", "success", "2"],
      ["s2", "success", "a"],
      ["s2", "warning", "invalid option (1/3)"],
    ]);
    expect(run.status).toBe("handedOff");
  });

  it("entry with a test phone: anyone else goes straight to the queue, the bot says nothing", async () => {
    const flow: Flow = await createFlow(t, f.admin, {
      kind: "entry",
      name: "Em teste",
      testPhone: "5511987650000",
      steps: [{ id: "s1", initial: true, message: "Menu em teste", actions: [action("a1", "1", { queueId: f.queueIds[1] })] }],
    });
    await bind({ entryFlowId: flow.id });
    const c = new Customer(t, f, "Sem Telefone");
    await c.say("Oi");
    await waitStatus(c, "pending");
    await settle();
    expect(await c.sent()).toEqual([]);
    expect(await ok<FlowRun[]>(runsOf(t, f.admin, flow.id))).toEqual([]);
  });

  it("closure: the question goes on the ticket the agent closed; the answer opens a new ticket, which the bot takes as the answer", async () => {
    const flow: Flow = await createFlow(t, f.admin, {
      kind: "closure",
      name: "Avaliação",
      settings: { waitMinutes: 30 },
      steps: [
        {
          id: "rate",
          initial: true,
          message: "Como foi o atendimento, {{name}}? 1 — Bom, 2 — Ruim",
          actions: [action("good", "1", { returnMessage: "Obrigado!" }), action("bad", "2", { returnMessage: "Sentimos muito. Um supervisor vai falar com você.", queueId: f.queueIds[1] })],
        },
      ],
    });
    await bind({ closureFlowId: flow.id });
    const c = new Customer(t, f, "Sofia Ramos");
    await c.say("Preciso de ajuda");
    const first = c.ticketId;
    await waitStatus(c, "pending");
    expect((await t.api.put(`/tickets/${first}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.put(`/tickets/${first}`, { status: "closed" }, f.agent)).status).toBe(200);
    expect(await c.waitSent(1, first)).toEqual(["Como foi o atendimento, Sofia? 1 — Bom, 2 — Ruim"]);
    const [waiting] = await waitFor("the closure run waiting", () => ok<FlowRun[]>(runsOf(t, f.admin, flow.id)), (r) => r[0]?.steps.at(-1)?.state === "running");
    expect(waiting).toMatchObject({ ticketId: first, status: "running" });

    await c.say("2");
    const second = c.ticketId;
    expect(second).not.toBe(first);
    const tk = await waitFor("the new ticket handed to the queue", () => c.ticket(second), (x) => x.status === "pending" && x.queueId === f.queueIds[1]);
    expect(tk.userId).toBeNull();
    expect(await c.sent(second)).toEqual(["Sentimos muito. Um supervisor vai falar com você."]);
    const [run] = await endedRuns(t, f.admin, flow.id, second);
    expect(run).toMatchObject({ ticketId: second, status: "handedOff" });
    expect(run.steps.map((s) => [s.nodeId, s.state, s.detail])).toEqual([["rate", "success", "2"]]);
    expect((await logsOf(t, f.tenantId, second)).map((l) => l.type)).toEqual(expect.arrayContaining(["chatBot", "queue"]));
  });
});
