/**
 * The automation and a bot's tickets (core/src/automation; status chatbot): a bot keeps hours by
 * its own conditions, so a customer writing to a bot outside hours gets no out-of-hours, lunch
 * or holiday notice and no smart close from the core; the connection's greeting still goes. A
 * real core on MariaDB with a TestClock; the same tenant's connection without a bot is the
 * control.
 */
import { TestClock } from "../src/lib/clock";
import { uid, type Auth, type TestCore } from "./helpers";
import { local, setGlobalHours, setSetting } from "./automation-kit";
import { waitFor } from "./platform-setup";
import { Visitor, botCall, botTenant, ofTicket, platformSent, received, settle, startWithBot, ticketOf } from "./chatbots-setup";

const OUT = "Estamos fora do horário.";

describe("chatbots and the automatic messages (MariaDB)", () => {
  const clock = new TestClock(local("2026-11-30T10:00:00")); // a Monday
  let t: TestCore;
  let sup: Auth;
  let a: Awaited<ReturnType<typeof botTenant>>;
  let bound: number;
  let unbound: number;

  const connection = async (greeting: string) => {
    const c = await t.api.post("/connections", { type: "channel-fixture", name: `Site ${uid()}`, greeting, settings: { greeting: "Olá" } }, a.admin);
    expect(c.status).toBe(201);
    await t.api.post(`/connections/${c.body.id}/connect`, {}, a.admin);
    return c.body.id as number;
  };

  beforeAll(async () => {
    ({ t, sup } = await startWithBot({ clock }));
    a = await botTenant(t, sup);
    await setGlobalHours(t, a, { outOfHours: OUT, lunch: "Almoço", holiday: "Feriado" });
    bound = await connection("Olá, bem-vindo!");
    unbound = await connection("Olá, bem-vindo!");
    await botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "connection", targetId: bound, ref: "flow-1" });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const visitor = (conn: number) => new Visitor(t, a.tenantId, conn, { now: () => clock.now() });

  it("outside hours: the bot's ticket gets no notice (the bot gets the message), a ticket without a bot does", async () => {
    clock.set(local("2026-11-30T20:00:00")); // Monday evening: closed
    const toBot = visitor(bound);
    await toBot.say("Boa noite");
    const control = visitor(unbound);
    await control.say("Boa noite");
    expect(await waitFor(() => platformSent(t, a.tenantId, control.ticketId), (l) => l.length >= 1, "the control's notice")).toEqual([OUT]);
    await waitFor(() => received(t).then((l) => ofTicket(l, toBot.ticketId)), (l) => l.length >= 1, "the bot's message");
    clock.set(local("2026-11-30T12:30:00")); // lunch
    await toBot.say("Alô?");
    await settle();
    expect(await platformSent(t, a.tenantId, toBot.ticketId)).toEqual([]);
    expect((await ticketOf(t, a.tenantId, toBot.ticketId)).status).toBe("chatbot");
  });

  it("smart close leaves the bot's ticket alone", async () => {
    await setSetting(t, a, "smartClose", { enabled: true, window24h: false, noNextDayMessage: "Até segunda." });
    try {
      clock.set(local("2026-12-05T15:00:00")); // Saturday: nothing in the next 24 h
      const toBot = visitor(bound);
      await toBot.say("Oi");
      const control = visitor(unbound);
      await control.say("Oi");
      await waitFor(() => ticketOf(t, a.tenantId, control.ticketId), (r) => r.status === "closed", "the control's smart close");
      await settle();
      expect(await ticketOf(t, a.tenantId, toBot.ticketId)).toMatchObject({ status: "chatbot" });
      expect(await platformSent(t, a.tenantId, toBot.ticketId)).toEqual([]);
    } finally {
      await setSetting(t, a, "smartClose", { enabled: false, window24h: false });
    }
  });

  it("within hours the connection's greeting still goes to a customer the bot takes", async () => {
    clock.set(local("2026-12-01T10:00:00")); // Tuesday morning: open
    const toBot = visitor(bound);
    await toBot.say("Bom dia");
    expect(await waitFor(() => platformSent(t, a.tenantId, toBot.ticketId), (l) => l.length >= 1, "the greeting")).toEqual(["Olá, bem-vindo!"]);
    expect((await ticketOf(t, a.tenantId, toBot.ticketId)).status).toBe("chatbot");
  });
});
