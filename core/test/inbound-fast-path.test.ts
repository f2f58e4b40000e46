/**
 * The inbound path's shortcuts keep the answers of the long way (channels.inbound): the
 * per-process caches of connections and contact cards follow changes at once, a replay told
 * by the message's unique key stores and emits nothing, and the ticket state an event carries
 * is the state the message's update left. On both engines, real database, real events.
 */
import { QueryTypes } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { startCore, createTenant, TestCore, TenantFixture, DIALECTS, uid } from "./helpers";

type Push = { rooms: string[]; event: string; payload: any };

describe.each(DIALECTS)("inbound fast path on %s", (dialect) => {
  let t: TestCore;
  let f: TenantFixture;
  let conn: number;
  const pushes: Push[] = [];
  const listener: ServiceSchema = {
    name: `inbound-probe-${uid()}`,
    events: { "realtime.push": { group: `inbound-probe-${uid()}`, handler: (ctx: { params: Push }) => void pushes.push(ctx.params) } },
  };

  const inbound = (externalId: string, providerMessageId: string, extra: Record<string, unknown> = {}) =>
    t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: conn, providerMessageId, timestamp: Date.now(), from: { externalId }, body: providerMessageId, ...extra }) as Promise<{
      messageId: number;
      ticketId: number;
      duplicate: boolean;
    }>;
  const settle = () => new Promise((r) => setTimeout(r, 100));
  const lastOf = (event: string) => [...pushes].reverse().find((p) => p.event === `${f.tenantId}:${event}`)?.payload;
  const count = async (sql: string, replacements: unknown[]) => Number(((await t.core.sequelize.query(sql, { replacements, type: QueryTypes.SELECT })) as Array<{ n: number }>)[0].n);

  beforeAll(async () => {
    t = await startCore({ dialect, services: [listener] });
    f = await createTenant(t, { tier: "PLUS" });
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, f.admin);
    expect(c.status).toBe(201);
    conn = c.body.id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a renamed contact's next message carries the new name", async () => {
    const ext = `v-${uid()}`;
    await inbound(ext, `a-${uid()}`, { from: { externalId: ext, name: "Ana" } });
    await inbound(ext, `a-${uid()}`); // its card is cached now
    await settle();
    const contactId = lastOf("appMessage").contact.id;
    expect(lastOf("appMessage").contact.name).toBe("Ana");
    expect((await t.api.put(`/contacts/${contactId}`, { name: "Ana Maria" }, f.admin)).status).toBe(200);
    await inbound(ext, `a-${uid()}`);
    await settle();
    expect(lastOf("appMessage").contact).toMatchObject({ id: contactId, name: "Ana Maria" });
    expect(lastOf("ticketList").payload.ticket.contact.name).toBe("Ana Maria");
  });

  it("after a merge, the removed contact's identity writes to the kept contact", async () => {
    const email = `merge-${uid()}@t.test`;
    const keep = await t.api.post("/contacts", { name: "Keep", email }, f.admin);
    const ext = `m-${uid()}`;
    const first = await inbound(ext, `m-${uid()}`, { from: { externalId: ext, name: "Drop" } });
    await settle();
    const drop = lastOf("appMessage").contact.id as number;
    expect(drop).not.toBe(keep.body.id);
    // The newer contact gets the same e-mail: a duplicate of the older one.
    expect((await t.api.put(`/contacts/${drop}`, { email }, f.admin)).status).toBe(200);
    await inbound(ext, `m-${uid()}`); // its card is cached again
    await settle();
    expect(lastOf("appMessage").contact.id).toBe(drop);
    expect((await t.api.post("/contacts/delete-duplicates", {}, f.admin)).body).toMatchObject({ removed: 1 });
    const after = await inbound(ext, `m-${uid()}`);
    await settle();
    expect(lastOf("appMessage").contact).toMatchObject({ id: keep.body.id, name: "Keep" });
    expect(after.ticketId).toBe(first.ticketId);
    expect(await count("SELECT COUNT(*) AS n FROM messages WHERE tenantId = ? AND id = ? AND contactId = ?", [f.tenantId, after.messageId, keep.body.id])).toBe(1);
  });

  it("a replay of a message of a closed ticket answers the stored one and writes and emits nothing", async () => {
    const ext = `r-${uid()}`;
    const pid = `r-${uid()}`;
    const original = await inbound(ext, pid);
    expect((await t.api.put(`/tickets/${original.ticketId}`, { status: "closed" }, f.admin)).status).toBe(200);
    const next = await inbound(ext, `r-${uid()}`); // a new ticket: known sender, active ticket again
    expect(next.ticketId).not.toBe(original.ticketId);
    await settle();
    const before = { messages: await count("SELECT COUNT(*) AS n FROM messages WHERE tenantId = ?", [f.tenantId]), pushes: pushes.length };
    const unread = await count("SELECT unreadMessages AS n FROM tickets WHERE id = ?", [next.ticketId]);
    const again = await inbound(ext, pid, { body: "outra coisa" });
    await settle();
    expect(again).toEqual({ messageId: original.messageId, ticketId: original.ticketId, duplicate: true });
    expect(await count("SELECT COUNT(*) AS n FROM messages WHERE tenantId = ?", [f.tenantId])).toBe(before.messages);
    expect(await count("SELECT unreadMessages AS n FROM tickets WHERE id = ?", [next.ticketId])).toBe(unread);
    expect(pushes.length).toBe(before.pushes);
  });

  it("events carry the ticket as the message left it: unread count, status, user", async () => {
    const ext = `s-${uid()}`;
    const first = await inbound(ext, `s-${uid()}`);
    await inbound(ext, `s-${uid()}`);
    await settle();
    expect(lastOf("ticketList").payload.ticket).toMatchObject({ id: first.ticketId, status: "pending", userId: null, unreadMessages: 2 });
    // The admin takes it and reads it: the next message's event says so.
    expect((await t.api.put(`/tickets/${first.ticketId}`, { status: "open", userId: f.admin.userId }, f.admin)).status).toBe(200);
    expect((await t.api.get(`/messages/${first.ticketId}`, f.admin)).status).toBe(200);
    await inbound(ext, `s-${uid()}`);
    await settle();
    expect(lastOf("ticketList").payload.ticket).toMatchObject({ id: first.ticketId, status: "open", userId: f.admin.userId, unreadMessages: 1 });
    expect(lastOf("appMessage").ticket).toMatchObject({ id: first.ticketId, status: "open", userId: f.admin.userId });
    // Several at once: every message counted, and the last event's count is the ticket's.
    await Promise.all(Array.from({ length: 10 }, () => inbound(ext, `s-${uid()}`)));
    await settle();
    const counts = pushes.filter((p) => p.event === `${f.tenantId}:ticketList` && p.payload.payload?.ticket?.id === first.ticketId).map((p) => p.payload.payload.ticket.unreadMessages);
    expect(await count("SELECT unreadMessages AS n FROM tickets WHERE id = ?", [first.ticketId])).toBe(11);
    expect(Math.max(...counts)).toBe(11);
  });

  it("a connection's new queue and its deletion are seen by the next message", async () => {
    const c = await t.api.post("/connections", { name: `Other ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, f.admin);
    const id = c.body.id as number;
    const send = (ext: string) =>
      t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: id, providerMessageId: `c-${uid()}`, timestamp: Date.now(), from: { externalId: ext }, body: "x" }) as Promise<{ ticketId: number }>;
    const a = await send(`c-${uid()}`); // the connection is cached now
    expect((await t.api.get(`/tickets/${a.ticketId}`, f.admin)).body.queueId).toBe(f.queueIds[0]);
    expect((await t.api.put(`/connections/${id}`, { queueId: f.queueIds[1] }, f.admin)).status).toBe(200);
    const b = await send(`c-${uid()}`);
    expect((await t.api.get(`/tickets/${b.ticketId}`, f.admin)).body.queueId).toBe(f.queueIds[1]);
    expect((await t.api.del(`/connections/${id}?confirmation=EXCLUIR`, f.admin)).status).toBe(200);
    await expect(send(`c-${uid()}`)).rejects.toMatchObject({ type: "ERR_CONNECTION_NOT_FOUND" });
  });
});
