/**
 * The core's events delivered to plugins (plugin-sdk core-api PlatformEvents) on MariaDB and
 * Redis: a fixture plugin in the core's process subscribes with definePlugin's platformEvents
 * and records what it is handed. Events reach it for the tenants it is available to only, once
 * each, in the order things happened; a handler that throws gets the event again; a plugin that
 * is down gets what happened meanwhile when it is back.
 */
import type { Service } from "moleculer";
import type { PlatformEventEnvelope } from "@openatende/plugin-sdk";
import { createTenant, uid, PASSWORD, type Auth, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, fixtureConnection, inboundTicket, socketOf, startWithProbe, waitFor, PROBE, PROBE_SERVICE } from "./platform-setup";

describe("core events to plugins (MariaDB)", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let aConn: number;
  let bConn: number;

  const received = () => t.core.broker.call(`${PROBE_SERVICE}.received`) as Promise<PlatformEventEnvelope[]>;
  const reset = () => t.core.broker.call(`${PROBE_SERVICE}.reset`);
  /** What the probe got, as "event" or "event:detail" strings, waiting until `n` arrived. */
  const got = async (n: number, what: string) => {
    const list = await waitFor(received, (l) => l.length >= n, what);
    return list;
  };

  beforeAll(async () => {
    ({ t, sup } = await startWithProbe());
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, sup, x.tenantId);
    aConn = await fixtureConnection(t, a);
    bConn = await fixtureConnection(t, b);
    // B keeps the channel but switches the probe off.
    expect((await t.api.put(`/plugins/${PROBE}/enabled`, { enabled: false }, b.admin)).status).toBe(200);
  }, 120_000);
  const sockets: Array<{ close(): unknown }> = [];
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });
  beforeEach(async () => {
    await reset();
  });

  it("a conversation of tenant A reaches the plugin in order, once each; tenant B's, where it is off, never", async () => {
    // B first: nothing of it may arrive, even interleaved with A's.
    const bt = await inboundTicket(t, b.tenantId, bConn, `b-${uid()}`);
    const at = await inboundTicket(t, a.tenantId, aConn, `a-${uid()}`);
    const sent = await t.api.post(`/messages/${at.ticketId}`, { body: "Olá" }, a.admin);
    expect(sent.status).toBe(201);
    expect((await t.api.put(`/tickets/${at.ticketId}`, { status: "open" }, a.admin)).status).toBe(200);
    expect((await t.api.put(`/tickets/${at.ticketId}`, { status: "closed" }, a.admin)).status).toBe(200);
    expect((await t.api.put(`/tickets/${bt.ticketId}`, { status: "closed" }, b.admin)).status).toBe(200);

    const list = await got(9, "A's events");
    expect(list.map((e) => e.event)).toEqual([
      "contact.changed",
      "ticket.created",
      "message.received",
      "message.sent",
      "message.acked",
      "ticket.statusChanged",
      "ticket.transferred",
      "ticket.statusChanged",
      "ticket.closed",
    ]);
    expect(list.every((e) => e.tenantId === a.tenantId)).toBe(true);
    expect(new Set(list.map((e) => e.id)).size).toBe(list.length);
    const [contact, created, inbound, out, ack, accepted, transferred, closing, closed] = list as any[];
    expect(contact.data).toEqual({ contactId: at.contactId, change: "created" });
    expect(created.data.ticket).toMatchObject({ id: at.ticketId, status: "pending", contactId: at.contactId });
    expect(inbound.data.message).toMatchObject({ ticketId: at.ticketId, fromMe: false, body: "hi" });
    expect(out.data.message).toMatchObject({ id: sent.body.id, fromMe: true, userId: a.admin.userId });
    expect(ack.data.message).toMatchObject({ id: sent.body.id, status: "sent" });
    expect(accepted.data).toMatchObject({ from: "pending", ticket: { status: "open", userId: a.admin.userId } });
    expect(transferred.data).toMatchObject({ from: { userId: null }, ticket: { userId: a.admin.userId } });
    expect(closing.data).toMatchObject({ from: "open", ticket: { status: "closed" } });
    expect(closed.data.ticket).toMatchObject({ id: at.ticketId, status: "closed", closedAt: expect.any(String) });
    expect(typeof created.at).toBe("number");

    // Nothing more comes (no repeat): a later event is the next one seen.
    const tag = await t.api.post("/tags", { name: `T ${uid()}`, color: "#00ff00" }, a.admin);
    const after = await got(10, "the tag event");
    expect(after.slice(9).map((e) => [e.event, e.data])).toEqual([["tags.changed", { tagId: tag.body.id }]]);
    expect(after).toHaveLength(10);
  });

  it("contacts, tags and users of the tenant are told as contact.changed, tags.changed, user.changed", async () => {
    const c = await t.api.post("/contacts", { name: `Cliente ${uid()}`, number: "5511988887777" }, a.admin);
    expect(c.status).toBe(201);
    expect((await t.api.put(`/contacts/${c.body.id}`, { name: "Cliente renomeado" }, a.admin)).status).toBe(200);
    expect((await t.api.put(`/users/${a.agent.userId}`, { name: "Agente novo" }, a.admin)).status).toBe(200);
    // B's changes stay B's.
    expect((await t.api.post("/contacts", { name: `B ${uid()}`, number: "5511977776666" }, b.admin)).status).toBe(201);
    const list = await got(3, "contact and user events");
    expect(list.map((e) => [e.event, e.data])).toEqual([
      ["contact.changed", { contactId: c.body.id, change: "created" }],
      ["contact.changed", { contactId: c.body.id, change: "updated" }],
      ["user.changed", { userId: a.agent.userId, change: "updated" }],
    ]);
  });

  it("a handler that throws gets the event again (backoff), once it succeeds it counts once, and the next events wait behind it", async () => {
    await t.core.broker.call(`${PROBE_SERVICE}.failNext`, { times: 2 });
    const first = await t.api.post("/tags", { name: `Retry ${uid()}`, color: "#0000ff" }, a.admin);
    const second = await t.api.post("/tags", { name: `After ${uid()}`, color: "#0000ff" }, a.admin);
    const list = await got(2, "the retried event and the next");
    expect(list.map((e) => [e.event, e.data])).toEqual([
      ["tags.changed", { tagId: first.body.id }],
      ["tags.changed", { tagId: second.body.id }],
    ]);
  });

  it("a plugin that is down gets what happened meanwhile when it is back, in order", async () => {
    const svc = t.core.broker.getLocalService({ name: PROBE, version: 1 }) as Service;
    const schema = svc.originalSchema;
    await t.core.broker.destroyService(svc);
    const tags: number[] = [];
    for (const n of [1, 2, 3]) tags.push((await t.api.post("/tags", { name: `Down ${n} ${uid()}`, color: "#123456" }, a.admin)).body.id);
    t.core.broker.createService(schema);
    await t.core.broker.waitForServices([PROBE_SERVICE], 10_000);
    const list = await got(3, "the events of while it was down");
    expect(list.map((e) => [e.event, e.data])).toEqual(tags.map((tagId) => ["tags.changed", { tagId }]));
  });

  /** A new user of the tenant, and `n` of its tickets assigned to them (open). */
  const userWithTickets = async (x: TenantFixture, conn: number, n: number) => {
    const u = await t.api.post("/users", { name: `Leaving ${uid()}`, email: `leaving-${uid()}@t.test`, password: PASSWORD, queues: [x.queueIds[0]] }, x.admin);
    expect(u.status).toBe(201);
    const tickets: number[] = [];
    for (let i = 0; i < n; i++) {
      const { ticketId } = await inboundTicket(t, x.tenantId, conn, `u-${uid()}`);
      expect((await t.api.put(`/tickets/${ticketId}`, { status: "open", userId: u.body.id }, x.admin)).status).toBe(200);
      tickets.push(ticketId);
    }
    return { userId: u.body.id as number, tickets };
  };
  const ofEvent = (list: PlatformEventEnvelope[], event: string) => list.filter((e) => e.event === event) as any[];

  it("a deleted user's tickets handed to another user are each told as ticket.transferred, to the tenant's plugin only", async () => {
    const gone = await userWithTickets(a, aConn, 2);
    const goneB = await userWithTickets(b, bConn, 1);
    await reset();
    // B first: its moves are queued before A's, and none may arrive.
    expect((await t.api.del(`/users/${goneB.userId}?newUserId=${b.agent.userId}`, b.admin)).status).toBe(200);
    expect((await t.api.del(`/users/${gone.userId}?newUserId=${a.agent.userId}`, a.admin)).status).toBe(200);
    // The user's deletion is told after the tickets' moves: once it is here, they are.
    const list = await waitFor(received, (l) => l.some((e) => e.event === "user.changed" && (e.data as any).userId === gone.userId), "the user's deletion");
    expect(list.every((e) => e.tenantId === a.tenantId)).toBe(true);
    const transferred = ofEvent(list, "ticket.transferred");
    expect(transferred.map((e) => e.data.ticket.id).sort()).toEqual([...gone.tickets].sort());
    for (const e of transferred) expect(e.data).toMatchObject({ from: { userId: gone.userId }, ticket: { userId: a.agent.userId, status: "open" } });
    expect(ofEvent(list, "user.changed").map((e) => e.data)).toEqual([{ userId: gone.userId, change: "deleted" }]);
  });

  it("a connection's tickets moved to another are told: ticket.transferred on the new connection, and a ticket that had to close is closed", async () => {
    const c = await t.api.post("/connections", { type: "channel-fixture", name: `Second ${uid()}`, settings: { greeting: "Olá" } }, a.admin);
    expect(c.status).toBe(201);
    const second = c.body.id as number;
    await t.api.post(`/connections/${second}/connect`, {}, a.admin);
    const only = await inboundTicket(t, a.tenantId, second, `m-${uid()}`);
    // The same visitor active on both: the origin's ticket closes on the move (one active per contact and connection).
    const key = `both-${uid()}`;
    const kept = await inboundTicket(t, a.tenantId, aConn, key);
    const clash = await inboundTicket(t, a.tenantId, second, key);
    await reset();
    const r = await t.api.post("/connections/transfer", { fromConnectionId: second, toConnectionId: aConn }, a.admin);
    expect(r.status).toBe(200);
    expect(r.body.moved).toBe(2);
    const list = await waitFor(received, (l) => ofEvent(l, "ticket.transferred").length >= 2, "the moved tickets");
    const transferred = ofEvent(list, "ticket.transferred");
    expect(transferred.map((e) => e.data.ticket.id).sort()).toEqual([only.ticketId, clash.ticketId].sort());
    for (const e of transferred) expect(e.data.ticket.connectionId).toBe(aConn);
    expect(clash.contactId).toBe(kept.contactId);
    expect(ofEvent(list, "ticket.closed").map((e) => e.data.ticket.id)).toEqual([clash.ticketId]);
    expect(transferred.find((e) => e.data.ticket.id === only.ticketId).data.ticket.status).toBe("pending");
    expect(list.every((e) => e.tenantId === a.tenantId)).toBe(true);
  });

  it("contacts merged: the kept contact is told as contact.changed merged with the removed ids, and the merged one's ticket, now the kept contact's, is no transfer", async () => {
    const email = `merge-${uid()}@t.test`;
    const keep = await t.api.post("/contacts", { name: `Keep ${uid()}`, email }, a.admin);
    const dup = await t.api.post("/contacts", { name: `Dup ${uid()}`, email }, a.admin);
    const tk = await t.api.post("/tickets", { contactId: dup.body.id, connectionId: aConn, status: "pending" }, a.admin);
    expect(tk.status).toBe(201);
    await reset();
    expect((await t.api.post("/contacts/delete-duplicates", {}, a.admin)).status).toBe(200);
    const list = await waitFor(received, (l) => l.some((e) => e.event === "contact.changed" && (e.data as any).contactId === keep.body.id), "the merge");
    expect(ofEvent(list, "contact.changed").find((e) => e.data.contactId === keep.body.id).data).toEqual({ contactId: keep.body.id, change: "merged", removedIds: [dup.body.id] });
    expect(ofEvent(list, "ticket.transferred").filter((e) => e.data.ticket.id === tk.body.id)).toEqual([]);
    expect((await t.api.get(`/tickets/${tk.body.id}`, a.admin)).body.contactId).toBe(keep.body.id);
  });

  it("a user deactivated or deleted goes offline, and the tenant's sockets hear it", async () => {
    const sup = await socketOf(t, a.supervisor);
    sockets.push(sup.socket);
    const heard = (id: number) => sup.events.some((e) => e.event === `${a.tenantId}:userStatus` && e.payload.id === id && e.payload.status === "offline");
    const make = async () => (await t.api.post("/users", { name: `Off ${uid()}`, email: `off-${uid()}@t.test`, password: PASSWORD, queues: [a.queueIds[0]] }, a.admin)).body;
    const deactivated = await make();
    await t.api.login(deactivated.email);
    const off = await t.api.put(`/users/${deactivated.id}`, { active: false }, a.admin);
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ active: false, status: "offline" });
    await waitFor(async () => heard(deactivated.id), (v) => v, "the deactivated user's status");
    const deleted = await make();
    await t.api.login(deleted.email);
    expect((await t.api.del(`/users/${deleted.id}?newUserId=${a.agent.userId}`, a.admin)).status).toBe(200);
    await waitFor(async () => heard(deleted.id), (v) => v, "the deleted user's status");
  });
});
