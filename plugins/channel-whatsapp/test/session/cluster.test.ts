/**
 * One owner per session across plugin nodes: two real brokers joined over NATS, both running
 * the plugin with the real Redis locks and one MariaDB database of the plugin's own. Two
 * nodes asked at once run one socket; calls reaching the other node go to the owner; when the
 * owner stops, the other node takes the session over without a QR; a node that loses its
 * lock ends its socket at once.
 */
import IORedis from "ioredis";
import type { StatusResult } from "@openatende/plugin-sdk";
import { settle, until } from "./support/fake-clock";
import { pluginDatabase, type TestDb } from "./support/db";
import { dropNamespace, SERVICE, startNode, token, uniqueNamespace, type TestNode } from "./support/node";

let db: TestDb;
let a: TestNode;
let b: TestNode;
let redis: IORedis;
let namespace: string;
let conn = 70;
jest.setTimeout(60_000);

beforeAll(async () => {
  db = await pluginDatabase("mysql");
  redis = new IORedis("redis://127.0.0.1:6379");
});
afterAll(async () => {
  redis?.disconnect();
  await db?.drop();
});

beforeEach(async () => {
  namespace = uniqueNamespace("cluster");
  a = await startNode({ nodeID: `wa-a-${namespace}`, namespace, db, withCore: true, nats: true });
  b = await startNode({ nodeID: `wa-b-${namespace}`, namespace, db, nats: true });
  await until("both nodes see each other", () => a.broker.registry.getServiceList({ onlyAvailable: true }).filter((s) => s.name === "channel-whatsapp").length === 2);
});
afterEach(async () => {
  await b?.stop().catch(() => undefined);
  await a?.stop().catch(() => undefined);
  await dropNamespace(namespace);
});

const on = (n: TestNode) => ({ nodeID: n.nodeID });
const live = () => [...a.factory.live, ...b.factory.live];
const statuses = (connectionId: number) => a.core!.statuses.filter((s) => s.connectionId === connectionId);

describe("one owner per session", () => {
  it("two nodes asked to connect one connection at once run exactly one socket; both answer its status", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    const params = { ...ref, settings: {}, token: token(3, ref.connectionId) };
    const answers = await Promise.all([a.call<StatusResult>(`${SERVICE}.connect`, params, on(a)), b.call<StatusResult>(`${SERVICE}.connect`, params, on(b))]);
    expect(live()).toHaveLength(1);
    expect(answers.map((x) => x.status)).toEqual(["connecting", "connecting"]);
    // Asked again, many times, on either node: still one.
    await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).call(`${SERVICE}.connect`, params, on(i % 2 ? a : b))));
    expect(live()).toHaveLength(1);
    expect([...a.factory.sockets, ...b.factory.sockets]).toHaveLength(1);
  });

  it("a send or a status reaching the node that does not run the session goes to the one that does", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    await a.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) }, on(a));
    const sock = a.factory.last;
    sock.open();
    await until("connected", () => statuses(ref.connectionId).some((s) => s.status === "connected"));
    expect(await b.call<StatusResult>(`${SERVICE}.status`, ref, on(b))).toMatchObject({ status: "connected" });
    const res = await b.call<{ providerMessageId: string }>(`${SERVICE}.send`, { ...ref, to: { externalId: "5511988887777" }, message: { kind: "text", body: "via b" }, messageId: 31 }, on(b));
    expect(sock.sent.map((s) => s.message.key.id)).toEqual([res.providerMessageId]);
    expect(b.factory.sockets).toHaveLength(0);
  });

  it("when the owner stops, the other node takes the session over at its next sweep and resumes without a QR", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    await a.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) }, on(a));
    const first = a.factory.last;
    first.qr();
    await until("the QR on a", () => statuses(ref.connectionId).some((s) => s.status === "qrcode"));
    first.paired();
    first.close(515);
    await until("the restart on a", () => a.factory.sockets.length === 2);
    a.factory.last.open();
    await until("connected on a", () => statuses(ref.connectionId).some((s) => s.status === "connected"));
    // The core stays (on a's broker): only the plugin's service there stops.
    await a.broker.destroyService(a.broker.getLocalService({ name: "channel-whatsapp", version: 1 })!);
    expect(a.factory.last.ended).toBe(true);
    expect(a.factory.last.loggedOut).toBe(false);
    await b.clock.advance(5000);
    await until("b's socket", () => b.factory.sockets.length === 1, 10_000);
    const creds = b.factory.last.opts.auth.creds;
    expect(creds.registered).toBe(true);
    b.factory.last.open();
    await until("connected on b", () => statuses(ref.connectionId).filter((s) => s.status === "connected").length === 2);
    expect(live()).toHaveLength(1);
    expect(statuses(ref.connectionId).filter((s) => s.status === "qrcode")).toHaveLength(1);
  });

  it("a node that loses its lock ends its socket at once and leaves the session to the holder; a freed session is taken at the next sweep", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    const lockKey = `${namespace}:channel-whatsapp:owner:${ref.tenantId}:${ref.connectionId}`;
    await a.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) }, on(a));
    a.factory.last.open();
    await settle();
    // a's lock expired during a long pause and someone else took it.
    await redis.set(lockKey, "intruder|999", "PX", 60_000);
    await a.clock.advance(10_000);
    await until("a's socket ended", () => a.factory.last.ended);
    await a.clock.advance(10_000);
    expect(a.factory.live).toHaveLength(0);
    expect(a.factory.sockets).toHaveLength(1);
    // a's last sweep may still be running: wait until it has scheduled the next one.
    await until("a's sweep idle", () => a.clock.pending === 1 && a.clock.nextIn() === 5000);
    // The holder went away: the first node to sweep takes the session.
    await redis.del(lockKey);
    await b.clock.advance(5000);
    await until("b's socket", () => b.factory.sockets.length === 1, 10_000);
    expect(live()).toHaveLength(1);
    expect(await redis.get(lockKey)).toMatch(new RegExp(`^${b.nodeID}\\|`));
  });

  it("disconnect asked of the other node stops the session where it runs, and nobody takes it back", async () => {
    const ref = { tenantId: 3, connectionId: ++conn };
    await b.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) }, on(b));
    b.factory.last.open();
    await settle();
    expect(await a.call<StatusResult>(`${SERVICE}.disconnect`, ref, on(a))).toMatchObject({ status: "disconnected" });
    await until("b's socket ended", () => b.factory.last.ended);
    await a.clock.advance(5000);
    await b.clock.advance(5000);
    await settle(20);
    expect(live()).toHaveLength(0);
    expect(a.factory.sockets).toHaveLength(0);
  });
});
