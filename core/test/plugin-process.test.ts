/**
 * A channel plugin in a process of its own: the core runs in this process with
 * PLUGINS_EXTERNAL=channel-telegram, and channel-telegram runs in a plugin node spawned as a
 * child, joined over NATS (the machine's nats-server) or over Moleculer's TCP transporter on
 * loopback. Against the local Bot API server: a round trip each way, a 1.5 MB photo each way
 * (beyond what one transporter packet carries), and the child killed with SIGKILL in the
 * middle of the traffic: the connection is shown disconnected, the core keeps answering,
 * messages sent meanwhile wait (pending, in the outbox) and after a restart each reaches
 * Telegram once, in order.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { startCore, createTenant, TestCore, TenantFixture, uid, Auth, Res } from "./helpers";
import { startPluginNode, PluginNode } from "./plugin-node";
import { transporterForPluginNodes } from "../src/plugins/external";
import { FakeBotApi } from "../../plugins/channel-telegram/test/fake-bot-api";
import { connectTelegram, LOOPBACK_FAKES, messagesOf, sleep, TelegramConnection, ticketWithMessages, waitFor } from "../../plugins/channel-telegram/test/helpers";

const SERVICE = "v1.channel-telegram";

async function dropRedisKeys(pattern: string) {
  const r = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", pattern, "COUNT", 500);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    r.disconnect();
  }
}

/** A JPEG-looking file of 1.5 MB and a bit: more than a NATS packet (1 MB) or a TCP transporter packet carries. */
const bigPhoto = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(1_600_000), Buffer.from([0xff, 0xd9])]);

