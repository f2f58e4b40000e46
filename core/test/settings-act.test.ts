/**
 * Each general setting of spec §3 and visibility setting of spec §6 acts where it applies
 * (issue 14 item 6: none stored and ignored). The ones other tests already prove are named
 * there: noReopenMinutes (tickets.test.ts "is blocked inside noReopenMinutes"),
 * ticketsOwnerOnly and botAndUnassignedAdminOnly (tickets.test.ts, realtime.test.ts,
 * tickets-visibility.test.ts), every protocol format (tickets.test.ts "follows the protocol
 * setting"). Here: the hidden phone and e-mail everywhere an agent reads a contact, the list
 * limit and the page size, groups refused to chosen users, delivery to the wallet's owner,
 * and the protocol format a new ticket takes. Real MariaDB, Redis and socket.io.
 */
import type { ServiceSchema } from "moleculer";
import { io as ioClient, type Socket } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture, Auth, Res, PASSWORD, uid } from "./helpers";

type Push = { rooms: string[]; event: string; payload: any };
type TicketView = { id: number; status: string; userId: number | null; queueId: number | null; contactId: number; protocol: string | null; createdAt: string; contact?: { name: string; number: string | null } };

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

describe("general settings act (MariaDB)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let conn: number;
  const pushes: Push[] = [];
  const probe: ServiceSchema = {
    name: `settings-probe-${uid()}`,
    events: { "realtime.push": { group: `settings-probe-${uid()}`, handler: (ctx: { params: Push }) => void pushes.push(ctx.params) } },
  };

  const set = async (key: string, value: unknown) => expect((await t.api.put(`/settings/${key}`, { value }, f.admin)).status).toBe(200);
  const inbound = async (o: { ext?: string; isGroup?: boolean; body?: string } = {}) => {
    const ext = o.ext ?? `ext-${uid()}`;
    const r = (await t.core.broker.call("channels.inbound", {
      tenantId: f.tenantId,
      connectionId: conn,
      providerMessageId: `p-${uid()}`,
      timestamp: Date.now(),
      from: { externalId: ext, name: `Cliente ${ext}` },
      body: o.body ?? "olá",
      isGroup: o.isGroup,
    })) as { ticketId: number };
    return { ...r, ext };
  };
  const addUser = async (profile: "user" | "admin", queues: number[]): Promise<Auth & { id: number }> => {
    const email = `u-${uid()}@t.test`;
    const u = (await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: `User ${email}`, email, password: PASSWORD, profile, queues })) as { id: number };
    return { ...(await t.api.login(email)), id: u.id };
  };
  const listIds = async (who: Auth, query: string) => {
    const r = await t.api.get(`/tickets?${query}`, who);
    expect(r.status).toBe(200);
    return (r.body.tickets as TicketView[]).map((x) => x.id);
  };
  const close = (id: number) => t.api.put(`/tickets/${id}`, { status: "closed" }, f.admin);
  /** A user's socket, recording every event it hears. */
  const socketOf = (who: Auth): Promise<{ socket: Socket; heard: Array<{ event: string; payload: any }> }> => {
    const heard: Array<{ event: string; payload: any }> = [];
    const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false });
    socket.onAny((event, payload) => heard.push({ event, payload }));
    return new Promise((resolve, reject) => {
      socket.on("ready", () => resolve({ socket, heard }));
      socket.on("connect_error", reject);
    });
  };
  const about = (heard: Array<{ event: string; payload: any }>, ticketId: number) => heard.filter((h) => JSON.stringify(h.payload ?? null).includes(`"id":${ticketId}`) || h.payload?.payload?.ticket?.id === ticketId || h.payload?.ticket?.id === ticketId);

  beforeAll(async () => {
    t = await startCore({ services: [probe] });
    f = await createTenant(t, { tier: "PLUS" });
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, f.admin);
    expect(c.status).toBe(201);
    conn = c.body.id;
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("hideContactInfo: an agent no longer sees the phone and e-mail — contacts, tickets, list, search, live events — and the admin still does", async () => {
    const c = await t.api.post("/contacts", { name: `Reservada ${uid()}`, number: "5531977776666", email: "reservada@cliente.test" }, f.admin);
    expect(c.status).toBe(201);
    const tk = await t.api.post("/tickets", { contactId: c.body.id, connectionId: conn, status: "pending", queueId: f.queueIds[0] }, f.admin);
    expect(tk.status).toBe(201);
    const contactInList = async (who: Auth) => ((await t.api.get("/tickets?status=pending", who)).body.tickets as TicketView[]).find((x) => x.id === tk.body.id)?.contact;
    try {
      expect((await t.api.get(`/contacts/${c.body.id}`, f.agent)).body).toMatchObject({ number: "5531977776666", email: "reservada@cliente.test" });
      await set("hideContactInfo", true);
      // The contact, one and in the list.
      expect((await t.api.get(`/contacts/${c.body.id}`, f.agent)).body).toMatchObject({ name: c.body.name, number: null, email: null });
      const page = (await t.api.get(`/contacts?searchParam=${encodeURIComponent(c.body.name)}`, f.agent)).body.contacts;
      expect(page).toEqual([expect.objectContaining({ id: c.body.id, number: null, email: null })]);
      // Neither is a search key for the agent: it would tell them.
      expect((await t.api.get("/contacts?searchParam=977776666", f.agent)).body.contacts).toEqual([]);
      expect((await t.api.get("/contacts?searchParam=reservada%40cliente", f.agent)).body.contacts).toEqual([]);
      // The ticket, one and in the attendance list.
      expect((await t.api.get(`/tickets/${tk.body.id}`, f.agent)).body.contact).toMatchObject({ name: c.body.name, number: null });
      expect(await contactInList(f.agent)).toMatchObject({ name: c.body.name, number: null });
      expect(await contactInList(f.supervisor)).toMatchObject({ number: null });
      // The ticket's live events carry no number (list rooms hold agents).
      pushes.length = 0;
      expect((await t.api.put(`/tickets/${tk.body.id}`, { pinned: true }, f.admin)).status).toBe(200);
      const live = () => pushes.find((p) => p.event === `${f.tenantId}:ticketList` && p.payload?.payload?.id === tk.body.id);
      for (let i = 0; i < 40 && !live(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(live()!.payload.payload.contact).toMatchObject({ name: c.body.name, number: null });
      expect(JSON.stringify(pushes)).not.toContain("977776666");
      // A group member's address (a WhatsApp address is their phone) and phone, in the messages and live.
      pushes.length = 0;
      const member = { externalId: "5531966665555@s.whatsapp.net", name: "Paulo", phone: "5531966665555" };
      const group = (await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: conn, providerMessageId: `p-${uid()}`, timestamp: Date.now(), from: { externalId: `grp-${uid()}`, name: "Grupo Vendas" }, body: "oi, grupo", isGroup: true, participant: member })) as { ticketId: number };
      const seenBy = async (who: Auth) => ((await t.api.get(`/messages/${group.ticketId}`, who)).body.messages as Array<{ participant: { externalId: string; name?: string; phone?: string } | null }>)[0].participant;
      const hidden = await seenBy(f.agent);
      expect(hidden).toEqual({ externalId: expect.stringMatching(/^hidden:[0-9a-f]{12}$/), name: "Paulo" });
      expect(await seenBy(f.supervisor)).toEqual(hidden);
      expect(await seenBy(f.admin)).toEqual(member);
      for (let i = 0; i < 40 && !pushes.some((p) => p.event === `${f.tenantId}:appMessage`); i++) await new Promise((r) => setTimeout(r, 25));
      expect(pushes.find((p) => p.event === `${f.tenantId}:appMessage`)!.payload.message.participant).toEqual(hidden);
      expect(JSON.stringify(pushes)).not.toContain("966665555");
      await close(group.ticketId);
      // The admin sees both everywhere, and the export (admin only) keeps them.
      expect((await t.api.get(`/contacts/${c.body.id}`, f.admin)).body).toMatchObject({ number: "5531977776666", email: "reservada@cliente.test" });
      expect(await contactInList(f.admin)).toMatchObject({ number: "5531977776666" });
      expect((await t.api.get(`/tickets/${tk.body.id}`, f.admin)).body.contact.number).toBe("5531977776666");
      expectError(await t.api.get("/contacts/export", f.agent), 403, "ERR_NO_PERMISSION");
      expect(String((await t.api.get("/contacts/export", f.admin)).body)).toContain("5531977776666");
    } finally {
      await set("hideContactInfo", false);
      await close(tk.body.id);
    }
  });

  it("a changed setting reaches the tenant's sockets at once (the shells read the settings again), not another tenant's", async () => {
    const other = await createTenant(t);
    const mine = await socketOf(f.agent);
    const theirs = await socketOf(other.agent);
    try {
      await set("hideMenuSubtitles", true);
      const heard = () => mine.heard.filter((h) => h.event === `${f.tenantId}:settings`);
      for (let i = 0; i < 80 && !heard().length; i++) await new Promise((r) => setTimeout(r, 25));
      expect(heard().map((h) => h.payload)).toEqual([{ key: "hideMenuSubtitles" }]);
      expect(theirs.heard.filter((h) => /:settings$/.test(h.event))).toEqual([]);
    } finally {
      mine.socket.disconnect();
      theirs.socket.disconnect();
      await set("hideMenuSubtitles", false);
    }
  });

  it("ticketListLimit: the attendance list's page when the caller names none, and pageSize: the other lists'", async () => {
    const made: number[] = [];
    for (let i = 0; i < 12; i++) made.push((await inbound()).ticketId);
    try {
      // Defaults: 40 tickets a page, so the twelve come at once.
      const first = await t.api.get("/tickets?status=pending", f.admin);
      expect(first.body.tickets.length).toBeGreaterThanOrEqual(12);
      expect(first.body.hasMore).toBe(false);
      await set("ticketListLimit", 10);
      const limited = await t.api.get("/tickets?status=pending", f.admin);
      expect(limited.body.tickets).toHaveLength(10);
      expect(limited.body.hasMore).toBe(true);
      const next = await t.api.get("/tickets?status=pending&pageNumber=2", f.admin);
      expect(next.body.tickets.length).toBeGreaterThanOrEqual(2);
      expect(next.body.tickets.length).toBeLessThanOrEqual(10);
      expect(next.body.tickets.some((x: TicketView) => limited.body.tickets.some((y: TicketView) => y.id === x.id))).toBe(false);
      // A caller that names its page gets it.
      expect((await t.api.get("/tickets?status=pending&pageSize=11", f.admin)).body.tickets).toHaveLength(11);

      // pageSize: contacts (twelve made above) and users.
      for (let i = 0; i < 4; i++) await addUser("user", [f.queueIds[0]]);
      expect((await t.api.get("/contacts", f.admin)).body.contacts.length).toBeGreaterThan(5);
      expect((await t.api.get("/users", f.admin)).body.users.length).toBeGreaterThan(5);
      await set("pageSize", 5);
      const contacts = await t.api.get("/contacts", f.admin);
      expect(contacts.body).toMatchObject({ pageSize: 5, hasMore: true });
      expect(contacts.body.contacts).toHaveLength(5);
      const users = await t.api.get("/users", f.admin);
      expect(users.body.users).toHaveLength(5);
      expect(users.body.hasMore).toBe(true);
      expect((await t.api.get("/contacts?pageSize=7", f.admin)).body.contacts).toHaveLength(7);
      // The attendance list keeps its own limit.
      expect((await t.api.get("/tickets?status=pending", f.admin)).body.tickets).toHaveLength(10);
    } finally {
      await set("ticketListLimit", 40);
      await set("pageSize", 40);
      for (const id of made) await close(id);
    }
  });

  it("protocol: a ticket opened after the format changes carries the new format", async () => {
    await set("protocol", { dateFormat: "YYYY", idPosition: "start", prefix: "SA-", suffix: "", separator: "/" });
    try {
      const { ticketId } = await inbound();
      const tk = (await t.api.get(`/tickets/${ticketId}`, f.admin)).body as TicketView;
      const year = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo", year: "numeric" }).format(new Date(tk.createdAt));
      expect(tk.protocol).toBe(`SA-${ticketId}/${year}`);
      await close(ticketId);
    } finally {
      await set("protocol", { dateFormat: "YYYYMMDD", idPosition: "end", prefix: "", suffix: "", separator: "" });
    }
  });

  it("groupsHiddenForUsers: the chosen users get no group ticket in lists nor by id; others still do", async () => {
    const group = await inbound({ isGroup: true, body: "mensagem do grupo" });
    const { ticketId } = group;
    const plain = await inbound();
    try {
      const q = "status=group,pending&includeNotQueueDefined=true";
      expect(await listIds(f.agent, q)).toEqual(expect.arrayContaining([ticketId, plain.ticketId]));
      await set("groupsHiddenForUsers", [f.agent.userId, f.admin.userId]);
      const seen = await listIds(f.agent, q);
      expect(seen).not.toContain(ticketId);
      expect(seen).toContain(plain.ticketId);
      expect(await listIds(f.agent, "status=group")).toEqual([]);
      expectError(await t.api.get(`/tickets/${ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
      expectError(await t.api.get(`/messages/${ticketId}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
      expectError(await t.api.put(`/tickets/${ticketId}`, { status: "open" }, f.agent), 404, "ERR_TICKET_NOT_FOUND");
      // Chosen means chosen, admins too.
      expect(await listIds(f.admin, `${q}&showAll=true`)).not.toContain(ticketId);
      expectError(await t.api.get(`/tickets/${ticketId}`, f.admin), 404, "ERR_TICKET_NOT_FOUND");
      // Those not chosen still have the group.
      expect(await listIds(f.supervisor, `${q}&showAll=true`)).toContain(ticketId);
      expect((await t.api.get(`/tickets/${ticketId}`, f.supervisor)).status).toBe(200);
      // Nor live: the group's new message reaches the supervisor's socket, not the agent's.
      const agentLive = await socketOf(f.agent);
      const supLive = await socketOf(f.supervisor);
      try {
        await t.core.broker.call("channels.inbound", { tenantId: f.tenantId, connectionId: conn, providerMessageId: `p-${uid()}`, timestamp: Date.now(), from: { externalId: group.ext, name: "Grupo" }, body: "outra do grupo", isGroup: true });
        await t.api.put(`/tickets/${plain.ticketId}`, { pinned: true }, f.admin);
        for (let i = 0; i < 80 && !(about(supLive.heard, ticketId).length && about(agentLive.heard, plain.ticketId).length); i++) await new Promise((r) => setTimeout(r, 25));
        expect(about(supLive.heard, ticketId).map((h) => h.event)).toEqual(expect.arrayContaining([`${f.tenantId}:ticketList`, `${f.tenantId}:appMessage`]));
        // The agent heard the other ticket's change (their socket works) and nothing of the group.
        expect(about(agentLive.heard, plain.ticketId).length).toBeGreaterThan(0);
        expect(about(agentLive.heard, ticketId)).toEqual([]);
      } finally {
        agentLive.socket.disconnect();
        supLive.socket.disconnect();
      }
      await set("groupsHiddenForUsers", []);
      expect(await listIds(f.agent, q)).toContain(ticketId);
    } finally {
      await set("groupsHiddenForUsers", []);
      await close(ticketId);
      await close(plain.ticketId);
    }
  });

  it("forceWalletDelivery: a new inbound ticket goes to the wallet's online owner (else its first), logged, in no other agent's waiting list", async () => {
    const owner1 = await addUser("user", [f.queueIds[0]]);
    const owner2 = await addUser("user", [f.queueIds[0]]);
    const first = await inbound();
    const contactId = ((await t.api.get(`/tickets/${first.ticketId}`, f.admin)).body as TicketView).contactId;
    await close(first.ticketId);
    expect((await t.api.put(`/contacts/${contactId}/wallet`, { userIds: [owner2.id, owner1.id] }, f.admin)).status).toBe(200);
    const setStatus = (id: number, status: "online" | "offline") => t.core.broker.call("users.setStatus", { id, status });
    try {
      // Off: the ticket waits for anyone in the queue.
      await set("forceWalletDelivery", false);
      const waiting = await inbound({ ext: first.ext });
      expect((await t.api.get(`/tickets/${waiting.ticketId}`, f.admin)).body).toMatchObject({ status: "pending", userId: null });
      expect(await listIds(f.agent, "status=pending")).toContain(waiting.ticketId);
      await close(waiting.ticketId);

      // On, the second owner online: theirs.
      await set("forceWalletDelivery", true);
      await setStatus(owner1.id, "offline");
      await setStatus(owner2.id, "online");
      const toOnline = await inbound({ ext: first.ext, body: "voltei" });
      const tk = (await t.api.get(`/tickets/${toOnline.ticketId}`, f.admin)).body as TicketView & { lastMessage: string };
      expect(tk).toMatchObject({ status: "open", userId: owner2.id, queueId: f.queueIds[0], lastMessage: "voltei" });
      const logs = (await t.api.get(`/tickets/${toOnline.ticketId}/logs`, f.admin)).body as Array<{ type: string; userId: number; data: unknown }>;
      expect(logs).toEqual(expect.arrayContaining([expect.objectContaining({ type: "userDefine", userId: owner2.id, data: { reason: "wallet", online: true } })]));
      expect(logs.map((l) => l.type)).not.toContain("started");
      expect(await listIds(owner2, "status=open")).toContain(toOnline.ticketId);
      for (const other of [f.agent, owner1]) expect(await listIds(other, "status=pending")).not.toContain(toOnline.ticketId);
      await close(toOnline.ticketId);

      // Nobody online: the first owner (lowest id).
      await setStatus(owner2.id, "offline");
      const toFirst = await inbound({ ext: first.ext });
      expect((await t.api.get(`/tickets/${toFirst.ticketId}`, f.admin)).body).toMatchObject({ status: "open", userId: Math.min(owner1.id, owner2.id) });
      await close(toFirst.ticketId);

      // A contact with no wallet still waits in the queue.
      const stranger = await inbound();
      expect((await t.api.get(`/tickets/${stranger.ticketId}`, f.admin)).body).toMatchObject({ status: "pending", userId: null });
      await close(stranger.ticketId);
    } finally {
      await set("forceWalletDelivery", false);
    }
  });
});
