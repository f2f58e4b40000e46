/**
 * The core API's sends for outreach plugins (scheduled messages, campaigns) on MariaDB:
 * platform.messages.sendTo reaches a contact on a connection through its active ticket, a
 * pending one it opens, or (ticket: "closed") its newest closed one, which stays closed; an
 * idempotency key makes a retried send — also two at once — answer the first message, and a
 * keyed send cut short before its hand-over is handed over again; another tenant's contact or
 * connection is not found; templates go only to channels that have them.
 */
import { QueryTypes } from "sequelize";
import { createTenant, uid, type TestCore, type TenantFixture, type Auth } from "./helpers";
import { allowPlugins, fixtureConnection, inboundTicket, probeCall, rejection, startWithProbe } from "./platform-setup";

describe("core API sends to contacts, exactly once (MariaDB)", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let aConn: number;
  let bConn: number;
  let bContact: number;

  beforeAll(async () => {
    ({ t, sup } = await startWithProbe());
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, sup, x.tenantId);
    aConn = await fixtureConnection(t, a);
    bConn = await fixtureConnection(t, b);
    bContact = (await inboundTicket(t, b.tenantId, bConn, `b-${uid()}`)).contactId;
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  const ticketOf = (tenantId: number, id: number) => probeCall(t, "platform.tickets.get", { tenantId, id });

  it("goes through the contact's active ticket, a closed one left closed, or a pending one it opens", async () => {
    const first = await inboundTicket(t, a.tenantId, aConn, `a-${uid()}`);
    const viaActive = await probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, body: "Lembrete: sua consulta é amanhã" });
    expect(viaActive).toMatchObject({ ticketId: first.ticketId, fromMe: true, userId: null, status: "sent" });

    await probeCall(t, "platform.tickets.update", { tenantId: a.tenantId, id: first.ticketId, status: "closed" });
    const quiet = await probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, body: "Promoção de dezembro", ticket: "closed" });
    expect(quiet).toMatchObject({ ticketId: first.ticketId, status: "sent" });
    expect((await ticketOf(a.tenantId, first.ticketId)).status).toBe("closed");

    const opened = await probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, body: "Seu pedido saiu para entrega" });
    expect(opened.ticketId).not.toBe(first.ticketId);
    expect(await ticketOf(a.tenantId, opened.ticketId)).toMatchObject({ status: "pending", contactId: first.contactId, connectionId: aConn });
  });

  it("a key sends once: a retry and a concurrent twin answer the first message", async () => {
    const { contactId } = await inboundTicket(t, a.tenantId, aConn, `k-${uid()}`);
    const key = `schedule:${uid()}:2026-12-01T09:00`;
    const send = () => probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "Uma vez só", idempotencyKey: key });
    const [x, y] = await Promise.all([send(), send()]);
    const z = await send();
    expect(y.id).toBe(x.id);
    expect(z).toMatchObject({ id: x.id, status: "sent" });
    const page = await probeCall(t, "platform.messages.list", { tenantId: a.tenantId, ticketId: x.ticketId, limit: 100 });
    expect(page.rows.filter((m) => m.body === "Uma vez só")).toHaveLength(1);
    // The same key on platform.messages.send is the same send.
    expect((await probeCall(t, "platform.messages.send", { tenantId: a.tenantId, ticketId: x.ticketId, body: "Uma vez só", idempotencyKey: key })).id).toBe(x.id);
    // A key is the tenant's: B's send with it is B's own message.
    const other = await probeCall(t, "platform.messages.sendTo", { tenantId: b.tenantId, contactId: bContact, connectionId: bConn, body: "Uma vez só", idempotencyKey: key });
    expect(other.id).not.toBe(x.id);
  });

  it("a keyed send cut short before its hand-over is handed over again; a live one is left alone", async () => {
    const { contactId, ticketId } = await inboundTicket(t, a.tenantId, aConn, `c-${uid()}`);
    const key = `campaign:${uid()}:contact:${contactId}`;
    const sent = await probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "Oferta", idempotencyKey: key });
    const db = t.core.deps.sequelize;
    const providerIdOf = async () => ((await db.query<{ providerId: string | null }>("SELECT providerId FROM messages WHERE id = ?", { replacements: [sent.id], type: QueryTypes.SELECT }))[0].providerId);
    const firstProviderId = await providerIdOf();
    expect(firstProviderId).toMatch(/^fx-/);
    // As a crash between record and hand-over leaves it: pending, no provider id, nothing in the outbox.
    await db.query("UPDATE messages SET status = 'pending', providerId = NULL WHERE id = ?", { replacements: [sent.id], type: QueryTypes.UPDATE });
    const live = await probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "Oferta", idempotencyKey: key });
    expect(live).toMatchObject({ id: sent.id, status: "pending" });
    expect(await providerIdOf()).toBeNull();
    await db.query("UPDATE messages SET createdAt = DATE_SUB(createdAt, INTERVAL 3 MINUTE) WHERE id = ?", { replacements: [sent.id], type: QueryTypes.UPDATE });
    const resumed = await probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "Oferta", idempotencyKey: key });
    expect(resumed).toMatchObject({ id: sent.id, ticketId, status: "sent" });
    const again = await providerIdOf();
    expect(again).toMatch(/^fx-/);
    expect(again).not.toBe(firstProviderId);
  });

  it("refuses another tenant's contact or connection, a malformed key, and templates on a channel without them", async () => {
    const { contactId } = await inboundTicket(t, a.tenantId, aConn, `r-${uid()}`);
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId: bContact, connectionId: aConn, body: "x" }))).type).toBe("ERR_CONTACT_NOT_FOUND");
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: bConn, body: "x" }))).type).toBe("ERR_CONNECTION_NOT_FOUND");
    // A contact the channel cannot reach (no address on it): refused, and no ticket opened for it.
    const unreachable = await t.api.post("/contacts", { name: "Sem canal", email: `sem.canal.${uid()}@example.com` }, a.admin);
    expect(unreachable.status).toBe(201);
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId: unreachable.body.id, connectionId: aConn, body: "x" }))).type).toBe("ERR_CONTACT_NUMBER_INVALID");
    expect((await probeCall(t, "platform.tickets.list", { tenantId: a.tenantId, search: "Sem canal" })).count).toBe(0);
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "x", idempotencyKey: "não vale" }))).type).toBe("VALIDATION_ERROR");
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "  " }))).type).toBe("ERR_REQUIRED_BODY");
    const template = { name: "lembrete_consulta", language: "pt_BR", components: { body: ["Ana"] } };
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "Olá Ana", template }))).type).toBe("ERR_CHANNEL_UNSUPPORTED");
    expect((await rejection(probeCall(t, "platform.messages.sendTo", { tenantId: a.tenantId, contactId, connectionId: aConn, body: "Olá", template: { ...template, language: "portuguese!" } }))).type).toBe("ERR_VALIDATION");
    expect((await rejection(probeCall(t, "platform.templates.list", { tenantId: a.tenantId, connectionId: aConn }))).type).toBe("ERR_CHANNEL_UNSUPPORTED");
    expect((await rejection(probeCall(t, "platform.templates.list", { tenantId: a.tenantId, connectionId: bConn }))).type).toBe("ERR_CONNECTION_NOT_FOUND");
  });
});