describe.each([["nats"], ["tcp"]] as const)("channel-telegram in its own process over %s", (transport) => {
  const namespace = `plugproc-${transport}-${uid()}`;
  /** The plugin node's own data folder: it shares no files with the core. */
  const pluginDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-plugin-node-"));
  let api: FakeBotApi;
  let t: TestCore;
  let f: TenantFixture;
  let node: PluginNode | undefined;
  let c: TelegramConnection;
  let nodeEnv: Record<string, string>;
  const chat = { id: 7_100_000 + Math.floor(Math.random() * 1000), first_name: `Cliente ${transport} ${uid()}` };
  let ticketId: number;
  /** Ids of the customer's messages: far from those the fake server gives the bot's (one chat shares them at Telegram). */
  let nextMessageId = 900_000;

  const startNode = async () => {
    node = startPluginNode(["channel-telegram"], nodeEnv);
    await node.ready;
    await waitFor("the plugin's service on the core's broker", async () => t.core.broker.registry.hasService(SERVICE, undefined as never), 30_000);
  };
  const say = (text: string) => api.pushUpdate(c.bot.token, { message: FakeBotApi.message(chat, { text }, nextMessageId++) });
  const textsAtTelegram = () => api.sends(c.bot.token, { chatId: chat.id, method: "sendMessage" }).map((x) => String(x.params.text));
  const connectionStatus = async (who: Auth) => (await t.api.get(`/connections/${c.id}`, who)).body.status as string;

  beforeAll(async () => {
    api = await FakeBotApi.start();
    t = await startCore({
      env: { NAMESPACE: namespace, PLUGINS_EXTERNAL: "channel-telegram", TRANSPORTER: transport === "nats" ? "nats://127.0.0.1:4222" : "", LOG_LEVEL: "error", ...LOOPBACK_FAKES },
    });
    nodeEnv = {
      TRANSPORTER: transporterForPluginNodes(t.config, t.core.broker),
      NAMESPACE: namespace,
      REDIS_URL: t.config.redisUrl,
      DATA_DIR: pluginDataDir,
      PUBLIC_URL: t.config.publicUrl,
      JWT_SECRET: t.config.jwtSecret,
      DATABASE_URL: "",
      // The node's own reading of the platform's allow-list (the fake Bot API is on loopback).
      ...LOOPBACK_FAKES,
    };
    f = await createTenant(t, { tier: "PLUS" });
    await startNode();
  }, 120_000);

  afterAll(async () => {
    await node?.kill("SIGTERM");
    await t?.stop();
    await api?.close();
    fs.rmSync(pluginDataDir, { recursive: true, force: true });
    await dropRedisKeys(`${namespace}:*`);
  });

  it("the host lists the plugin without running it; the plugin node carries a message round trip", async () => {
    const rec = (await t.core.broker.call("plugins.get", { id: "channel-telegram" })) as { status: string; external?: boolean; service: string };
    expect(rec).toMatchObject({ status: "loaded", external: true, service: SERVICE });
    // Not a service of this process: its endpoint is the plugin node.
    expect(t.core.broker.getLocalService({ name: "channel-telegram", version: 1 })).toBeFalsy();
    const endpoints = (t.core.broker.registry as any).getActionEndpoints(`${SERVICE}.send`).endpoints as Array<{ node: { id: string } }>;
    expect(endpoints.map((e) => e.node.id)).toEqual([await node!.ready]);

    c = await connectTelegram(t, f, api, "polling", `Telegram ${transport}`);
    expect(c.status).toBe("connected");
    say("Olá, tem alguém aí?");
    const got = await ticketWithMessages(t, f.admin, chat.first_name, 1);
    ticketId = got.ticket.id;
    expect(got.messages[0]).toMatchObject({ fromMe: false, body: "Olá, tem alguém aí?" });
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent)).status).toBe(200);

    const r = await t.api.post(`/messages/${ticketId}`, { body: "Oi! Em que posso ajudar?" }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "sent", fromMe: true });
    expect(textsAtTelegram()).toEqual(["Oi! Em que posso ajudar?"]);
    // The node (told no INSTALLATION_PREFIX) asked the core for it: the plugin's sent log is
    // under the installation's prefix, not under the namespace alone.
    const redis = new Redis(t.config.redisUrl);
    try {
      expect((await redis.keys(`${t.core.deps.redisPrefix()}channel-telegram:sent:*`)).length).toBe(1);
      expect(await redis.keys(`${namespace}:channel-telegram:*`)).toEqual([]);
    } finally {
      redis.disconnect();
    }
  }, 60_000);

  it("a 1.5 MB photo crosses the transporter both ways, in chunks, without a shared data folder", async () => {
    // In: Telegram's file, downloaded by the plugin node and streamed into the core's storage.
    const inPhoto = bigPhoto();
    const stored = api.addFile(c.bot.token, inPhoto, { path: "photos/grande.jpg" });
    api.pushUpdate(c.bot.token, {
      message: FakeBotApi.message(chat, { photo: [{ file_id: stored.file_id, file_unique_id: stored.file_unique_id, file_size: stored.file_size, width: 2000, height: 1500 }], caption: "foto grande" }, nextMessageId++),
    });
    const got = await waitFor("the photo in the ticket", async () => (await messagesOf(t, f.agent, ticketId)).find((m) => m.body === "foto grande"), 30_000);
    expect(got).toMatchObject({ mediaType: "image", media: { mimeType: "image/jpeg", size: inPhoto.length } });
    const res = await fetch(t.url + got.media!.url, { headers: { authorization: `Bearer ${f.agent.token}`, "x-session-id": f.agent.sessionId } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(inPhoto)).toBe(true);
    // Nothing of it was written to the plugin node's data folder.
    expect(fs.readdirSync(pluginDataDir)).toEqual([]);

    // Out: the agent's photo, stored by the core, streamed to the plugin node, uploaded to Telegram.
    const outPhoto = bigPhoto();
    const r = await t.api.post(`/messages/${ticketId}`, { body: "segue a foto", medias: [{ fileName: "catalogo.jpg", mimeType: "image/jpeg", data: outPhoto.toString("base64") }] }, f.agent);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: "sent", mediaType: "image" });
    const photo = api.sends(c.bot.token, { chatId: chat.id, method: "sendPhoto" }).at(-1)!;
    expect(photo.params.caption).toBe("segue a foto");
    expect(photo.files.photo.filename).toBe("catalogo.jpg");
    expect(photo.files.photo.data.equals(outPhoto)).toBe(true);
  }, 60_000);

  it("killed mid-traffic: disconnected, the core keeps serving, sends wait; after a restart each is delivered once, in order", async () => {
    const before = textsAtTelegram().length;
    // Several sends in flight: Telegram's one-message-a-second per chat keeps the later ones
    // queued in the plugin node when it dies. (A moment apart, so that they are made in order.)
    const inFlight: Array<Promise<Res>> = [];
    for (const body of ["k1", "k2", "k3"]) {
      inFlight.push(t.api.post(`/messages/${ticketId}`, { body }, f.agent));
      await sleep(100);
    }
    await waitFor("k1 at Telegram", async () => textsAtTelegram().includes("k1"));
    await sleep(300);
    await node!.kill("SIGKILL");
    const killedAt = Date.now();

    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(answers[0].body.status).toBe("sent");
    // The two the plugin node never sent wait; none failed.
    expect(answers.slice(1).map((a) => a.body.status)).toEqual(["pending", "pending"]);

    await waitFor("the connection shown disconnected", async () => (await connectionStatus(f.admin)) === "disconnected", 15_000);
    const detectedMs = Date.now() - killedAt;

    // The core keeps serving while the plugin is away.
    const t0 = Date.now();
    const [tickets, connections, health] = await Promise.all([t.api.get("/tickets?status=open&showAll=true", f.admin), t.api.get("/connections", f.admin), t.api.get("/health")]);
    expect([tickets.status, connections.status, health.status]).toEqual([200, 200, 200]);
    expect(Date.now() - t0).toBeLessThan(2000);

    // Sent while it is down: pending at once, not failed.
    const whileDown: number[] = [];
    for (const body of ["k4", "k5"]) {
      const r = await t.api.post(`/messages/${ticketId}`, { body }, f.agent);
      expect(r.status).toBe(201);
      expect(r.body.status).toBe("pending");
      whileDown.push(r.body.id);
    }
    const waiting = (await t.core.broker.call("outbox.list", { connectionId: c.id })) as Array<{ messageId: number }>;
    expect(waiting.map((w) => w.messageId)).toEqual([answers[1].body.id, answers[2].body.id, ...whileDown]);
    // A customer writes meanwhile: Telegram keeps it until the bot polls again.
    say("ainda estou aqui");
    await sleep(500);
    expect(textsAtTelegram().slice(before)).toEqual(["k1"]);

    await startNode();
    await waitFor("the connection connected again", async () => (await connectionStatus(f.admin)) === "connected", 30_000);
    await waitFor("every waiting message at Telegram", async () => textsAtTelegram().slice(before).length >= 5, 30_000);
    // Long enough for a duplicate to show up, were one on its way.
    await sleep(2500);
    expect(textsAtTelegram().slice(before)).toEqual(["k1", "k2", "k3", "k4", "k5"]);
    expect(await t.core.broker.call("outbox.list", { connectionId: c.id })).toEqual([]);
    const mine = (await messagesOf(t, f.agent, ticketId)).filter((m) => /^k\d$/.test(m.body ?? ""));
    expect(mine.map((m) => [m.body, m.status])).toEqual([
      ["k1", "sent"],
      ["k2", "sent"],
      ["k3", "sent"],
      ["k4", "sent"],
      ["k5", "sent"],
    ]);
    // Each one's provider id is the message Telegram took.
    const calls = api.sends(c.bot.token, { chatId: chat.id, method: "sendMessage" });
    for (const m of mine) {
      const call = calls.find((x) => x.params.text === m.body)!;
      expect(m.providerId).toBe(`${chat.id}:${(call.result as { message_id: number }).message_id}`);
    }
    // The customer's message of the outage came in once the bot polled again.
    await waitFor("the message written during the outage", async () => (await messagesOf(t, f.agent, ticketId)).some((m) => m.body === "ainda estou aqui"), 15_000);

    // The core handing k1 over again (an answer it never heard) does not send it twice: the
    // restarted node remembers it by message id.
    const k1 = mine[0];
    const again = (await t.core.broker.call(`${SERVICE}.send`, { tenantId: f.tenantId, connectionId: c.id, to: { externalId: String(chat.id) }, message: { kind: "text", body: "k1" }, messageId: k1.id })) as { providerMessageId: string };
    expect(again.providerMessageId).toBe(k1.providerId);
    expect(textsAtTelegram().filter((x) => x === "k1")).toHaveLength(1);
    // Over NATS the node is found gone by missed pings, over TCP by its closed socket.
    expect(detectedMs).toBeLessThan(transport === "nats" ? 15_000 : 8000);
  }, 120_000);
});
