/**
 * The real Baileys socket (makeWASocket through the plugin's BaileysSocketFactory, with the
 * session's keys in the plugin's tables) against a local WebSocket server instead of
 * WhatsApp: the server accepts and then closes, or accepts and never answers, so the real
 * library produces its real close events (428 "Connection Terminated", 408 "Timed Out") and
 * the session's reconnect policy acts on them.
 */
import { WebSocketServer, type WebSocket } from "ws";
import type { AddressInfo } from "node:net";
import type { StatusEvent } from "@openatende/plugin-sdk";
import { TableAuthStore } from "../../src/stores/auth-state";
import { SharedKeyCache } from "../../src/session/key-cache";
import { DEFAULT_SESSION_OPTIONS, Session } from "../../src/session/session";
import { parseSettings } from "../../src/session/settings";
import { BaileysSocketFactory, type SocketFactory, type WASocketLike } from "../../src/session/socket-factory";
import { systemClock } from "../../src/session/clock";
import { FakeClock, until } from "./support/fake-clock";
import { pluginDatabase, type TestDb } from "./support/db";

let db: TestDb;
let wss: WebSocketServer;
let url: string;
/** What the server does with each new connection. */
let behaviour: (ws: WebSocket, n: number) => void = (ws) => ws.close();
const accepted: WebSocket[] = [];
const warnings: string[] = [];
jest.setTimeout(30_000);

beforeAll(async () => {
  db = await pluginDatabase("sqlite");
  wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise((r) => wss.once("listening", r));
  url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws/chat`;
  wss.on("connection", (ws) => {
    accepted.push(ws);
    behaviour(ws, accepted.length);
  });
});
afterAll(async () => {
  for (const ws of accepted) ws.terminate();
  await new Promise((r) => wss.close(r));
  await db?.drop();
});

function realSession(connectionId: number, connectTimeoutMs: number) {
  const clock = new FakeClock();
  const real = new BaileysSocketFactory({ waWebSocketUrl: url, connectTimeoutMs, logLevel: "warn", log: { warn: (m: unknown) => warnings.push(String(m)) }, clock: systemClock });
  const sockets: WASocketLike[] = [];
  const factory: SocketFactory = {
    create(o) {
      const s = real.create(o);
      sockets.push(s);
      return s;
    },
  };
  const reports: StatusEvent[] = [];
  const ref = { tenantId: 9, connectionId };
  const cache = new SharedKeyCache();
  const parsed = parseSettings({});
  if (!parsed.ok) throw new Error(parsed.detail);
  const session = new Session({
    ref,
    settings: parsed.settings,
    factory,
    auth: new TableAuthStore(db.data.forTenant(9), connectionId),
    keyCache: cache.view(`9:${connectionId}`),
    retryCache: cache.view(`9:${connectionId}:retries`),
    clock,
    random: () => 0.5,
    options: { ...DEFAULT_SESSION_OPTIONS, connectTimeoutMs },
    nodeId: "real",
    lockState: async () => "mine",
    report: (s) => reports.push(s),
    route: () => undefined,
    getMessage: async () => undefined,
    log: { info: () => undefined, warn: () => undefined },
  });
  return { session, clock, reports, sockets };
}

const openOnServer = () => accepted.filter((ws) => ws.readyState === ws.OPEN).length;

it("a server that accepts and closes: Baileys reports 428, the session backs off, then connects again with one socket", async () => {
  behaviour = (ws) => setTimeout(() => ws.close(), 50);
  const before = accepted.length;
  const k = realSession(1, 1500);
  await k.session.start();
  await until("the real 428 close", () => k.reports.some((r) => r.status === "timeout"), 10_000);
  const dropped = k.reports.find((r) => r.status === "timeout")!;
  expect(dropped.detail).toMatch(/^\[reconnecting\] 428 Connection Terminated; attempt 1 in 2 s$/);
  expect(accepted.length - before).toBe(1);
  expect(k.sockets).toHaveLength(1);

  // The second connection is kept open and left unanswered.
  behaviour = () => undefined;
  await k.clock.advance(k.clock.nextIn()!);
  await until("the second connection", () => accepted.length - before === 2, 10_000);
  expect(k.sockets).toHaveLength(2);
  expect(openOnServer()).toBe(1);
  k.session.stop(false);
  await until("the socket closed", () => openOnServer() === 0, 10_000);
});

it("a server that accepts and never answers: Baileys times out (408) and the session backs off again", async () => {
  behaviour = () => undefined;
  const k = realSession(2, 300);
  await k.session.start();
  await until("the real 408", () => k.reports.some((r) => r.status === "timeout"), 10_000);
  expect(k.reports.find((r) => r.status === "timeout")!.detail).toMatch(/^\[reconnecting\] 408 /);
  expect(k.session.snapshot().lastDisconnect).toMatchObject({ code: 408 });
  await until("the server side closed", () => openOnServer() === 0, 10_000);
  k.session.stop(false);
});
