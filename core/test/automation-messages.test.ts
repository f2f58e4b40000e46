/**
 * Automatic messages (core/src/automation): the connection's greeting and farewell, the
 * out-of-hours, lunch and holiday notices once per ticket per closed period, specific texts
 * over the global one, and smart close. A real core on MariaDB with a TestClock; customers
 * write through channels.inbound, and what went out is read on the web chat's side.
 */
import { TestClock } from "../src/lib/clock";
import { createTenant, type TestCore, type TenantFixture } from "./helpers";
import { Customer, automationCore, local, logsOf, sentBodies, setGlobalHours, setSetting, settle, site, ticketRow, waitFor, waitSent, type Site } from "./automation-kit";

const OUT = "Estamos fora do horário, {{name}}. Protocolo {{protocol}}.";

describe("automatic messages (MariaDB)", () => {
  const clock = new TestClock(local("2026-11-30T10:00:00")); // a Monday
  let t: TestCore;

  beforeAll(async () => {
    t = await automationCore(clock);
  });
  afterAll(async () => {
    await t?.stop();
  });

  async function tenantWithSite(o: { greeting?: string; farewell?: string } = {}): Promise<{ f: TenantFixture; s: Site }> {
    const f = await createTenant(t, { tier: "PLUS" });
    await setGlobalHours(t, f, { outOfHours: OUT, lunch: "Saímos para o almoço", holiday: "Hoje é feriado" });
    return { f, s: await site(t, f, o) };
  }

  it("a ticket a customer opens gets the greeting once, with its placeholders; the agent's close sends the farewell once", async () => {
    clock.set(local("2026-11-30T10:00:00"));
    const { f, s } = await tenantWithSite({ greeting: "Olá {{name}}! Seu protocolo é {{protocol}}.", farewell: "Obrigado, {{name}}!" });
    const c = new Customer(t, f, s, clock);
    await c.say("Bom dia");
    const ticket = await ticketRow(t, f.tenantId, c.ticketId);
    expect(await waitSent(t, f.tenantId, c.ticketId, 1)).toEqual([`Olá Ana! Seu protocolo é ${ticket.protocol}.`]);
    await c.say("Preciso de ajuda");
    await c.say("Alguém aí?");
    await settle();
    expect(await c.received()).toEqual([`Olá Ana! Seu protocolo é ${ticket.protocol}.`]);

    // The agent takes it, answers and closes it: the farewell goes after the close, once.
    expect((await t.api.put(`/tickets/${c.ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.post(`/messages/${c.ticketId}`, { body: "Claro, diga" }, f.agent)).status).toBe(201);
    expect((await t.api.put(`/tickets/${c.ticketId}`, { status: "closed" }, f.agent)).status).toBe(200);
    await waitFor(() => c.received(), (r) => r.length === 3, "the farewell");
    await settle();
    expect(await c.received()).toEqual([`Olá Ana! Seu protocolo é ${ticket.protocol}.`, "Claro, diga", "Obrigado, Ana!"]);
    expect((await ticketRow(t, f.tenantId, c.ticketId)).status).toBe("closed");
    expect((await logsOf(t, f.tenantId, c.ticketId)).filter((l) => l.type === "closed")).toEqual([{ type: "closed", userId: f.agent.userId, data: null }]);

    // A ticket the agent opens is greeted by nobody.
    const other = new Customer(t, f, s, clock, "Bruno Lima");
    await other.say("Oi");
    await waitSent(t, f.tenantId, other.ticketId, 1);
    expect((await t.api.put(`/tickets/${other.ticketId}`, { status: "closed" }, f.admin)).status).toBe(200);
    const contactId = (await t.core.broker.call("tickets.getInternal", { tenantId: f.tenantId, id: other.ticketId }) as { contactId: number }).contactId;
    const made = await t.api.post("/tickets", { contactId, connectionId: s.id }, f.agent);
    expect(made.status).toBe(201);
    await settle();
    expect(await sentBodies(t, f.tenantId, made.body.id)).toEqual([]);
  });

  it("a customer writing outside hours gets the notice once per closed period, instead of the greeting, and again in the next one", async () => {
    clock.set(local("2026-11-30T20:00:00")); // Monday evening: closed until Tuesday 08:00
    const { f, s } = await tenantWithSite({ greeting: "Olá!" });
    const c = new Customer(t, f, s, clock);
    await c.say("Boa noite");
    const protocol = (await ticketRow(t, f.tenantId, c.ticketId)).protocol;
    const notice = `Estamos fora do horário, Ana. Protocolo ${protocol}.`;
    expect(await waitSent(t, f.tenantId, c.ticketId, 1)).toEqual([notice]);
    clock.set(local("2026-11-30T23:30:00"));
    await c.say("Oi?");
    clock.set(local("2026-12-01T07:59:00"));
    await c.say("Bom dia?");
    await settle();
    expect(await c.received()).toEqual([notice]);

    // Open on Tuesday morning: nothing; closed again on Tuesday evening: a new period, a new notice.
    clock.set(local("2026-12-01T09:00:00"));
    await c.say("Estão aí?");
    await settle();
    expect(await sentBodies(t, f.tenantId, c.ticketId)).toEqual([notice]);
    clock.set(local("2026-12-01T18:30:00"));
    await c.say("E agora?");
    expect(await waitSent(t, f.tenantId, c.ticketId, 2)).toEqual([notice, notice]);
    await c.say("De novo");
    await settle();
    expect(await c.received()).toEqual([notice, notice]);
    expect((await ticketRow(t, f.tenantId, c.ticketId)).status).toBe("pending");
  });

  it("lunch and holiday have their own messages", async () => {
    const { f, s } = await tenantWithSite();
    clock.set(local("2026-12-01T12:30:00"));
    const lunch = new Customer(t, f, s, clock);
    await lunch.say("Olá");
    expect(await waitSent(t, f.tenantId, lunch.ticketId, 1)).toEqual(["Saímos para o almoço"]);

    expect((await t.api.post("/holidays", { date: "2026-12-02", description: "Dia da empresa", message: "Feriado da empresa, voltamos amanhã" }, f.admin)).status).toBe(201);
    clock.set(local("2026-12-02T10:00:00"));
    const holiday = new Customer(t, f, s, clock, "Carla Dias");
    await holiday.say("Olá");
    expect(await waitSent(t, f.tenantId, holiday.ticketId, 1)).toEqual(["Feriado da empresa, voltamos amanhã"]);
    expect(await holiday.received()).toEqual(["Feriado da empresa, voltamos amanhã"]);
  });

  it("a queue's schedule and message override the global ones for its tickets", async () => {
    const { f, s } = await tenantWithSite();
    const sales = await site(t, f, { queueId: f.queueIds[1] });
    const evenings = { mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:00", end: "22:00" } };
    const r = await t.api.post(
      "/business-hours",
      { name: "Vendas", type: "queue", targetIds: [f.queueIds[1]], days: [{ mode: "closed" }, evenings, evenings, evenings, evenings, evenings, { mode: "closed" }], messages: { outOfHours: "Vendas volta às 8h" } },
      f.admin,
    );
    expect(r.status).toBe(201);

    // Tuesday 19:00: the global hours are closed, the sales queue's are open.
    clock.set(local("2026-12-01T19:00:00"));
    const support = new Customer(t, f, s, clock);
    const buyer = new Customer(t, f, sales, clock, "Davi Rocha");
    await support.say("Olá");
    await buyer.say("Olá");
    await waitSent(t, f.tenantId, support.ticketId, 1);
    await settle();
    expect(await sentBodies(t, f.tenantId, buyer.ticketId)).toEqual([]);
    clock.set(local("2026-12-01T23:00:00"));
    await buyer.say("Ainda aí?");
    expect(await waitSent(t, f.tenantId, buyer.ticketId, 1)).toEqual(["Vendas volta às 8h"]);
  });

  it("smart close closes a ticket when no hours fall in the next 24 h, with its no-next-day message", async () => {
    const { f, s } = await tenantWithSite();
    await setSetting(t, f, "smartClose", { enabled: true, window24h: false, outOfOfficeMessage: "Fora do expediente", noNextDayMessage: "Só na segunda, {{name}}. Encerramos por ora.", lunchMessage: null });
    // Friday 19:00: next opening Monday 08:00, more than 24 h away.
    clock.set(local("2026-12-04T19:00:00"));
    const c = new Customer(t, f, s, clock);
    await c.say("Oi");
    expect(await waitSent(t, f.tenantId, c.ticketId, 1)).toEqual(["Só na segunda, Ana. Encerramos por ora."]);
    expect((await ticketRow(t, f.tenantId, c.ticketId)).status).toBe("closed");
    expect((await logsOf(t, f.tenantId, c.ticketId)).filter((l) => l.type === "autoClose" || l.type === "closed")).toEqual([{ type: "autoClose", userId: null, data: { reason: "smartClose" } }]);
    expect(await c.received()).toEqual(["Só na segunda, Ana. Encerramos por ora."]);

    // Thursday 19:00: the next opening is within 24 h: not closed, smart close's own out-of-office text.
    clock.set(local("2026-12-03T19:00:00"));
    const d = new Customer(t, f, s, clock, "Eva Melo");
    await d.say("Oi");
    expect(await waitSent(t, f.tenantId, d.ticketId, 1)).toEqual(["Fora do expediente"]);
    expect((await ticketRow(t, f.tenantId, d.ticketId)).status).toBe("pending");
  });

  it("with the 24-hour window, smart close waits when the next day has hours, and closes when it has none", async () => {
    const { f, s } = await tenantWithSite();
    // Saturdays open 20:00–23:00: on Friday at 19:00 that is 25 h away, on the next local day.
    const week = [{ mode: "closed" }, ...Array(5).fill({ mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:00", end: "18:00" } }), { mode: "specific", afternoon: { start: "20:00", end: "23:00" } }];
    expect((await t.api.put("/business-hours/global", { active: true, days: week, messages: { outOfHours: "Fora do horário" } }, f.admin)).status).toBe(200);
    await setSetting(t, f, "smartClose", { enabled: true, window24h: true, outOfOfficeMessage: null, noNextDayMessage: "Sem expediente amanhã", lunchMessage: null });
    clock.set(local("2026-12-04T19:00:00"));
    const waits = new Customer(t, f, s, clock);
    await waits.say("Oi");
    expect(await waitSent(t, f.tenantId, waits.ticketId, 1)).toEqual(["Fora do horário"]);
    expect((await ticketRow(t, f.tenantId, waits.ticketId)).status).toBe("pending");

    // Without the window, the same moment closes.
    await setSetting(t, f, "smartClose", { enabled: true, window24h: false, outOfOfficeMessage: null, noNextDayMessage: "Sem expediente amanhã", lunchMessage: null });
    const closes = new Customer(t, f, s, clock, "Caio Reis");
    await closes.say("Oi");
    expect(await waitSent(t, f.tenantId, closes.ticketId, 1)).toEqual(["Sem expediente amanhã"]);
    await waitFor(() => ticketRow(t, f.tenantId, closes.ticketId), (r) => r.status === "closed", "smart close");

    // Saturday 23:30: Sunday has no hours and Monday 08:00 is over 24 h away: even with the window it closes.
    await setSetting(t, f, "smartClose", { enabled: true, window24h: true, outOfOfficeMessage: null, noNextDayMessage: "Sem expediente amanhã", lunchMessage: null });
    clock.set(local("2026-12-05T23:30:00"));
    await waits.say("Ainda aguardo");
    await waitFor(() => ticketRow(t, f.tenantId, waits.ticketId), (r) => r.status === "closed", "smart close with the window");
    expect(await waitSent(t, f.tenantId, waits.ticketId, 2)).toEqual(["Fora do horário", "Sem expediente amanhã"]);
  });

  it("one notice however often the same message is delivered", async () => {
    const { f, s } = await tenantWithSite();
    clock.set(local("2026-12-01T21:00:00"));
    const c = new Customer(t, f, s, clock);
    const first = await c.say("Oi", "same-delivery");
    const again = await c.say("Oi", "same-delivery");
    expect(again).toMatchObject({ duplicate: true, messageId: first.messageId });
    await waitSent(t, f.tenantId, c.ticketId, 1);
    // The event itself told twice (a redelivery on the bus) still sends one.
    const [message] = (await t.core.broker.call("messages.query", { tenantId: f.tenantId, ticketId: c.ticketId, offset: 0, limit: 100 }) as { rows: Array<{ id: number; fromMe: boolean }> }).rows.filter((m) => !m.fromMe);
    const payload = { action: "create", tenantId: f.tenantId, ticketId: c.ticketId, message, at: clock.now() };
    await Promise.all([t.core.broker.emit("messages.changed", payload), t.core.broker.emit("messages.changed", payload)]);
    await settle();
    expect(await c.received()).toHaveLength(1);
  });

  it("with nothing configured nothing is sent: no greeting or farewell, no schedule (always open), closed hours without texts, smart close off", async () => {
    const f = await createTenant(t, { tier: "PLUS" });
    const s = await site(t, f);
    clock.set(local("2026-12-05T23:00:00")); // Saturday night
    const c = new Customer(t, f, s, clock);
    await c.say("Oi");
    await settle();
    expect((await t.api.put(`/tickets/${c.ticketId}`, { status: "closed" }, f.admin)).status).toBe(200);
    await setGlobalHours(t, f, {});
    const d = new Customer(t, f, s, clock, "Rui Paz");
    await d.say("Oi");
    await settle();
    expect(await sentBodies(t, f.tenantId, c.ticketId)).toEqual([]);
    expect(await sentBodies(t, f.tenantId, d.ticketId)).toEqual([]);
    expect((await ticketRow(t, f.tenantId, d.ticketId)).status).toBe("pending");
    expect(await c.received()).toEqual([]);
  });
});
