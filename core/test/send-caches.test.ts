/**
 * The per-process caches of the send path (core/src/messages/outgoing.ts): a send reads its
 * connection from a cache that `connections.changed` empties, so a change of the connection
 * (here its pinned plugin major, moved by connections.repinMajor) is seen by the very next
 * send, never only when the entry runs out. tickets.touch's `quiet` records the message
 * without reading the ticket back, and contacts.botCard (a bot delivery's light contact read)
 * answers what the full view would show a bot, for the tenant's own contacts only.
 */
import { startCore, createTenant, TestCore, TenantFixture, uid } from "./helpers";

type Sent = { id: number; status: string; failReason?: string | null };

async function inbound(t: TestCore, tenantId: number, connectionId: number, ext: string) {
  return (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: `p-${uid()}-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: ext, name: `Cliente ${ext}` },
    body: "olá",
  })) as { ticketId: number; messageId: number };
}

/** Retries `fn` until it passes (at most `ms`): an event is handled just after the call that emitted it answers. */
async function eventually<T>(fn: () => Promise<T>, ms = 3000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (Date.now() - t0 > ms) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

describe("send path caches (MariaDB, Redis)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("a connection's new pinned major reaches the next send at once (connections.changed empties the cache)", async () => {
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat" }, a.admin);
    expect(c.status).toBe(201);
    const connectionId = c.body.id as number;
    const major = (await t.api.get(`/connections/${connectionId}`, a.admin)).body.pluginMajor as number;
    expect(major).toEqual(expect.any(Number));
    const { ticketId } = await inbound(t, a.tenantId, connectionId, `ext-${uid()}`);
    const send = (body: string) => t.core.broker.call("messages.platformSend", { tenantId: a.tenantId, ticketId, body }) as Promise<Sent>;

    // Sent, and the connection is now in this process's cache.
    expect((await send("primeira")).status).not.toBe("failed");

    // Pinned to a major that is not loaded: the next send is refused, well within the cache's lifetime.
    const moved = (await t.core.broker.call("connections.repinMajor", { types: ["channel-webchat"], major: major + 50 })) as { moved: number };
    expect(moved.moved).toBeGreaterThanOrEqual(1);
    await eventually(async () => {
      await expect(send("segunda")).rejects.toMatchObject({ type: "ERR_CONNECTION_INACTIVE" });
    });

    // Back on its own major: sends go again.
    await t.core.broker.call("connections.repinMajor", { types: ["channel-webchat"], major });
    const back = await eventually(async () => {
      const m = await send("terceira");
      expect(m.status).not.toBe("failed");
      return m;
    });
    expect(back.id).toEqual(expect.any(Number));
  });

  it("a cached connection is still the tenant's only: another tenant's ticket id is not found", async () => {
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat" }, a.admin);
    const { ticketId } = await inbound(t, a.tenantId, c.body.id, `ext-${uid()}`);
    await t.core.broker.call("messages.platformSend", { tenantId: a.tenantId, ticketId, body: "oi" });
    await expect(t.core.broker.call("messages.platformSend", { tenantId: b.tenantId, ticketId, body: "oi" })).rejects.toMatchObject({ type: "ERR_TICKET_NOT_FOUND" });
  });

  it("tickets.touch with quiet records the message and answers nothing; without it, the ticket as updated", async () => {
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat" }, a.admin);
    const { ticketId } = await inbound(t, a.tenantId, c.body.id, `ext-${uid()}`);
    const at = Date.now() + 1000;
    const quiet = await t.core.broker.call("tickets.touch", { tenantId: a.tenantId, ticketId, body: "resposta", timestamp: at, incoming: false, quiet: true });
    expect(quiet).toBeNull();
    const row = (await t.core.broker.call("tickets.getInternal", { tenantId: a.tenantId, id: ticketId })) as { lastMessage: string; unreadMessages: number; lastMessageAt: number };
    expect(row).toMatchObject({ lastMessage: "resposta", unreadMessages: 0 });
    expect(Number(row.lastMessageAt)).toBe(at);
    const loud = (await t.core.broker.call("tickets.touch", { tenantId: a.tenantId, ticketId, body: "outra", timestamp: at + 1, incoming: true })) as { id: number; unreadMessages: number };
    expect(loud).toMatchObject({ id: ticketId, unreadMessages: 1 });
    // Another tenant's ticket: nothing changes.
    await t.core.broker.call("tickets.touch", { tenantId: b.tenantId, ticketId, body: "intrusa", timestamp: at + 2, incoming: false, quiet: true });
    expect(((await t.core.broker.call("tickets.getInternal", { tenantId: a.tenantId, id: ticketId })) as { lastMessage: string }).lastMessage).toBe("outra");
  });

  it("contacts.botCard answers the bot's view of the contact (tags by name) and null for another tenant's", async () => {
    const tagB = await t.api.post("/tags", { name: `Zeta ${uid()}`, color: "#112233" }, a.admin);
    const tagA = await t.api.post("/tags", { name: `Alfa ${uid()}`, color: "#445566" }, a.admin);
    const c = await t.api.post("/contacts", { name: "Ana Souza", email: "ana@example.com", tagIds: [tagB.body.id, tagA.body.id] }, a.admin);
    expect(c.status).toBe(201);
    const card = await t.core.broker.call("contacts.botCard", { tenantId: a.tenantId, id: c.body.id });
    const full = (await t.core.broker.call("contacts.getInternal", { tenantId: a.tenantId, id: c.body.id })) as { name: string; number: string | null; email: string | null; profilePicUrl: string | null; tags: unknown[] };
    expect(card).toEqual({ id: c.body.id, name: full.name, number: full.number, email: full.email, profilePicUrl: full.profilePicUrl, tags: full.tags });
    expect(card).toMatchObject({ email: "ana@example.com", tags: [{ id: tagA.body.id, color: "#445566" }, { id: tagB.body.id, color: "#112233" }] });
    const plain = await t.api.post("/contacts", { name: "Sem Etiqueta" }, a.admin);
    expect(await t.core.broker.call("contacts.botCard", { tenantId: a.tenantId, id: plain.body.id })).toMatchObject({ name: "Sem Etiqueta", tags: [] });
    expect(await t.core.broker.call("contacts.botCard", { tenantId: b.tenantId, id: c.body.id })).toBeNull();
  });
});
