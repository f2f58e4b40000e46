/**
 * Channel contract 1.1, the core's side: messages written on the account's phone, group
 * members, imported history, played and group acks, changes made on the channel (reactions,
 * edits, deletions) and what a channel learns of contacts (names, pictures, a LID's phone
 * number: two contacts merged). Called as a channel plugin is (a caller name), against the
 * real core on MariaDB (and on SQLite, the embedded mode) with its realtime events listened
 * to; nothing of ours is mocked.
 */
import { QueryTypes } from "sequelize";
import type { ServiceSchema } from "moleculer";
import { startCore, createTenant, TestCore, TenantFixture, DIALECTS, uid } from "./helpers";

type Push = { rooms: string[]; event: string; payload: any };
const AS_WEBCHAT = { caller: "v1.channel-webchat" } as never;
/** A Brazilian mobile number, E.164 digits ("5511" + "9" + 8 digits). */
const mobile = () => `55119${6 + Math.floor(Math.random() * 4)}${Array.from({ length: 7 }, () => Math.floor(Math.random() * 10)).join("")}`;

describe.each(DIALECTS)("channel contract 1.1 on %s", (dialect) => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let conn: number;
  let bConn: number;
  const pushes: Push[] = [];
  const merges: Array<{ tenantId: number; keptId: number; removedIds: number[] }> = [];
  const probe: ServiceSchema = {
    name: `contract-probe-${uid()}`,
    events: {
      "realtime.push": { group: `contract-probe-${uid()}`, handler: (ctx: { params: Push }) => void pushes.push(ctx.params) },
      "contacts.merged": { group: `contract-merged-${uid()}`, handler: (ctx: { params: (typeof merges)[number] }) => void merges.push(ctx.params) },
    },
  };

  const call = <T = any>(action: string, params: Record<string, unknown>, opts: unknown = AS_WEBCHAT) => t.core.broker.call(action, params, opts as never) as Promise<T>;
  const inbound = (ext: string, extra: Record<string, unknown> = {}, f = a, connectionId = conn) =>
    call<{ messageId: number; ticketId: number; duplicate: boolean }>("channels.inbound", { tenantId: f.tenantId, connectionId, providerMessageId: `p-${uid()}${uid()}`, timestamp: Date.now(), from: { externalId: ext }, body: "olá", ...extra });
  const ack = (providerMessageId: string, status: string, extra: Record<string, unknown> = {}) => call<{ applied: boolean }>("channels.ack", { tenantId: a.tenantId, connectionId: conn, providerMessageId, status, ...extra });
  const change = (providerMessageId: string, c: Record<string, unknown>) => call<{ applied: boolean }>("channels.change", { tenantId: a.tenantId, connectionId: conn, providerMessageId, change: c });
  const contact = (u: Record<string, unknown>, f = a, connectionId = conn) => call<{ applied: boolean; contactId?: number; merged?: boolean }>("channels.contact", { tenantId: f.tenantId, connectionId, ...u });
  const rows = <T = any>(sql: string, replacements: unknown[]) => t.core.sequelize.query(sql, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>;
  const message = async (id: number) => (await rows("SELECT * FROM messages WHERE id = ?", [id]))[0];
  const ticket = async (id: number) => (await rows("SELECT * FROM tickets WHERE id = ?", [id]))[0];
  const contactOf = async (ext: string, tenantId = a.tenantId) =>
    (await rows("SELECT c.* FROM contacts c JOIN contact_identities i ON i.contactId = c.id WHERE i.tenantId = ? AND i.externalId = ?", [tenantId, ext]))[0];
  const waitFor = async (cond: () => boolean) => {
    for (const t0 = Date.now(); !cond(); ) {
      if (Date.now() - t0 > 5000) throw new Error("condition not met in time");
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const ofTenant = (event: string) => pushes.filter((p) => p.event === `${a.tenantId}:${event}`);
  /** The ticket an event is about. */
  const ticketOfPush = (p: Push): number | undefined => (p.event.endsWith(":appMessage") ? p.payload.ticket?.id : (p.payload.payload?.ticket?.id ?? p.payload.payload?.id));
  /**
   * A live message on a contact of its own; once its events arrived, every earlier event has
   * too (one broker, emitted in order). Answers the events since `mark` about other tickets.
   */
  const fenced = async (mark: number) => {
    const { messageId, ticketId } = await inbound(`fence-${uid()}`);
    await waitFor(() => ofTenant("appMessage").some((p) => p.payload.message?.id === messageId));
    return pushes.slice(mark).filter((p) => p.event.startsWith(`${a.tenantId}:`) && ticketOfPush(p) !== ticketId);
  };
  const updatesOf = async (mark: number, id: number) => (await fenced(mark)).filter((p) => p.event.endsWith(":appMessage") && p.payload.action === "update" && p.payload.message.id === id);

  beforeAll(async () => {
    t = await startCore({ dialect, services: [probe] });
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    const mk = async (f: TenantFixture) => (await t.api.post("/connections", { name: `WA ${uid()}`, type: "channel-webchat", queueId: f.queueIds[0] }, f.admin)).body.id as number;
    conn = await mk(a);
    bConn = await mk(b);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a message written on the account's phone is an agent's message: no user, sent, read, nobody notified", async () => {
    const ext = mobile();
    const mine = await inbound(ext, { fromMe: true, body: "do celular" });
    const m = await message(mine.messageId);
    expect(m).toMatchObject({ fromMe: 1, userId: null, status: "sent", read: 1, participant: null });
    expect(await ticket(mine.ticketId)).toMatchObject({ status: "pending", unreadMessages: 0, lastMessage: "do celular", queueId: a.queueIds[0] });
    await waitFor(() => ofTenant("appMessage").some((p) => p.payload.message.id === mine.messageId));
    const create = ofTenant("ticketList").find((p) => p.payload.payload?.messageId === mine.messageId)!.payload.payload;
    expect(create).toMatchObject({ fromMe: true, read: true, body: "do celular", ticket: { id: mine.ticketId, unreadMessages: 0 } });
    expect(ofTenant("appMessage").find((p) => p.payload.message.id === mine.messageId)!.payload.message).toMatchObject({ fromMe: true, userId: null, status: "sent" });

    // The customer answers: unread; the phone replies again: read, as an agent's reply.
    await inbound(ext, { body: "resposta" });
    expect(await ticket(mine.ticketId)).toMatchObject({ unreadMessages: 1, lastMessage: "resposta" });
    await inbound(ext, { fromMe: true, body: "de novo" });
    expect(await ticket(mine.ticketId)).toMatchObject({ unreadMessages: 0, lastMessage: "de novo" });
    const listed = await t.api.get(`/messages/${mine.ticketId}`, a.admin);
    expect(listed.body.messages.map((x: any) => [x.body, x.fromMe, x.status])).toEqual([
      ["do celular", true, "sent"],
      ["resposta", false, "received"],
      ["de novo", true, "sent"],
    ]);
  });

  it("the platform's own send reported back from the phone before its answer was recorded stays one message", async () => {
    const ext = mobile();
    const first = await inbound(ext, { body: "quero comprar" });
    expect((await t.api.put(`/tickets/${first.ticketId}`, { status: "open" }, a.admin)).status).toBe(200);
    const sent = (await t.api.post(`/messages/${first.ticketId}`, { body: "temos sim" }, a.admin)).body;
    expect(sent).toMatchObject({ status: "sent", userId: a.admin.userId });
    // The channel reports it as written on the phone, under the id its answer will carry, and acks it.
    const echoId = `echo-${uid()}`;
    const echo = await inbound(ext, { providerMessageId: echoId, fromMe: true, body: "temos sim" });
    await ack(echoId, "delivered");
    const mark = pushes.length;
    await t.core.broker.call("messages.settle", { tenantId: a.tenantId, id: sent.id, status: "sent", providerId: echoId });
    expect(await message(sent.id)).toMatchObject({ providerId: echoId, status: "delivered", userId: a.admin.userId });
    expect(await rows("SELECT id FROM messages WHERE id = ?", [echo.messageId])).toEqual([]);
    expect((await fenced(mark)).filter((p) => p.payload.action === "delete").map((p) => p.payload.message.id)).toEqual([echo.messageId]);
    // A customer's message holding the id is not an echo: it stays, and the send keeps its own id.
    const customerId = `cust-${uid()}`;
    const customer = await inbound(ext, { providerMessageId: customerId, body: "obrigado" });
    const second = (await t.api.post(`/messages/${first.ticketId}`, { body: "de nada" }, a.admin)).body;
    await t.core.broker.call("messages.settle", { tenantId: a.tenantId, id: second.id, status: "sent", providerId: customerId });
    expect(await message(customer.messageId)).toMatchObject({ providerId: customerId, fromMe: 0 });
    expect((await message(second.id)).providerId).toBe(second.providerId);
  });

  it("a group message keeps the member who wrote it, and its events carry them", async () => {
    const group = `1203${uid()}@g.us`;
    const first = await inbound(group, { isGroup: true, from: { externalId: group, name: "Equipe" }, participant: { externalId: "5511911112222", name: "Ana" }, body: "bom dia" });
    const second = await inbound(group, { isGroup: true, from: { externalId: group, name: "Equipe" }, participant: { externalId: "5511933334444", phone: "5511933334444" }, body: "oi" });
    expect(second.ticketId).toBe(first.ticketId);
    expect(await ticket(first.ticketId)).toMatchObject({ status: "group", isGroup: 1, unreadMessages: 2 });
    expect(JSON.parse((await message(first.messageId)).participant)).toEqual({ externalId: "5511911112222", name: "Ana" });
    await waitFor(() => ofTenant("appMessage").some((p) => p.payload.message.id === second.messageId));
    expect(ofTenant("appMessage").find((p) => p.payload.message.id === first.messageId)!.payload.message.participant).toEqual({ externalId: "5511911112222", name: "Ana" });
    expect(ofTenant("ticketList").find((p) => p.payload.payload?.messageId === second.messageId)!.payload.payload).toMatchObject({ isGroup: true, fromMe: false, participant: { externalId: "5511933334444", phone: "5511933334444" } });
    const listed = await t.api.get(`/messages/${first.ticketId}`, a.admin);
    expect(listed.body.messages.map((x: any) => x.participant?.name ?? x.participant?.externalId)).toEqual(["Ana", "5511933334444"]);
  });

  it("an imported history is stored in order without events or unread counts; with closeTicket its ticket stays closed", async () => {
    const ext = mobile();
    const base = Date.now() - 86_400_000;
    const ids = Array.from({ length: 30 }, (_, i) => `imp-${ext}-${i}`);
    const mark = pushes.length;
    // Newest first, as a history sync may deliver it; every other one written on the phone.
    const stored = [];
    for (let i = ids.length - 1; i >= 0; i--) {
      stored.push(await inbound(ext, { providerMessageId: ids[i], timestamp: base + i * 1000, body: `h${i}`, fromMe: i % 2 === 1, imported: { closeTicket: true } }));
    }
    const ticketIds = [...new Set(stored.map((s) => s.ticketId))];
    expect(ticketIds).toHaveLength(1);
    expect(await ticket(ticketIds[0])).toMatchObject({ status: "closed", activeKey: null, unreadMessages: 0, lastMessage: "h29" });
    expect(await fenced(mark)).toEqual([]);
    const listed = (await t.api.get(`/messages/${ticketIds[0]}?pageSize=100`, a.admin)).body.messages;
    expect(listed.map((x: any) => x.body)).toEqual(ids.map((_, i) => `h${i}`));
    expect(listed.every((x: any) => x.read === true && x.status === (x.fromMe ? "sent" : "received"))).toBe(true);
    const logs = (await t.api.get(`/tickets/${ticketIds[0]}/logs`, a.admin)).body.map((l: { type: string }) => l.type);
    expect(logs).toEqual(expect.arrayContaining(["created", "closed"]));

    // The same history again stores nothing; a live message then opens a ticket of its own, unread.
    expect((await inbound(ext, { providerMessageId: ids[3], imported: { closeTicket: true } })).duplicate).toBe(true);
    const live = await inbound(ext, { body: "ao vivo" });
    expect(live.ticketId).not.toBe(ticketIds[0]);
    expect(await ticket(live.ticketId)).toMatchObject({ status: "pending", unreadMessages: 1 });
    expect(await ticket(ticketIds[0])).toMatchObject({ status: "closed" });
  });

  it("imported messages of a new contact arriving at once land in one closed ticket; without closeTicket, in a pending ticket, read", async () => {
    const ext = mobile();
    const at = await Promise.all(Array.from({ length: 10 }, (_, i) => inbound(ext, { timestamp: Date.now() - 1000 * (10 - i), body: `c${i}`, imported: { closeTicket: true } })));
    expect(new Set(at.map((x) => x.ticketId)).size).toBe(1);
    expect((await rows("SELECT COUNT(*) AS n FROM tickets t JOIN contact_identities i ON i.contactId = t.contactId WHERE i.tenantId = ? AND i.externalId = ?", [a.tenantId, ext]))[0].n).toBe(1);

    const open = mobile();
    const mark = pushes.length;
    const r1 = await inbound(open, { body: "antiga 1", imported: {} });
    const r2 = await inbound(open, { body: "antiga 2", imported: {} });
    expect(r2.ticketId).toBe(r1.ticketId);
    expect(await ticket(r1.ticketId)).toMatchObject({ status: "pending", unreadMessages: 0, lastMessage: "antiga 2" });
    // The ticket itself is announced once (the list's truth); its messages push nothing.
    expect((await fenced(mark)).map((p) => [p.event, p.payload.type, ticketOfPush(p)])).toEqual([[`${a.tenantId}:ticketList`, "ticket:create", r1.ticketId]]);
  });

  describe("acks", () => {
    it("played ranks above read, statuses never move back, failed only before any device acknowledged", async () => {
      const ext = mobile();
      const pid = `ack-${uid()}`;
      const { messageId } = await inbound(ext, { providerMessageId: pid, fromMe: true, body: "áudio" });
      const mark = pushes.length;
      for (const [status, expected] of [
        ["read", "read"],
        ["delivered", "read"],
        ["failed", "read"],
        ["played", "played"],
        ["read", "played"],
        ["sent", "played"],
      ]) {
        expect(await ack(pid, status)).toEqual({ applied: true });
        expect((await message(messageId)).status).toBe(expected);
      }
      expect((await updatesOf(mark, messageId)).map((p) => p.payload.message.status)).toEqual(["read", "played"]);

      const pid2 = `ack-${uid()}`;
      const second = await inbound(ext, { providerMessageId: pid2, fromMe: true, body: "texto" });
      await ack(pid2, "failed", { reason: "number blocked" });
      expect(await message(second.messageId)).toMatchObject({ status: "failed", failReason: "number blocked" });
      await ack(pid2, "delivered");
      expect(await message(second.messageId)).toMatchObject({ status: "delivered", failReason: null });
      await ack(pid2, "failed");
      expect((await message(second.messageId)).status).toBe("delivered");

      // A customer's message is not ours to acknowledge.
      const theirs = `ack-${uid()}`;
      const customer = await inbound(ext, { providerMessageId: theirs });
      expect(await ack(theirs, "read")).toEqual({ applied: false });
      expect((await message(customer.messageId)).status).toBe("received");
      expect(await ack(`never-${uid()}`, "read")).toEqual({ applied: false });
    });

    it("a group's receipts, out of order and at once, leave the furthest any member reached", async () => {
      const group = `1203${uid()}@g.us`;
      const pid = `gack-${uid()}`;
      const { messageId } = await inbound(group, { providerMessageId: pid, isGroup: true, fromMe: true, body: "aviso ao grupo" });
      const members = Array.from({ length: 12 }, (_, i) => `55119000000${String(i).padStart(2, "0")}`);
      await Promise.all(members.flatMap((m, i) => [ack(pid, "delivered", { participant: m }), ack(pid, i === 5 ? "read" : "delivered", { participant: m })]));
      expect((await message(messageId)).status).toBe("read");
      await Promise.all(members.map((m) => ack(pid, "delivered", { participant: m })));
      expect((await message(messageId)).status).toBe("read");
      await ack(pid, "played", { participant: members[3] });
      expect((await message(messageId)).status).toBe("played");
    });
  });

  describe("changes made on the channel", () => {
    it("reactions are one per reactor, replaced or taken away; the same change twice tells nobody twice", async () => {
      const ext = mobile();
      const pid = `chg-${uid()}`;
      const { messageId } = await inbound(ext, { providerMessageId: pid, body: "pode ser amanhã?" });
      const reactions = async () => JSON.parse((await message(messageId)).reactions ?? "[]");
      const mark = pushes.length;
      expect(await change(pid, { type: "reaction", by: ext, emoji: "👍" })).toEqual({ applied: true });
      expect(await change(pid, { type: "reaction", by: ext, emoji: "👍" })).toEqual({ applied: true });
      expect(await reactions()).toEqual([{ by: ext, emoji: "👍" }]);
      expect((await updatesOf(mark, messageId)).map((p) => p.payload.message.reactions)).toEqual([[{ by: ext, emoji: "👍" }]]);

      // Several reactors at once all stay; the account's own (from the phone) is marked.
      await Promise.all(Array.from({ length: 6 }, (_, i) => change(pid, { type: "reaction", by: `r${i}`, emoji: "❤️" })));
      await change(pid, { type: "reaction", by: "me", emoji: "🙏", fromMe: true });
      await change(pid, { type: "reaction", by: ext, emoji: "😂" });
      const all = await reactions();
      expect(all).toHaveLength(8);
      expect(all).toEqual(expect.arrayContaining([{ by: ext, emoji: "😂" }, { by: "me", emoji: "🙏", fromMe: true }, { by: "r3", emoji: "❤️" }]));
      await change(pid, { type: "reaction", by: ext, emoji: "" });
      expect((await reactions()).some((r: { by: string }) => r.by === ext)).toBe(false);
      expect(await change(`never-${uid()}`, { type: "reaction", by: ext, emoji: "👍" })).toEqual({ applied: false });
      await expect(change(pid, { type: "reaction", emoji: "👍" })).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "change.by" } });
      await expect(change(pid, { type: "edit" })).rejects.toMatchObject({ type: "ERR_VALIDATION", data: { field: "change.body" } });
    });

    it("an edit replaces the text; a deletion keeps it in the row but shows it to nobody; both are idempotent", async () => {
      const ext = mobile();
      const pid = `chg-${uid()}`;
      const { messageId, ticketId } = await inbound(ext, { providerMessageId: pid, body: "enderço errado" });
      const mark = pushes.length;
      expect(await change(pid, { type: "edit", body: "endereço certo" })).toEqual({ applied: true });
      expect(await change(pid, { type: "edit", body: "endereço certo" })).toEqual({ applied: true });
      expect(await message(messageId)).toMatchObject({ body: "endereço certo", isEdited: 1, isDeleted: 0 });
      expect(await change(pid, { type: "delete" })).toEqual({ applied: true });
      expect(await change(pid, { type: "delete" })).toEqual({ applied: true });
      expect(await message(messageId)).toMatchObject({ body: "endereço certo", isDeleted: 1 });
      expect((await updatesOf(mark, messageId)).map((p) => [p.payload.message.body, p.payload.message.isEdited, p.payload.message.isDeleted])).toEqual([
        ["endereço certo", true, false],
        [null, true, true],
      ]);
      expect((await t.api.get(`/messages/${ticketId}`, a.admin)).body.messages[0]).toMatchObject({ id: messageId, body: null, isDeleted: true });
      // Nothing more happens to a deleted message.
      expect(await change(pid, { type: "reaction", by: ext, emoji: "👍" })).toEqual({ applied: false });
      expect(await change(pid, { type: "edit", body: "de novo" })).toEqual({ applied: false });
      expect(await message(messageId)).toMatchObject({ body: "endereço certo", reactions: null });
    });
  });

  describe("contact updates", () => {
    it("a picture (null clears it), the validated flag, a number for a contact without one, a name only over a raw one", async () => {
      const jid = `${mobile()}@s.whatsapp.net`;
      const phone = jid.split("@")[0];
      await inbound(jid, { from: { externalId: jid, phone } });
      expect((await contactOf(jid)).name).toBe((await contactOf(jid)).number);
      const r = await contact({ externalId: jid, name: "Carla", avatarUrl: "https://pics.test/carla.jpg", validated: true });
      expect(r).toMatchObject({ applied: true, merged: false });
      expect(await contactOf(jid)).toMatchObject({ id: r.contactId, name: "Carla", profilePicUrl: "https://pics.test/carla.jpg", whatsappValidated: 1 });
      // A name an agent typed stays.
      expect((await t.api.put(`/contacts/${r.contactId}`, { name: "Carla (cliente VIP)" }, a.admin)).status).toBe(200);
      await contact({ externalId: jid, name: "Carla S.", avatarUrl: null, validated: false });
      expect(await contactOf(jid)).toMatchObject({ name: "Carla (cliente VIP)", profilePicUrl: null, whatsappValidated: 0 });
      // Twice the same: the same contact.
      expect(await contact({ externalId: jid, name: "Carla S.", avatarUrl: null, validated: false })).toEqual({ applied: true, contactId: r.contactId, merged: false });

      const visitor = `v-${uid()}`;
      await inbound(visitor, { from: { externalId: visitor, name: "Visitante" } });
      await contact({ externalId: visitor, phone: "+55 11 97654-3210" });
      expect((await contactOf(visitor)).number).toBe("5511976543210");
      await contact({ externalId: visitor, phone: "+55 11 91111-2222" });
      expect((await contactOf(visitor)).number).toBe("5511976543210");

      const stranger = `s-${uid()}`;
      expect(await contact({ externalId: stranger, name: "Ninguém" })).toEqual({ applied: false });
      expect(await contactOf(stranger)).toBeUndefined();
      const made = await contact({ externalId: stranger, name: "Agenda", avatarUrl: "https://pics.test/a.jpg", create: true });
      expect(await contactOf(stranger)).toMatchObject({ id: made.contactId, name: "Agenda", profilePicUrl: "https://pics.test/a.jpg" });
    });

    it("a LID learnt to be a phone number: its contact merges into the number's, tickets and messages included; idempotent; tenant-scoped", async () => {
      const lid = `${uid()}${uid()}@lid`;
      const pn = `${mobile()}@s.whatsapp.net`;
      // The number was met first: the LID's identity is the newer one, yet replies must go to the number.
      const fromPn = await inbound(pn, { from: { externalId: pn, phone: pn.split("@")[0] }, body: "pelo número" });
      const fromLid = await inbound(lid, { from: { externalId: lid, name: "Dora" }, body: "pelo lid" });
      const theirs = await inbound(lid, { from: { externalId: lid, name: "Dora B" }, body: "tenant B" }, b, bConn);
      const lidContact = (await contactOf(lid)).id;
      const pnContact = (await contactOf(pn)).id;
      const bContact = (await contactOf(lid, b.tenantId)).id;

      const r = await contact({ externalId: pn, previousExternalId: lid, phone: pn.split("@")[0] });
      expect(r).toEqual({ applied: true, contactId: pnContact, merged: true });
      await waitFor(() => merges.some((m) => m.keptId === pnContact));
      expect(merges.filter((m) => m.keptId === pnContact)).toEqual([{ tenantId: a.tenantId, keptId: pnContact, removedIds: [lidContact] }]);
      expect(await rows("SELECT id FROM contacts WHERE id = ?", [lidContact])).toEqual([]);
      // The number's contact takes the name the LID's contact had (its own was the raw number).
      expect(await contactOf(pn)).toMatchObject({ id: pnContact, name: "Dora" });
      expect(await message(fromLid.messageId)).toMatchObject({ contactId: pnContact, ticketId: fromLid.ticketId });
      expect(await ticket(fromLid.ticketId)).toMatchObject({ contactId: pnContact, status: "closed" });
      expect(await ticket(fromPn.ticketId)).toMatchObject({ contactId: pnContact, status: "pending" });
      // A late message on the LID lands on the same person; replies go to the number.
      expect((await inbound(lid)).ticketId).toBe(fromPn.ticketId);
      expect(await t.core.broker.call("contacts.identityFor", { tenantId: a.tenantId, contactId: pnContact, channelType: "channel-webchat" })).toBe(pn);

      // Again: nothing more happens.
      const counts = async () => (await rows("SELECT (SELECT COUNT(*) FROM contacts WHERE tenantId = ?) AS c, (SELECT COUNT(*) FROM tickets WHERE tenantId = ?) AS t", [a.tenantId, a.tenantId]))[0];
      const before = await counts();
      expect(await contact({ externalId: pn, previousExternalId: lid })).toEqual({ applied: true, contactId: pnContact, merged: false });
      expect(await counts()).toEqual(before);
      // Tenant B's contact with the same LID is untouched.
      expect(await contactOf(lid, b.tenantId)).toMatchObject({ id: bContact, name: "Dora B" });
      expect(await message(theirs.messageId)).toMatchObject({ contactId: bContact });
    });

    it("a LID whose number is new re-keys its contact; a number an agent already saved takes the LID's contact in", async () => {
      const lid = `${uid()}@lid`;
      const pn = `${mobile()}@s.whatsapp.net`;
      const first = await inbound(lid, { from: { externalId: lid } });
      const same = (await contactOf(lid)).id;
      expect(await contact({ externalId: pn, previousExternalId: lid, phone: pn.split("@")[0], name: "Edu" })).toEqual({ applied: true, contactId: same, merged: false });
      expect(await contactOf(pn)).toMatchObject({ id: same, name: "Edu", number: pn.split("@")[0] });
      expect((await inbound(pn)).ticketId).toBe(first.ticketId);
      expect(await t.core.broker.call("contacts.identityFor", { tenantId: a.tenantId, contactId: same, channelType: "channel-webchat" })).toBe(pn);

      const number = mobile();
      const saved = await t.api.post("/contacts", { name: "Fabi (loja)", number }, a.admin);
      expect(saved.status).toBe(201);
      const lid2 = `${uid()}@lid`;
      await inbound(lid2, { from: { externalId: lid2, name: "Fabi" } });
      const r = await contact({ externalId: `${number}@s.whatsapp.net`, previousExternalId: lid2, phone: number });
      expect(r).toEqual({ applied: true, contactId: saved.body.id, merged: true });
      expect(await contactOf(lid2)).toMatchObject({ id: saved.body.id, name: "Fabi (loja)" });
    });
  });

  it("a plugin of another channel type cannot ack, change or update this connection's messages and contacts; another tenant's connection is not found", async () => {
    const ext = mobile();
    const pid = `perm-${uid()}`;
    const { messageId } = await inbound(ext, { providerMessageId: pid, fromMe: true });
    const asTelegram = { caller: "v1.channel-telegram" };
    const ref = { tenantId: a.tenantId, connectionId: conn };
    for (const [action, params] of [
      ["channels.ack", { ...ref, providerMessageId: pid, status: "read" }],
      ["channels.change", { ...ref, providerMessageId: pid, change: { type: "delete" } }],
      ["channels.contact", { ...ref, externalId: ext, name: "Outro", avatarUrl: null }],
      ["channels.inbound", { ...ref, providerMessageId: `x-${uid()}`, timestamp: Date.now(), from: { externalId: ext }, body: "x", fromMe: true }],
    ] as const) {
      await expect(call(action, params, asTelegram)).rejects.toMatchObject({ type: "ERR_NO_PERMISSION" });
      await expect(call(action, { ...params, tenantId: b.tenantId })).rejects.toMatchObject({ type: "ERR_CONNECTION_NOT_FOUND" });
    }
    expect(await message(messageId)).toMatchObject({ status: "sent", isDeleted: 0 });
    expect((await contactOf(ext)).name).toBe(ext);
  });
});
