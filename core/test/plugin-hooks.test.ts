/**
 * The plugins' hooks (plugin-sdk hooks-contract.ts) on MariaDB: the probe plugin refuses or
 * lets a user's close (beforeClose), and claims a contact whose next message it then takes
 * (onClaimedInbound) instead of a ticket opening. Mass resolve never asks and says so with
 * `via`; a tenant where the probe is off is never asked; a broken hook loses no message.
 */
import type { ClaimedInbound, PlatformEventEnvelope, TicketCloseCheck } from "@openatende/plugin-sdk";
import { createTenant, uid, type Auth, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, fixtureConnection, inboundTicket, probeCall, rejection, startWithProbe, waitFor, PROBE, PROBE_SERVICE } from "./platform-setup";

describe("plugin hooks (MariaDB)", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let aConn: number;
  let bConn: number;

  const asked = () => t.core.broker.call(`${PROBE_SERVICE}.asked`) as Promise<{ closes: TicketCloseCheck[]; claimed: ClaimedInbound[] }>;
  const mode = (m: { refuseClose: boolean; reply: unknown }) => t.core.broker.call(`${PROBE_SERVICE}.hookMode`, m);
  const received = () => t.core.broker.call(`${PROBE_SERVICE}.received`) as Promise<PlatformEventEnvelope[]>;
  const closedEvent = (ticketId: number) =>
    waitFor(received, (l) => l.some((e) => e.event === "ticket.closed" && (e.data as any).ticket.id === ticketId), `ticket.closed of ${ticketId}`).then(
      (l) => l.find((e) => e.event === "ticket.closed" && (e.data as any).ticket.id === ticketId)!.data as any,
    );
  /** A message of the contact `key` (a new provider id each time), through the channels' inbound. */
  const say = (tenantId: number, connectionId: number, key: string, body: string) =>
    t.core.broker.call("channels.inbound", { tenantId, connectionId, providerMessageId: `hk-${uid()}`, timestamp: Date.now(), from: { externalId: `visitor-${key}` }, body }) as Promise<{ ticketId: number; duplicate: boolean }>;
  const active = (tenantId: number, contactId: number, connectionId: number) => t.core.broker.call("tickets.findActive", { tenantId, contactId, connectionId }) as Promise<{ id: number } | null>;

  beforeAll(async () => {
    ({ t, sup } = await startWithProbe());
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, sup, x.tenantId);
    aConn = await fixtureConnection(t, a);
    bConn = await fixtureConnection(t, b);
    expect((await t.api.put(`/plugins/${PROBE}/enabled`, { enabled: false }, b.admin)).status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });
  beforeEach(async () => {
    await t.core.broker.call(`${PROBE_SERVICE}.reset`);
  });

  it("a refused close answers the plugin's code and leaves the ticket open; an allowed one closes with via agent", async () => {
    const { ticketId } = await inboundTicket(t, a.tenantId, aConn, `close-${uid()}`);
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, a.admin)).status).toBe(200);
    await mode({ refuseClose: true, reply: { consumed: true } });
    const refused = await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.admin);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe("ERR_PROBE_CLOSE_REFUSED");
    expect((await t.api.get(`/tickets/${ticketId}`, a.admin)).body.status).toBe("open");
    const [check] = (await asked()).closes;
    expect(check).toMatchObject({ tenantId: a.tenantId, userId: a.admin.userId, ticket: { id: ticketId, status: "open" } });

    await mode({ refuseClose: false, reply: { consumed: true } });
    expect((await t.api.put(`/tickets/${ticketId}`, { status: "closed" }, a.admin)).status).toBe(200);
    expect((await closedEvent(ticketId)).via).toBe("agent");
  });

  it("mass resolve never asks and is told as via mass; where the plugin is off nothing is asked", async () => {
    await mode({ refuseClose: true, reply: { consumed: true } });
    const { ticketId } = await inboundTicket(t, a.tenantId, aConn, `mass-${uid()}`);
    const r = await t.api.post("/tickets/mass-resolve", { ticketIds: [ticketId] }, a.admin);
    expect(r.status).toBe(200);
    expect(r.body.resolved).toBe(1);
    expect((await closedEvent(ticketId)).via).toBe("mass");

    const bt = await inboundTicket(t, b.tenantId, bConn, `off-${uid()}`);
    expect((await t.api.put(`/tickets/${bt.ticketId}`, { status: "closed" }, b.admin)).status).toBe(200);
    expect((await asked()).closes).toEqual([]);
  });

  it("a claimed contact's next message is the plugin's: kept on the closed ticket, no ticket opened", async () => {
    const key = `claim-${uid()}`;
    const first = await inboundTicket(t, a.tenantId, aConn, key);
    expect((await t.api.put(`/tickets/${first.ticketId}`, { status: "closed" }, a.admin)).status).toBe(200);
    const claim = await probeCall(t, "platform.inbound.claim", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, ref: "survey-1", ticketId: first.ticketId, minutes: 30 });
    expect(claim.claimed).toBe(true);

    const r = await say(a.tenantId, aConn, key, "9");
    expect(r).toMatchObject({ ticketId: first.ticketId, duplicate: false });
    expect(await active(a.tenantId, first.contactId, aConn)).toBeNull();
    const [got] = (await asked()).claimed;
    expect(got).toMatchObject({ tenantId: a.tenantId, ref: "survey-1", ticketId: first.ticketId, connectionId: aConn, contact: { id: first.contactId }, message: { body: "9" } });
    const messages = await t.api.get(`/messages/${first.ticketId}`, a.admin);
    expect(messages.body.messages.map((m: { body: string }) => m.body)).toContain("9");
    expect((await t.api.get(`/tickets/${first.ticketId}`, a.admin)).body.status).toBe("closed");

    // Not consumed, released: the message opens a ticket as usual, and so does the next.
    await mode({ refuseClose: false, reply: { consumed: false, release: true } });
    const opened = await say(a.tenantId, aConn, key, "sim");
    expect(opened.ticketId).not.toBe(first.ticketId);
    expect((await active(a.tenantId, first.contactId, aConn))?.id).toBe(opened.ticketId);
    expect((await asked()).claimed).toHaveLength(2);
  });

  it("a hook that throws drops the claim and the message opens a ticket; claims check the tenant and end on release", async () => {
    const key = `broken-${uid()}`;
    const first = await inboundTicket(t, a.tenantId, aConn, key);
    expect((await t.api.put(`/tickets/${first.ticketId}`, { status: "closed" }, a.admin)).status).toBe(200);
    await probeCall(t, "platform.inbound.claim", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, ref: "s", ticketId: first.ticketId, minutes: 5 });
    await mode({ refuseClose: false, reply: "throw" });
    const r = await say(a.tenantId, aConn, key, "x");
    expect(r.ticketId).not.toBe(first.ticketId);
    expect((await active(a.tenantId, first.contactId, aConn))?.id).toBe(r.ticketId);

    // Another tenant's contact, connection or ticket: their not-found codes.
    const bContact = (await inboundTicket(t, b.tenantId, bConn, `b-${uid()}`)).contactId;
    expect((await rejection(probeCall(t, "platform.inbound.claim", { tenantId: a.tenantId, contactId: bContact, connectionId: aConn, ref: "s", minutes: 5 }))).type).toBe("ERR_CONTACT_NOT_FOUND");
    expect((await rejection(probeCall(t, "platform.inbound.claim", { tenantId: a.tenantId, contactId: first.contactId, connectionId: bConn, ref: "s", minutes: 5 }))).type).toBe("ERR_CONNECTION_NOT_FOUND");
    expect((await rejection(probeCall(t, "platform.inbound.claim", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, ref: "s", ticketId: 999_999_999, minutes: 5 }))).type).toBe("ERR_TICKET_NOT_FOUND");

    await probeCall(t, "platform.inbound.claim", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn, ref: "s", minutes: 5 });
    expect(await probeCall(t, "platform.inbound.release", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn })).toEqual({ released: true });
    expect(await probeCall(t, "platform.inbound.release", { tenantId: a.tenantId, contactId: first.contactId, connectionId: aConn })).toEqual({ released: false });
  });
});
