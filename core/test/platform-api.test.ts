/**
 * The core API of plugins (the `platform` service, plugin-sdk core-api/contract.ts) on
 * MariaDB, called by a fixture plugin loaded in the core's process through the SDK's client:
 * each action answers its tenant's data in the contract's shapes; a tenant where the plugin is
 * switched off or below its tier is refused with the host's codes; another tenant's ids are
 * not found; a call that names no plugin is refused; ticket changes and sends go the agents'
 * way (log, realtime) with the plugin as actor.
 */
import type { PlatformContact, PlatformTicket } from "@openatende/plugin-sdk";
import { createTenant, uid, type TestCore, type TenantFixture, type Auth } from "./helpers";
import { allowPlugins, fixtureConnection, inboundTicket, probeCall, rejection, socketOf, startWithProbe, waitFor, PROBE, PROBE_SERVICE } from "./platform-setup";

describe("core API of plugins (MariaDB)", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let free: TenantFixture;
  let aTicket: { ticketId: number; contactId: number };
  let aOther: { ticketId: number; contactId: number };
  let bTicket: { ticketId: number; contactId: number };
  let tagId: number;

  beforeAll(async () => {
    ({ t, sup } = await startWithProbe());
    [a, b, free] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" }), createTenant(t)]);
    for (const x of [a, b, free]) await allowPlugins(t, sup, x.tenantId);
    const aConn = await fixtureConnection(t, a);
    const bConn = await fixtureConnection(t, b);
    aTicket = await inboundTicket(t, a.tenantId, aConn, `a1-${uid()}`);
    aOther = await inboundTicket(t, a.tenantId, aConn, `a2-${uid()}`);
    bTicket = await inboundTicket(t, b.tenantId, bConn, `b1-${uid()}`);
    const tag = await t.api.post("/tags", { name: `VIP ${uid()}`, color: "#ff0000" }, a.admin);
    expect(tag.status).toBe(201);
    tagId = tag.body.id;
    expect((await t.api.put(`/contacts/${aTicket.contactId}/tags`, { tagIds: [tagId] }, a.admin)).status).toBe(200);
    // B's admin switches the probe off.
    expect((await t.api.put(`/plugins/${PROBE}/enabled`, { enabled: false }, b.admin)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("contacts: get, list by tag and search, update (name and e-mail)", async () => {
    const c = await probeCall(t, "platform.contacts.get", { tenantId: a.tenantId, id: aTicket.contactId });
    expect(c).toMatchObject({ id: aTicket.contactId, isGroup: false, tags: [{ id: tagId, color: "#ff0000" }] });
    expect(typeof c.createdAt).toBe("string");
    const tagged = await probeCall(t, "platform.contacts.list", { tenantId: a.tenantId, tagIds: [tagId] });
    expect(tagged).toEqual({ rows: [expect.objectContaining({ id: aTicket.contactId })], count: 1, hasMore: false });
    const all = await probeCall(t, "platform.contacts.list", { tenantId: a.tenantId, limit: 1 });
    expect(all).toMatchObject({ count: 2, hasMore: true });
    expect(all.rows).toHaveLength(1);
    const u = await probeCall(t, "platform.contacts.update", { tenantId: a.tenantId, id: aTicket.contactId, name: "Maria Probe", email: "maria@probe.test" });
    expect(u).toMatchObject({ id: aTicket.contactId, name: "Maria Probe", email: "maria@probe.test" });
    const found = await probeCall(t, "platform.contacts.list", { tenantId: a.tenantId, search: "maria probe" });
    expect(found.rows.map((r: PlatformContact) => r.id)).toEqual([aTicket.contactId]);
    // Addresses on a channel are a channel's to ask (WhatsApp's group actions): a module is refused.
    expect((await rejection(probeCall(t, "platform.contacts.addresses", { tenantId: a.tenantId, ids: [aTicket.contactId] }))).type).toBe("ERR_NO_PERMISSION");
  });

  it("tickets: get with contact and tags, list by status, tag, ids and search", async () => {
    const tk = await probeCall(t, "platform.tickets.get", { tenantId: a.tenantId, id: aTicket.ticketId });
    expect(tk).toMatchObject({ id: aTicket.ticketId, status: "pending", contactId: aTicket.contactId, contact: { id: aTicket.contactId }, tags: [{ id: tagId }] });
    const page = await probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, status: ["pending"] });
    expect(page.count).toBe(2);
    expect(page.rows.map((r: PlatformTicket) => r.id).sort()).toEqual([aTicket.ticketId, aOther.ticketId].sort());
    expect((await probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, tagIds: [tagId] })).rows.map((r: PlatformTicket) => r.id)).toEqual([aTicket.ticketId]);
    expect((await probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, ids: [aOther.ticketId, bTicket.ticketId] })).rows.map((r: PlatformTicket) => r.id)).toEqual([aOther.ticketId]);
    expect((await probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, status: ["closed"] })).count).toBe(0);
    const protocol = tk.protocol!;
    expect((await probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, search: protocol })).rows.map((r: PlatformTicket) => r.id)).toEqual([aTicket.ticketId]);
  });

  it("tickets.after reads every ticket of the tenant by id in keyset pages, none skipped or twice, another tenant's never", async () => {
    const all = [aTicket.ticketId, aOther.ticketId].sort((x, y) => x - y);
    const first = await probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, limit: 1, withTotal: true });
    expect(first).toMatchObject({ rows: [{ id: all[0], contact: { id: expect.any(Number) } }], nextAfterId: all[0], total: 2 });
    const second = await probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, afterId: first.nextAfterId!, limit: 1 });
    expect(second.rows.map((r: PlatformTicket) => r.id)).toEqual([all[1]]);
    expect(second.total).toBeUndefined();
    const last = await probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, afterId: second.nextAfterId!, limit: 1 });
    expect(last).toEqual({ rows: [], nextAfterId: null });
    // One page holding them all ends the read; a status filter narrows it (and its total).
    expect(await probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, limit: 10 })).toMatchObject({ nextAfterId: null });
    expect((await probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, status: ["closed"], withTotal: true }))).toEqual({ rows: [], nextAfterId: null, total: 0 });
    // Tenant b's ticket (its id may sit between a's) is never in a's pages.
    expect((await probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, afterId: 0, limit: 1000 })).rows.map((r: PlatformTicket) => r.id)).not.toContain(bTicket.ticketId);
    expect((await rejection(probeCall(t, "platform.tickets.after", { tenantId: a.tenantId, limit: 1001 }))).type).toBe("VALIDATION_ERROR");
    // Contacts the same way, whole as contacts.get answers them.
    const contacts = await probeCall(t, "platform.contacts.after", { tenantId: a.tenantId, limit: 1, withTotal: true });
    expect(contacts.total).toBe((await probeCall(t, "platform.contacts.list", { tenantId: a.tenantId })).count);
    expect(contacts.rows[0]).toEqual(await probeCall(t, "platform.contacts.get", { tenantId: a.tenantId, id: contacts.rows[0].id }));
    const read: number[] = [];
    for (let after: number | null = 0; after !== null; ) {
      const page: { rows: Array<{ id: number }>; nextAfterId: number | null } = await probeCall(t, "platform.contacts.after", { tenantId: a.tenantId, afterId: after, limit: 1 });
      read.push(...page.rows.map((c) => c.id));
      after = page.nextAfterId;
    }
    expect(read).toEqual([...read].sort((x, y) => x - y));
    expect(read).toHaveLength(contacts.total!);
    expect(read).not.toContain(bTicket.contactId);
  });

  it("tickets.update goes the agents' way: log with the plugin as actor, realtime to the tenant's rooms", async () => {
    const { socket, events } = await socketOf(t, a.admin);
    try {
      const opened = await probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: aOther.ticketId, status: "open", userId: a.admin.userId });
      expect(opened).toMatchObject({ status: "open", userId: a.admin.userId });
      const moved = await probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: aOther.ticketId, queueId: a.queueIds[1] });
      expect(moved).toMatchObject({ status: "open", userId: a.admin.userId, queueId: a.queueIds[1] });
      const back = await probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: aOther.ticketId, userId: null });
      expect(back).toMatchObject({ status: "pending", userId: null });
      const closed = await probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: aOther.ticketId, status: "closed" });
      expect(closed).toMatchObject({ status: "closed", closedAt: expect.any(String) });
      await waitFor(async () => events.filter((e) => e.event === `${a.tenantId}:ticketList`).length, (n) => n >= 4, "ticket updates on the socket");
      const logs = (await t.api.get(`/tickets/${aOther.ticketId}/logs`, a.admin)).body as Array<{ type: string; userId: number | null; data: any }>;
      expect(logs.find((l) => l.type === "transfered")).toMatchObject({ userId: null, data: expect.objectContaining({ plugin: PROBE }) });
      expect(logs.find((l) => l.type === "closed")).toMatchObject({ userId: null });
      expect((await rejection(probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: aOther.ticketId, status: "pending" }))).type).toBe("ERR_VALIDATION");
      expect((await rejection(probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: aTicket.ticketId, userId: b.admin.userId }))).type).toBe("ERR_USER_NOT_FOUND");
    } finally {
      socket.disconnect();
    }
  });

  it("messages: a ticket's page, newest first; a send goes through the connection with no user", async () => {
    const page = await probeCall(t, "platform.messages.list", { tenantId: a.tenantId, ticketId: aTicket.ticketId });
    expect(page).toMatchObject({ count: 1, hasMore: false, rows: [{ ticketId: aTicket.ticketId, fromMe: false, body: "hi", userId: null }] });
    const sent = await probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId: aTicket.ticketId, body: "Olá da sonda" });
    expect(sent).toMatchObject({ ticketId: aTicket.ticketId, fromMe: true, userId: null, body: "Olá da sonda", status: "sent" });
    const after = await probeCall(t, "platform.messages.list", { tenantId: a.tenantId, ticketId: aTicket.ticketId, limit: 1 });
    expect(after).toMatchObject({ count: 2, hasMore: true, rows: [{ id: sent.id }] });
    // One message by id, its status as it is now.
    expect(await probeCall(t, "platform.messages.get", { tenantId: a.tenantId, id: sent.id })).toEqual({ ...sent, createdAt: expect.any(String) });
    expect((await rejection(probeCall(t, "platform.messages.get", { tenantId: a.tenantId, id: 987654321 }))).type).toBe("ERR_MESSAGE_NOT_FOUND");
    expect((await rejection(probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId: aOther.ticketId, body: "closed" }))).type).toBe("ERR_TICKET_NOT_FOUND");
    // Called while handling an agent's request (a plugin route): still the plugin's message, and the agent stays the request's.
    const meta: Record<string, unknown> = { user: { id: a.admin.userId, tenantId: a.tenantId, profile: "admin", isMaster: false, isSupport: false, sessionId: "s" } };
    const viaAgent = await t.core.broker.call(`${PROBE_SERVICE}.api`, { action: "platform.messages.send", params: { tenantId: a.tenantId, ticketId: aTicket.ticketId, body: "pela rota" } }, { meta });
    expect(viaAgent).toMatchObject({ userId: null, body: "pela rota" });
    expect(meta.user).toMatchObject({ id: a.admin.userId });
  });

  it("queues, users, tags and the readable settings of the tenant", async () => {
    const queues = await probeCall(t, "platform.queues.list", { tenantId: a.tenantId });
    expect(queues.map((q) => q.id).sort()).toEqual([...a.queueIds].sort());
    const users = await probeCall(t, "platform.users.list", { tenantId: a.tenantId });
    expect(users.map((u) => u.id).sort()).toEqual([a.admin.userId, a.supervisor.userId, a.agent.userId].sort());
    expect(users.find((u) => u.id === a.admin.userId)).toEqual({ id: a.admin.userId, name: "Admin", profile: "admin", online: expect.any(Boolean), queueIds: [...a.queueIds].sort((x, y) => x - y) });
    expect(await probeCall(t, "platform.users.get", { tenantId: a.tenantId, id: a.agent.userId })).toMatchObject({ id: a.agent.userId, profile: "user", queueIds: [a.queueIds[0]] });
    expect((await probeCall(t, "platform.tags.list", { tenantId: a.tenantId })).map((x) => x.id)).toEqual([tagId]);
    const settings = await probeCall(t, "platform.settings.get", { tenantId: a.tenantId });
    expect(settings).toMatchObject({ ticketsOwnerOnly: false, noReopenMinutes: 0 });
    expect(Object.keys(settings).every((k) => !/token|password|key/i.test(k))).toBe(true);
  });

  it("notes: ticket and contact notes in one list, newest first, filtered by kind, tag and text", async () => {
    expect((await t.api.post(`/tickets/${aTicket.ticketId}/notes`, { body: "nota do atendimento" }, a.admin)).status).toBe(201);
    expect((await t.api.post(`/contacts/${aTicket.contactId}/notes`, { title: "Cliente", description: "nota do contato" }, a.admin)).status).toBe(201);
    const all = await probeCall(t, "platform.notes.list", { tenantId: a.tenantId });
    expect(all.count).toBe(2);
    expect(all.rows.map((n) => n.kind).sort()).toEqual(["contact", "ticket"]);
    expect(all.rows.find((n) => n.kind === "ticket")).toMatchObject({ targetId: aTicket.ticketId, contactId: aTicket.contactId, contactName: "Maria Probe", userId: a.admin.userId, userName: "Admin", title: null, body: "nota do atendimento" });
    expect(all.rows.find((n) => n.kind === "contact")).toMatchObject({ targetId: aTicket.contactId, contactName: "Maria Probe", title: "Cliente", body: "nota do contato" });
    expect(new Date(all.rows[0].createdAt).getTime()).toBeGreaterThanOrEqual(new Date(all.rows[1].createdAt).getTime());
    expect((await probeCall(t, "platform.notes.list", { tenantId: a.tenantId, kinds: ["contact"] })).rows.map((n) => n.kind)).toEqual(["contact"]);
    expect((await probeCall(t, "platform.notes.list", { tenantId: a.tenantId, tagIds: [tagId], search: "atendimento" })).rows.map((n) => n.kind)).toEqual(["ticket"]);
    const page2 = await probeCall(t, "platform.notes.list", { tenantId: a.tenantId, page: 2, limit: 1 });
    expect(page2).toMatchObject({ count: 2, hasMore: false });
    expect(page2.rows[0].id).toBe(all.rows[1].id);
  });

  it("notes by contact and by ticket; another tenant's contact or ticket selects nothing", async () => {
    expect((await t.api.post(`/tickets/${aOther.ticketId}/notes`, { body: "nota do outro" }, a.admin)).status).toBe(201);
    expect((await t.api.post(`/contacts/${aOther.contactId}/notes`, { title: "Outro", description: "contato do outro" }, a.admin)).status).toBe(201);
    expect((await t.api.post(`/tickets/${bTicket.ticketId}/notes`, { body: "nota de B" }, b.admin)).status).toBe(201);
    const bodies = async (q: Record<string, unknown>) => (await probeCall(t, "platform.notes.list", { tenantId: a.tenantId, ...q })).rows.map((n) => n.body).sort();
    expect(await bodies({ contactIds: [aTicket.contactId] })).toEqual(["nota do atendimento", "nota do contato"]);
    expect(await bodies({ contactIds: [aOther.contactId] })).toEqual(["contato do outro", "nota do outro"]);
    expect(await bodies({ contactIds: [aTicket.contactId, aOther.contactId], kinds: ["ticket"] })).toEqual(["nota do atendimento", "nota do outro"]);
    // With a tag, both filters must match: the tagged contact is aTicket's only.
    expect(await bodies({ contactIds: [aOther.contactId], tagIds: [tagId] })).toEqual([]);
    expect(await bodies({ contactIds: [aTicket.contactId], tagIds: [tagId], kinds: ["contact"] })).toEqual(["nota do contato"]);
    expect(await probeCall(t, "platform.notes.list", { tenantId: a.tenantId, contactIds: [bTicket.contactId] })).toEqual({ rows: [], count: 0, hasMore: false });
    // A ticket filter lists that ticket's notes only (contact notes belong to no ticket).
    expect(await bodies({ ticketIds: [aOther.ticketId] })).toEqual(["nota do outro"]);
    expect(await bodies({ ticketIds: [bTicket.ticketId] })).toEqual([]);
    expect(await bodies({ ticketIds: [aOther.ticketId], kinds: ["contact"] })).toEqual([]);
  });

  it("realtime.push reaches the tenant's sockets as plugin:<id>:<event>, and only them", async () => {
    const mine = await socketOf(t, a.agent);
    const other = await socketOf(t, b.admin);
    try {
      expect(await probeCall(t, "platform.realtime.push", { tenantId: a.tenantId, event: "card.moved", payload: { card: 1 } })).toEqual({ delivered: true });
      await probeCall(t, "platform.realtime.push", { tenantId: a.tenantId, event: "only.admins", payload: 2, to: { admins: true } });
      await probeCall(t, "platform.realtime.push", { tenantId: a.tenantId, event: "only.agent", payload: 3, to: { users: [a.agent.userId] } });
      const got = await waitFor(async () => mine.events.filter((e) => e.event.startsWith(`plugin:${PROBE}:`)), (l) => l.length >= 2, "plugin pushes");
      expect(got).toEqual([
        { event: `plugin:${PROBE}:card.moved`, payload: { card: 1 } },
        { event: `plugin:${PROBE}:only.agent`, payload: 3 },
      ]);
      expect(other.events.some((e) => e.event.startsWith("plugin:"))).toBe(false);
    } finally {
      mine.socket.disconnect();
      other.socket.disconnect();
    }
  });

  it("another tenant's ids answer their not-found codes", async () => {
    const T = a.tenantId;
    const code = async (p: Promise<unknown>) => (await rejection(p)).type;
    expect(await code(probeCall(t, "platform.tickets.get", { tenantId: T, id: bTicket.ticketId }))).toBe("ERR_TICKET_NOT_FOUND");
    expect(await code(probeCall(t, "platform.tickets.update", { tenantId: T, id: bTicket.ticketId, status: "closed" }))).toBe("ERR_TICKET_NOT_FOUND");
    expect(await code(probeCall(t, "platform.messages.list", { tenantId: T, ticketId: bTicket.ticketId }))).toBe("ERR_TICKET_NOT_FOUND");
    expect(await code(probeCall(t, "platform.messages.send", { tenantId: T, ticketId: bTicket.ticketId, body: "x" }))).toBe("ERR_TICKET_NOT_FOUND");
    const bMessage = (await t.api.get(`/messages/${bTicket.ticketId}`, b.admin)).body.messages[0];
    expect(await code(probeCall(t, "platform.messages.get", { tenantId: T, id: bMessage.id }))).toBe("ERR_MESSAGE_NOT_FOUND");
    expect(await code(probeCall(t, "platform.contacts.get", { tenantId: T, id: bTicket.contactId }))).toBe("ERR_CONTACT_NOT_FOUND");
    expect(await code(probeCall(t, "platform.contacts.update", { tenantId: T, id: bTicket.contactId, name: "x" }))).toBe("ERR_CONTACT_NOT_FOUND");
    expect(await code(probeCall(t, "platform.users.get", { tenantId: T, id: b.admin.userId }))).toBe("ERR_USER_NOT_FOUND");
    expect((await probeCall(t, "platform.tickets.list", { tenantId: T, ids: [bTicket.ticketId] })).count).toBe(0);
    expect((await probeCall(t, "platform.contacts.list", { tenantId: T, ids: [bTicket.contactId] })).count).toBe(0);
  });

  it("a tenant where the plugin is switched off, below its tier, or not allowed is refused with the host's codes", async () => {
    const off = await rejection(probeCall(t, "platform.tickets.get", { tenantId: b.tenantId, id: bTicket.ticketId }));
    expect(off).toMatchObject({ type: "ERR_PLUGIN_DISABLED", code: 403 });
    const tier = await rejection(probeCall(t, "platform.queues.list", { tenantId: free.tenantId }));
    expect(tier).toMatchObject({ type: "ERR_LICENSE_TIER_REQUIRED", data: expect.objectContaining({ requiredTier: "PLUS", currentTier: "FREE" }) });
    const stranger = await createTenant(t, { tier: "PLUS" });
    expect((await rejection(probeCall(t, "platform.tags.list", { tenantId: stranger.tenantId }))).type).toBe("ERR_PLUGIN_NOT_ALLOWED");
    // Switched on again: answered at once (plugins.changed drops the cached answer).
    expect((await t.api.put(`/plugins/${PROBE}/enabled`, { enabled: true }, b.admin)).status).toBe(200);
    const got = await waitFor(() => probeCall(t, "platform.tickets.get", { tenantId: b.tenantId, id: bTicket.ticketId }).catch((e) => e), (r) => r?.id === bTicket.ticketId, "the switch");
    expect(got.id).toBe(bTicket.ticketId);
    expect((await t.api.put(`/plugins/${PROBE}/enabled`, { enabled: false }, b.admin)).status).toBe(200);
    await waitFor(() => rejection(probeCall(t, "platform.tags.list", { tenantId: b.tenantId })).catch(() => ({ type: "answered" })), (e) => e.type === "ERR_PLUGIN_DISABLED", "off again");
  });

  it("a call that names no plugin is refused; params are validated (limit at most 100)", async () => {
    expect((await rejection(t.core.broker.call("platform.tags.list", { tenantId: a.tenantId }))).type).toBe("ERR_NO_PERMISSION");
    const bad = await rejection(probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, limit: 101 }));
    expect(bad.type).toBe("VALIDATION_ERROR");
    expect((await rejection(probeCall(t, "platform.tickets.get", { tenantId: a.tenantId } as never))).type).toBe("VALIDATION_ERROR");
    // Not a route: the gateway does not serve the platform service.
    expect((await t.api.get(`/platform/tags?tenantId=${a.tenantId}`, a.admin)).status).toBe(404);
  });
});
