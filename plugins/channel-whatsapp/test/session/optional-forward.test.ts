/**
 * The contract's optional actions across plugin nodes (two real brokers over NATS, the real
 * Redis locks, one MariaDB database of the plugin's): read receipts and a number check asked
 * of the node that does not run the session are done on the owner's live socket.
 */
import { until } from "./support/fake-clock";
import { pluginDatabase, type TestDb } from "./support/db";
import { textMessage } from "./support/fake-socket";
import { dropNamespace, SERVICE, startNode, token, uniqueNamespace, type TestNode } from "./support/node";

let db: TestDb;
let a: TestNode;
let b: TestNode;
const namespace = uniqueNamespace("optional");
jest.setTimeout(60_000);

beforeAll(async () => {
  db = await pluginDatabase("mysql");
  a = await startNode({ nodeID: `wa-a-${namespace}`, namespace, db, withCore: true, nats: true });
  b = await startNode({ nodeID: `wa-b-${namespace}`, namespace, db, nats: true });
  await until("both nodes see each other", () => a.broker.registry.getServiceList({ onlyAvailable: true }).filter((s) => s.name === "channel-whatsapp").length === 2);
});
afterAll(async () => {
  await b?.stop().catch(() => undefined);
  await a?.stop().catch(() => undefined);
  await db?.drop();
  await dropNamespace(namespace);
});

const on = (n: TestNode) => ({ nodeID: n.nodeID });

it("markRead and checkNumber reaching the node that does not run the session go to the one that does", async () => {
  const ref = { tenantId: 3, connectionId: 91 };
  await a.call(`${SERVICE}.connect`, { ...ref, settings: {}, token: token(3, ref.connectionId) }, on(a));
  const sock = a.factory.last;
  sock.open();
  await until("connected", () => a.core!.statuses.some((s) => s.connectionId === ref.connectionId && s.status === "connected"));
  const chat = "5511966665555@s.whatsapp.net";
  sock.upsert([textMessage({ id: "FWD-1", from: chat })], "notify");
  await until("the message reached the core", () => a.core!.inbound.some((m) => m.providerMessageId === "FWD-1"));

  expect(await b.call(`${SERVICE}.markRead`, { ...ref, to: { externalId: "5511966665555" }, providerMessageIds: ["FWD-1"] }, on(b))).toEqual({ sent: 1 });
  expect(sock.readKeys).toEqual([[{ remoteJid: chat, id: "FWD-1", fromMe: false }]]);
  sock.notOnWhatsApp.add("5511966660000");
  expect(await b.call(`${SERVICE}.checkNumber`, { ...ref, number: "5511966660000" }, on(b))).toEqual({ exists: false });
  expect(await b.call(`${SERVICE}.checkNumber`, { ...ref, number: "5511966665555" }, on(b))).toEqual({ exists: true, externalId: "5511966665555" });
  expect(b.factory.sockets).toHaveLength(0);
});
