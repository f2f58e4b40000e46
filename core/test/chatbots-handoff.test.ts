/**
 * The end of a bot's part and its other starts (plugin-sdk chatbot-contract.ts; tickets/chatbot.ts,
 * platform/chatbots.ts) on MariaDB: hand-off to a user, to a queue (balance and random among its
 * online users), by attempts; only the owning plugin, and only while the ticket is still its
 * bot's; an agent's accept ends it; a transfer to a bound queue and platform.chatbots.start hand a
 * ticket to a bot; another tenant's ids answer their not-found codes; deleted connections and
 * queues take their bindings with them.
 */
import type { PlatformEventEnvelope } from "@openatende/plugin-sdk";
import { PASSWORD, uid, type Auth, type TestCore } from "./helpers";
import { PROBE_SERVICE, probeCall, rejection, waitFor } from "./platform-setup";
import { BOT, Visitor, botCall, botTenant, logsOf, ofTicket, received, resetBot, settle, startWithBot, ticketOf } from "./chatbots-setup";

describe("chatbots: start and hand-off (MariaDB)", () => {
  let t: TestCore;
  let sup: Auth;
  let a: Awaited<ReturnType<typeof botTenant>>;
  let b: Awaited<ReturnType<typeof botTenant>>;
  /** A connection of A with no bot. */
  let plain: number;

  beforeAll(async () => {
    ({ t, sup } = await startWithBot());
    [a, b] = [await botTenant(t, sup), await botTenant(t, sup)];
    const c = await t.api.post("/connections", { type: "channel-fixture", name: `Plain ${uid()}`, settings: { greeting: "Olá" } }, a.admin);
    expect(c.status).toBe(201);
    await t.api.post(`/connections/${c.body.id}/connect`, {}, a.admin);
    plain = c.body.id;
    await botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "connection", targetId: a.conn, ref: "flow-1" });
    await botCall(t, "platform.chatbots.bind", { tenantId: b.tenantId, scope: "connection", targetId: b.conn, ref: "flow-b" });
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });
  beforeEach(async () => {
    await resetBot(t);
  });

  /** A new customer's ticket on the bound connection: the bot's. */
  async function botTicket(tenantId = a.tenantId, conn = a.conn): Promise<{ id: number; v: Visitor }> {
    const v = new Visitor(t, tenantId, conn);
    const r = await v.say("Olá");
    expect((await ticketOf(t, tenantId, r.ticketId)).status).toBe("chatbot");
    return { id: r.ticketId, v };
  }
  const handoff = (ticketId: number, o: { queueId?: number | null; userId?: number | null; distribute?: "none" | "balance" | "random"; reason?: "flow" | "attempts" | "timeout" } = {}, tenantId = a.tenantId) =>
    botCall(t, "platform.chatbots.handoff", { tenantId, ticketId, ...o });
  const lastLogs = async (ticketId: number, n: number) => (await logsOf(t, a.tenantId, ticketId)).slice(-n).map((l) => [l.type, l.userId, l.data]);
  const newUser = async (queueIds: number[]) => {
    const u = await t.api.post("/users", { name: `U ${uid()}`, email: `u-${uid()}@t.test`, password: PASSWORD, profile: "user", queues: queueIds }, a.admin);
    expect(u.status).toBe(201);
    return u.body.id as number;
  };
  const setStatus = (id: number, status: "online" | "offline") => t.core.broker.call("users.setStatus", { id, status });

  it("to a user: open and theirs, logged userDefine (retriesLimitUserDefine by attempts); the owner is cleared and the bot hears no more", async () => {
    const { id, v } = await botTicket();
    await t.core.broker.call(`${PROBE_SERVICE}.reset`);
    const r = await handoff(id, { userId: a.agent.userId });
    expect(r).toMatchObject({ id, status: "open", userId: a.agent.userId, contact: { id: expect.any(Number) } });
    expect(await ticketOf(t, a.tenantId, id)).toMatchObject({ status: "open", userId: a.agent.userId, chatbotPluginId: null, chatbotRef: null });
    expect(await lastLogs(id, 1)).toEqual([["userDefine", a.agent.userId, { pluginId: BOT, ref: "flow-1", reason: "flow" }]]);
    // The usual ticket events: plugins hear the status change.
    const events = await waitFor(
      () => t.core.broker.call(`${PROBE_SERVICE}.received`) as Promise<PlatformEventEnvelope[]>,
      (l) => l.some((e) => e.event === "ticket.statusChanged" && (e.data as any).ticket.id === id),
      "the status change",
    );
    expect((events.find((e) => e.event === "ticket.statusChanged" && (e.data as any).ticket.id === id)!.data as any).from).toBe("chatbot");
    await v.say("ainda aí?");
    await settle();
    expect(ofTicket(await received(t), id).map((x) => x.message?.body)).toEqual(["Olá"]);

    const other = await botTicket();
    await handoff(other.id, { userId: a.agent.userId, reason: "attempts" });
    expect(await lastLogs(other.id, 1)).toEqual([["retriesLimitUserDefine", a.agent.userId, { pluginId: BOT, ref: "flow-1", reason: "attempts" }]]);
  });

  it("to a queue: pending there, logged queue (retriesLimitQueue by attempts); neither queue nor user: pending in its queue", async () => {
    const q = a.queueIds[1];
    const one = await botTicket();
    expect(await handoff(one.id, { queueId: q })).toMatchObject({ status: "pending", queueId: q, userId: null });
    expect(await lastLogs(one.id, 1)).toEqual([["queue", null, { pluginId: BOT, ref: "flow-1", reason: "flow", queueId: q }]]);
    const two = await botTicket();
    await handoff(two.id, { queueId: q, reason: "attempts" });
    expect(await lastLogs(two.id, 1)).toEqual([["retriesLimitQueue", null, { pluginId: BOT, ref: "flow-1", reason: "attempts", queueId: q }]]);
    const three = await botTicket();
    const before = (await ticketOf(t, a.tenantId, three.id)).queueId;
    expect(await handoff(three.id, { reason: "timeout" })).toMatchObject({ status: "pending", queueId: before, userId: null });
    expect(await ticketOf(t, a.tenantId, three.id)).toMatchObject({ chatbotPluginId: null });
  });

  it("distributed: balance gives the queue's online user with the fewest open tickets (ties: lowest id), random any online one, none online: the queue", async () => {
    const q = ((await t.core.broker.call("queues.createInternal", { tenantId: a.tenantId, name: `Dist ${uid()}` })) as { id: number }).id;
    const [u1, u2, u3] = [await newUser([q]), await newUser([q]), await newUser([q])];
    await Promise.all([setStatus(u1, "online"), setStatus(u2, "online"), setStatus(u3, "offline")]);
    // u1 holds two open tickets, u2 one, u3 (offline) none.
    for (const u of [u1, u1, u2]) await handoff((await botTicket()).id, { userId: u });

    const balanced = await botTicket();
    expect(await handoff(balanced.id, { queueId: q, distribute: "balance" })).toMatchObject({ status: "open", userId: u2, queueId: q });
    expect(await lastLogs(balanced.id, 2)).toEqual([
      ["queue", null, { pluginId: BOT, ref: "flow-1", reason: "flow", queueId: q }],
      ["userDefine", u2, { pluginId: BOT, ref: "flow-1", reason: "flow", distribute: "balance" }],
    ]);
    // Two each now: the lowest id.
    const tie = await botTicket();
    expect(await handoff(tie.id, { queueId: q, distribute: "balance", reason: "attempts" })).toMatchObject({ userId: Math.min(u1, u2) });
    expect((await lastLogs(tie.id, 2)).map((l) => l[0])).toEqual(["retriesLimitQueue", "retriesLimitUserDefine"]);

    for (let i = 0; i < 3; i++) {
      const r = await handoff((await botTicket()).id, { queueId: q, distribute: "random" });
      expect([u1, u2]).toContain(r.userId);
      expect(r.status).toBe("open");
    }
    await Promise.all([setStatus(u1, "offline"), setStatus(u2, "offline")]);
    const nobody = await botTicket();
    expect(await handoff(nobody.id, { queueId: q, distribute: "balance" })).toMatchObject({ status: "pending", userId: null, queueId: q });
  });

  it("only the owning plugin, while the ticket is its bot's: another plugin, or after an agent accepted it, gets ERR_CHATBOT_NOT_OWNER", async () => {
    const { id, v } = await botTicket();
    const byProbe = await rejection(probeCall(t, "platform.chatbots.handoff", { tenantId: a.tenantId, ticketId: id, userId: a.agent.userId }));
    expect([byProbe.type, byProbe.code]).toEqual(["ERR_CHATBOT_NOT_OWNER", 409]);
    // The agent accepts: the bot's part ends (owner cleared), the bot can no longer hand it off.
    expect((await t.api.put(`/tickets/${id}`, { status: "open" }, a.agent)).status).toBe(200);
    expect(await ticketOf(t, a.tenantId, id)).toMatchObject({ status: "open", userId: a.agent.userId, chatbotPluginId: null, chatbotRef: null });
    const late = await rejection(handoff(id, { queueId: a.queueIds[0] }));
    expect([late.type, late.code]).toEqual(["ERR_CHATBOT_NOT_OWNER", 409]);
    await v.say("falando com o agente");
    await settle();
    expect(ofTicket(await received(t), id).map((x) => x.message?.body)).toEqual(["Olá"]);

    // An agent's transfer to a user, or a close, ends it too.
    const moved = await botTicket();
    expect((await t.api.put(`/tickets/${moved.id}`, { userId: a.agent.userId }, a.admin)).status).toBe(200);
    expect(await ticketOf(t, a.tenantId, moved.id)).toMatchObject({ status: "open", userId: a.agent.userId, chatbotPluginId: null });
    const closed = await botTicket();
    expect((await t.api.put(`/tickets/${closed.id}`, { status: "closed" }, a.admin)).status).toBe(200);
    expect(await ticketOf(t, a.tenantId, closed.id)).toMatchObject({ status: "closed", chatbotPluginId: null });
    expect((await rejection(handoff(closed.id))).type).toBe("ERR_CHATBOT_NOT_OWNER");
  });

  it("an agent's accept and the bot's hand-off at the same moment: exactly one of them wins, and the ticket is the winner's", async () => {
    for (let i = 0; i < 5; i++) {
      const { id } = await botTicket();
      const [accept, hand] = await Promise.allSettled([t.api.put(`/tickets/${id}`, { status: "open" }, a.agent), handoff(id, { userId: a.supervisor.userId })]);
      const accepted = accept.status === "fulfilled" && accept.value.status === 200;
      const handed = hand.status === "fulfilled";
      expect([accepted, handed].filter(Boolean)).toHaveLength(1);
      const now = await ticketOf(t, a.tenantId, id);
      expect(now).toMatchObject({ status: "open", userId: accepted ? a.agent.userId : a.supervisor.userId, chatbotPluginId: null });
      if (!handed) expect((hand as PromiseRejectedResult).reason.type).toBe("ERR_CHATBOT_NOT_OWNER");
    }
  });

  it("a transfer to a bound queue without a user starts that queue's bot; a hand-off to a queue of the same bot does not restart it, to another bot's it does", async () => {
    const q = a.queueIds[1];
    await botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "queue", targetId: q, ref: "queue-bot" });
    try {
      const v = new Visitor(t, a.tenantId, plain);
      const id = (await v.say("Oi")).ticketId;
      expect((await ticketOf(t, a.tenantId, id)).status).toBe("pending");
      expect((await t.api.put(`/tickets/${id}`, { queueId: q }, a.admin)).status).toBe(200);
      expect(await ticketOf(t, a.tenantId, id)).toMatchObject({ status: "chatbot", queueId: q, chatbotPluginId: BOT, chatbotRef: "queue-bot" });
      const started = await waitFor(() => received(t).then((l) => ofTicket(l, id)), (l) => l.length >= 1, "the start");
      expect(started[0]).toMatchObject({ reason: "started", ref: "queue-bot", message: null });
      expect(started[0].id).toMatch(new RegExp(`^${id}:start:\\d+$`));
      expect((await lastLogs(id, 2)).map((l) => [l[0], l[2]])).toEqual([
        ["transfered", { from: { userId: null, queueId: null }, to: { queueId: q } }],
        ["chatBot", { pluginId: BOT, ref: "queue-bot" }],
      ]);
      // The customer's next message is that bot's.
      await v.say("e agora?");
      await waitFor(() => received(t).then((l) => ofTicket(l, id)), (l) => l.length >= 2, "the message");

      // Handed to its own queue: no loop, it waits there.
      expect(await handoff(id, { queueId: q })).toMatchObject({ status: "pending", queueId: q });
      // Another bot's ticket handed to this queue: this queue's bot starts.
      const other = await botTicket();
      // Its first bot has had the customer's message before the hand-off (a delivery still queued
      // when the ticket changes owner is not the new owner's to get).
      await waitFor(() => received(t).then((l) => ofTicket(l, other.id)), (l) => l.length >= 1, "the first bot's start");
      expect(await handoff(other.id, { queueId: q })).toMatchObject({ status: "chatbot", queueId: q });
      expect(await ticketOf(t, a.tenantId, other.id)).toMatchObject({ chatbotRef: "queue-bot" });
      const got = await waitFor(() => received(t).then((l) => ofTicket(l, other.id)), (l) => l.length >= 2, "the second start");
      expect(got.map((x) => [x.reason, x.ref])).toEqual([
        ["started", "flow-1"],
        ["started", "queue-bot"],
      ]);
      await settle();
      expect(ofTicket(await received(t), id)).toHaveLength(2);
    } finally {
      await botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "queue", targetId: q, ref: null });
    }
  });

  it("start: a pending ticket without a user becomes the calling bot's, which gets its start; a ticket an agent holds, or a plugin that is no chatbot, is refused", async () => {
    const v = new Visitor(t, a.tenantId, plain);
    const id = (await v.say("Oi")).ticketId;
    const r = await botCall(t, "platform.chatbots.start", { tenantId: a.tenantId, ticketId: id, ref: "closing-survey" });
    expect(r).toMatchObject({ id, status: "chatbot", userId: null });
    expect(await lastLogs(id, 1)).toEqual([["chatBot", null, { pluginId: BOT, ref: "closing-survey", reason: "start" }]]);
    const got = await waitFor(() => received(t).then((l) => ofTicket(l, id)), (l) => l.length >= 1, "the start");
    expect(got[0]).toMatchObject({ reason: "started", ref: "closing-survey", message: null, ticket: { id, status: "chatbot" } });

    const held = (await new Visitor(t, a.tenantId, plain).say("Oi")).ticketId;
    expect((await t.api.put(`/tickets/${held}`, { status: "open" }, a.agent)).status).toBe(200);
    expect((await rejection(botCall(t, "platform.chatbots.start", { tenantId: a.tenantId, ticketId: held, ref: "x" }))).type).toBe("ERR_TICKET_ALREADY_ASSIGNED");
    const byProbe = await rejection(probeCall(t, "platform.chatbots.start", { tenantId: a.tenantId, ticketId: id, ref: "x" }));
    expect(byProbe.type).toBe("ERR_NO_PERMISSION");
    expect((await rejection(probeCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "queue", targetId: a.queueIds[0], ref: "x" }))).type).toBe("ERR_NO_PERMISSION");
  });

  it("another tenant's connection, queue, ticket or user answers its not-found code", async () => {
    const bind = (scope: "connection" | "queue", targetId: number) => rejection(botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope, targetId, ref: "x" }));
    expect((await bind("connection", b.conn)).type).toBe("ERR_CONNECTION_NOT_FOUND");
    expect((await bind("queue", b.queueIds[0])).type).toBe("ERR_QUEUE_NOT_FOUND");
    expect((await rejection(botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "queue", targetId: b.queueIds[0], ref: null }))).type).toBe("ERR_QUEUE_NOT_FOUND");

    const theirs = await botTicket(b.tenantId, b.conn);
    expect((await rejection(botCall(t, "platform.chatbots.start", { tenantId: a.tenantId, ticketId: theirs.id, ref: "x" }))).type).toBe("ERR_TICKET_NOT_FOUND");
    expect((await rejection(handoff(theirs.id, { queueId: a.queueIds[0] }))).type).toBe("ERR_TICKET_NOT_FOUND");
    const mine = await botTicket();
    expect((await rejection(handoff(mine.id, { userId: b.agent.userId }))).type).toBe("ERR_USER_NOT_FOUND");
    expect((await rejection(handoff(mine.id, { queueId: b.queueIds[0] }))).type).toBe("ERR_QUEUE_NOT_FOUND");
    // Nothing moved: both still their bots'.
    expect(await ticketOf(t, a.tenantId, mine.id)).toMatchObject({ status: "chatbot", chatbotPluginId: BOT });
    expect(await ticketOf(t, b.tenantId, theirs.id)).toMatchObject({ status: "chatbot", chatbotRef: "flow-b" });
    // Each tenant sees its own bindings only.
    expect((await botCall(t, "platform.chatbots.bindings", { tenantId: b.tenantId })).map((x) => x.targetId)).toEqual([b.conn]);
  });

  it("a deleted connection or queue takes its binding with it", async () => {
    const c = await t.api.post("/connections", { type: "channel-fixture", name: `Gone ${uid()}`, settings: { greeting: "Olá" } }, a.admin);
    const q = await t.api.post("/queues", { name: `Gone ${uid()}`, color: "#123456" }, a.admin);
    expect([c.status, q.status]).toEqual([201, 201]);
    await botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "connection", targetId: c.body.id, ref: "x" });
    await botCall(t, "platform.chatbots.bind", { tenantId: a.tenantId, scope: "queue", targetId: q.body.id, ref: "y" });
    const targets = async () => (await botCall(t, "platform.chatbots.bindings", { tenantId: a.tenantId })).map((x) => `${x.scope}:${x.targetId}`);
    expect(await targets()).toEqual(expect.arrayContaining([`connection:${c.body.id}`, `queue:${q.body.id}`]));
    expect((await t.api.del(`/connections/${c.body.id}?confirmation=${encodeURIComponent(c.body.name)}`, a.admin)).status).toBe(200);
    expect((await t.api.del(`/queues/${q.body.id}`, a.admin)).status).toBe(200);
    const left = await waitFor(targets, (l) => !l.includes(`connection:${c.body.id}`) && !l.includes(`queue:${q.body.id}`), "the bindings gone");
    expect(left).toContain(`connection:${a.conn}`);
  });
});
