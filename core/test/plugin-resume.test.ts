/**
 * Connections and waiting messages across a restart of the core (in-process channel-telegram,
 * real MariaDB and Redis, the local Bot API server):
 * - a connection that was connected is connected again when the core starts (before, nothing
 *   reconnected it: the bot stayed silent until an admin pressed "connect");
 * - when the plugin's service goes away its connections are shown disconnected and agents'
 *   messages wait in the outbox; a core started later connects the connection and sends them,
 *   once each and in order.
 */
import * as fs from "node:fs";
import { createCore, Core } from "../src/broker";
import { startCore, createTenant, TestCore, TenantFixture, uid, ApiClient, dropDatabase } from "./helpers";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { connectTelegram, LOOPBACK_FAKES, messagesOf, sleep, TelegramConnection, ticketWithMessages, waitFor } from "../../plugins/channel-telegram/test/helpers";

describe("channel connections across core restarts", () => {
  let api: FakeBotApi;
  let t: TestCore;
  let f: TenantFixture;
  let c: TelegramConnection;
  let core: Core;
  const chat = { id: 7_300_000 + Math.floor(Math.random() * 1000), first_name: `Cliente ${uid()}` };
  let ticketId: number;
  let nextMessageId = 800_000;

  const say = (text: string) => api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text }, nextMessageId++) });
  const textsAtTelegram = () => api.sends(c.bot.token, { chatId: chat.id, method: "sendMessage" }).map((x) => String(x.params.text));
  const callsSince = (at: number, method: string) => api.calls.filter((x) => x.token === c.bot.token && x.method === method && x.at >= at).length;

  /** Stops the running core (its database and files stay) and starts another on the same configuration. */
  async function restartCore() {
    await core.stop();
    core = createCore({ config: t.config, logger: false });
    await core.start();
    const gateway = core.broker.getLocalService("api") as unknown as { server: { address(): { port: number } } };
    t.api = new ApiClient(`http://127.0.0.1:${gateway.server.address().port}`);
    // The sessions live in Redis: the users' tokens hold across the restart.
    await waitFor("the API routes", async () => (await t.api.get("/connections", f.admin)).status === 200, 15_000);
  }

  beforeAll(async () => {
    api = await FakeBotApi.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    core = t.core;
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectTelegram(t, f, api, "polling", "Telegram reinício");
    expect(c.status).toBe("connected");
    say("Oi");
    ticketId = (await ticketWithMessages(t, f.admin, chat.first_name, 1)).ticket.id;
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);
  });

  afterAll(async () => {
    await core?.stop();
    await dropDatabase(t.config.database.database!);
    fs.rmSync(t.config.dataDir, { recursive: true, force: true });
    await api?.close();
  });

  it("a connection that was connected is connected again when the core starts, and polls again", async () => {
    const before = Date.now();
    await restartCore();
    await waitFor("connected after the restart", async () => (await t.api.get(`/connections/${c.id}`, f.admin)).body.status === "connected", 15_000);
    // The bot is brought up again (getMe) and polls (getUpdates) without anyone pressing connect. The stored
    // status says "connected" from before the stop, so the resume is waited for, not assumed done.
    await waitFor("the bot brought up again", async () => callsSince(before, "getMe") >= 1, 15_000);
    await waitFor("polling again", async () => callsSince(before, "getUpdates") >= 1);
    say("voltei");
    await waitFor("the message after the restart", async () => (await messagesOf(t, f.agent, ticketId)).some((m) => m.body === "voltei"), 15_000);
  }, 60_000);

  it("messages sent while the plugin is away wait; the next core connects and sends each once, in order", async () => {
    const svc = core.broker.getLocalService({ name: "channel-telegram", version: 1 });
    await core.broker.destroyService(svc);
    await waitFor("shown disconnected", async () => (await t.api.get(`/connections/${c.id}`, f.admin)).body.status === "disconnected", 10_000);
    const ids: number[] = [];
    for (const body of ["w1", "w2", "w3"]) {
      const r = await t.api.post(`/messages/${ticketId}`, { body }, f.agent);
      expect(r.status).toBe(201);
      expect(r.body.status).toBe("pending");
      ids.push(r.body.id);
    }
    expect(((await core.broker.call("outbox.list", { connectionId: c.id })) as Array<{ messageId: number }>).map((w) => w.messageId)).toEqual(ids);
    expect(textsAtTelegram().filter((x) => /^w\d/.test(x))).toEqual([]);
    // Changed while waiting: w2 goes out with its new text, w3 (deleted) never goes out.
    const edited = await t.api.post(`/messagesEdit/${ids[1]}`, { body: "w2 editado" }, f.agent);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: "w2 editado", isEdited: true, status: "pending" });
    const deleted = await t.api.del(`/messages/${ids[2]}`, f.agent);
    expect(deleted.status).toBe(200);
    expect(deleted.body.isDeleted).toBe(true);
    expect(((await core.broker.call("outbox.list", { connectionId: c.id })) as Array<{ messageId: number }>).map((w) => w.messageId)).toEqual(ids.slice(0, 2));

    await restartCore();
    await waitFor("connected after the restart", async () => (await t.api.get(`/connections/${c.id}`, f.admin)).body.status === "connected", 15_000);
    await waitFor("the waiting messages at Telegram", async () => textsAtTelegram().filter((x) => /^w\d/.test(x)).length >= 2, 15_000);
    await sleep(2500);
    expect(textsAtTelegram().filter((x) => /^w\d/.test(x))).toEqual(["w1", "w2 editado"]);
    const mine = (await messagesOf(t, f.agent, ticketId)).filter((m) => ids.includes(m.id));
    expect(mine.map((m) => [m.id, m.status, m.isDeleted])).toEqual([
      [ids[0], "sent", false],
      [ids[1], "sent", false],
      [ids[2], "failed", true],
    ]);
    expect(mine.slice(0, 2).every((m) => m.providerId)).toBe(true);
    expect(mine[2].providerId).toBeFalsy();
    expect(await core.broker.call("outbox.list", { connectionId: c.id })).toEqual([]);
    // Once sent, an edit goes to the channel like any other.
    expect((await t.api.post(`/messagesEdit/${ids[0]}`, { body: "w1 editado" }, f.agent)).status).toBe(200);
    await waitFor("the edit at Telegram", async () => api.sends(c.bot.token, { method: "editMessageText" }).some((x) => x.params.text === "w1 editado"), 10_000);
  }, 60_000);

  it("an edit, a reaction and a deletion of sent messages made while the plugin is away wait, and go out once it is back", async () => {
    const sent = (await messagesOf(t, f.agent, ticketId)).filter((m) => m.fromMe && m.status === "sent" && m.providerId && !m.isDeleted);
    const [first, second] = sent.slice(-2);
    const svc = core.broker.getLocalService({ name: "channel-telegram", version: 1 });
    await core.broker.destroyService(svc);
    await waitFor("shown disconnected", async () => (await t.api.get(`/connections/${c.id}`, f.admin)).body.status === "disconnected", 10_000);
    const before = Date.now();
    // Shown at once on the platform; two edits while away: only the last one goes out.
    expect((await t.api.post(`/messagesEdit/${first.id}`, { body: "primeira versão" }, f.agent)).status).toBe(200);
    const edited = await t.api.post(`/messagesEdit/${first.id}`, { body: "versão final" }, f.agent);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ body: "versão final", isEdited: true, status: "sent" });
    expect((await t.api.post(`/messagesReaction/${first.id}`, { emoji: "👍" }, f.agent)).status).toBe(200);
    expect((await t.api.del(`/messages/${second.id}`, f.agent)).body.isDeleted).toBe(true);
    const waiting = (await core.broker.call("outbox.list", { connectionId: c.id })) as Array<{ messageId: number; op: string }>;
    expect(waiting.map((w) => [w.messageId, w.op]).sort()).toEqual([
      [first.id, "edit"],
      [first.id, "reaction"],
      [second.id, "delete"],
    ].sort());
    expect(callsSince(before, "editMessageText") + callsSince(before, "setMessageReaction") + callsSince(before, "deleteMessage")).toBe(0);

    await restartCore();
    await waitFor("the changes at Telegram", async () => callsSince(before, "deleteMessage") >= 1 && callsSince(before, "setMessageReaction") >= 1 && callsSince(before, "editMessageText") >= 1, 20_000);
    await sleep(2000);
    const edits = api.calls.filter((x) => x.token === c.bot.token && x.method === "editMessageText" && x.at >= before);
    expect(edits.map((x) => x.params.text)).toEqual(["versão final"]);
    expect(callsSince(before, "setMessageReaction")).toBe(1);
    expect(callsSince(before, "deleteMessage")).toBe(1);
    expect(await core.broker.call("outbox.list", { connectionId: c.id })).toEqual([]);
    const now = (await messagesOf(t, f.agent, ticketId)).filter((m) => m.id === first.id || m.id === second.id);
    expect(now.map((m) => [m.id, m.status, !!m.isDeleted])).toEqual([
      [first.id, "sent", false],
      [second.id, "sent", true],
    ]);
  }, 90_000);

  it("an admin's disconnect is kept: the next core does not connect it again", async () => {
    expect((await t.api.post(`/connections/${c.id}/disconnect`, {}, f.admin)).body.status).toBe("disconnected");
    const before = Date.now();
    await restartCore();
    await sleep(2500);
    expect((await t.api.get(`/connections/${c.id}`, f.admin)).body.status).toBe("disconnected");
    expect(callsSince(before, "getMe")).toBe(0);
  }, 60_000);
});
