/**
 * GET /messages/count-all (spec §7) — a ticket's or the tenant's messages, by sender and
 * time, never another tenant's, never of a ticket the caller may not see — and the "watch"
 * of spec §4 on GET /messages/{ticketId}: looking at a ticket reads nothing for its holder.
 * Real MariaDB, Redis and the web-chat channel plugin.
 */
import { startCore, createTenant, TestCore, TenantFixture, Auth, Res, PASSWORD, uid } from "./helpers";

function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
}

describe("message counts and watching (MariaDB)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  let agent2: Auth;
  let conn: number;
  const b0 = Date.now() - 3_600_000;

  async function webchat(x: TenantFixture, queueId?: number) {
    const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: { title: "Oi" }, queueId }, x.admin);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, x.admin)).status).toBe(200);
    return c.body.id as number;
  }
  const inbound = async (tenantId: number, connectionId: number, ext: string, ts: number, body = "olá") =>
    ((await t.core.broker.call("channels.inbound", { tenantId, connectionId, providerMessageId: `p-${uid()}`, timestamp: ts, from: { externalId: ext, name: "Cliente" }, body })) as { ticketId: number }).ticketId;
  const count = async (q: string, who: Auth) => t.api.get(`/messages/count-all${q}`, who);

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
    conn = await webchat(f, f.queueIds[0]);
    const email = `a2-${uid()}@t.test`;
    await t.core.broker.call("users.createInternal", { tenantId: f.tenantId, name: "Agent 2", email, password: PASSWORD, profile: "user", queues: [f.queueIds[0]] });
    agent2 = await t.api.login(email);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("counts a ticket's and the tenant's messages, by sender and time; never another tenant's", async () => {
    const ext = `c-${uid()}`;
    const ticket = await inbound(f.tenantId, conn, ext, b0 + 1000);
    await inbound(f.tenantId, conn, ext, b0 + 2000);
    await inbound(f.tenantId, conn, ext, b0 + 3000);
    expect((await t.api.put(`/tickets/${ticket}`, { status: "open" }, f.agent)).status).toBe(200);
    expect((await t.api.post(`/messages/${ticket}`, { body: "resposta" }, f.agent)).status).toBe(201);
    const second = await inbound(f.tenantId, conn, `c-${uid()}`, b0 + 4000);
    const oc = await webchat(other, other.queueIds[0]);
    const foreign = await inbound(other.tenantId, oc, `c-${uid()}`, b0 + 1500);

    expect((await count(`?ticketId=${ticket}`, f.agent)).body).toEqual({ count: 4 });
    expect((await count(`?ticketId=${ticket}&fromMe=true`, f.agent)).body).toEqual({ count: 1 });
    expect((await count(`?ticketId=${ticket}&fromMe=false`, f.agent)).body).toEqual({ count: 3 });
    expect((await count(`?ticketId=${ticket}&dateStart=${b0 + 2000}&dateEnd=${new Date(b0 + 3000).toISOString()}`, f.agent)).body).toEqual({ count: 2 });
    // The whole tenant: admins and supervisors (who see every ticket).
    expect((await count("", f.admin)).body).toEqual({ count: 5 });
    expect((await count("?fromMe=false", f.supervisor)).body).toEqual({ count: 4 });
    expect((await count(`?dateStart=${b0 + 3500}`, f.admin)).body).toEqual({ count: 2 });
    expect((await count("", other.admin)).body).toEqual({ count: 1 });
    // An agent names a ticket they can see.
    expectError(await count("", f.agent), 403, "ERR_NO_PERMISSION");
    expect((await count(`?ticketId=${second}`, agent2)).body).toEqual({ count: 1 });
    // Another tenant's ticket is not found, for anyone.
    expectError(await count(`?ticketId=${foreign}`, f.admin), 404, "ERR_TICKET_NOT_FOUND");
    expectError(await count(`?ticketId=${ticket}`, other.admin), 404, "ERR_TICKET_NOT_FOUND");
    // Bad input is the client's mistake.
    expectError(await count("?dateStart=ontem", f.admin), 400, "ERR_VALIDATION");
    expectError(await count(`?dateStart=${b0 + 5000}&dateEnd=${b0}`, f.admin), 400, "ERR_VALIDATION");
    expectError(await count("?ticketId=abc", f.admin), 400, "ERR_VALIDATION");
  });

  it("a ticket of a queue the agent is not in is not found for them", async () => {
    const c2 = await webchat(f, f.queueIds[1]);
    const ticket = await inbound(f.tenantId, c2, `c-${uid()}`, b0 + 1000);
    expectError(await count(`?ticketId=${ticket}`, f.agent), 404, "ERR_TICKET_NOT_FOUND");
    expect((await count(`?ticketId=${ticket}`, f.admin)).body).toEqual({ count: 1 });
  });

  it("watching (watch=true) reads nothing, even for the holder; other agents and a supervisor looking read nothing either; the holder's normal look reads", async () => {
    const ext = `w-${uid()}`;
    const ticket = await inbound(f.tenantId, conn, ext, Date.now() - 5000);
    expect((await t.api.put(`/tickets/${ticket}`, { status: "open" }, f.agent)).status).toBe(200);
    await inbound(f.tenantId, conn, ext, Date.now() - 4000, "ainda aí?");
    await inbound(f.tenantId, conn, ext, Date.now() - 3000, "alô");
    const unread = async () => (await t.api.get(`/tickets/${ticket}`, f.admin)).body.unreadMessages as number;
    const unreadOnPage = async (who: Auth, q = "") => ((await t.api.get(`/messages/${ticket}${q}`, who)).body.messages as Array<{ fromMe: boolean; read: boolean }>).filter((m) => !m.fromMe && !m.read).length;
    // Accepting zeroed the count but read no message: the first one is still unread on the page.
    expect(await unread()).toBe(2);
    expect(await unreadOnPage(agent2, "?watch=true")).toBe(3);
    expect(await unreadOnPage(f.supervisor)).toBe(3);
    expect(await unreadOnPage(f.agent, "?watch=true")).toBe(3);
    expect(await unread()).toBe(2);
    // The holder opening it normally reads it.
    await t.api.get(`/messages/${ticket}`, f.agent);
    expect(await unread()).toBe(0);
    expect(await unreadOnPage(f.agent, "?watch=true")).toBe(0);
  });
});
