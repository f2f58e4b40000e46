/**
 * Dashboard figures (GET /dashboard/tickets): counts by status, queue and user from real
 * tickets, the period for closed ones, the agent's narrower scope, tenant isolation.
 */
import { startCore, createTenant, TestCore, TenantFixture, Auth, PASSWORD, uid } from "./helpers";

async function connectWebchat(t: TestCore, f: TenantFixture, queueId: number) {
  const c = await t.api.post("/connections", { name: `Site ${uid()}`, type: "channel-webchat", settings: {}, queueId }, f.admin);
  expect(c.status).toBe(201);
  expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
  return c.body as { id: number };
}

async function inbound(t: TestCore, tenantId: number, connectionId: number): Promise<number> {
  const ext = `ext-${uid()}`;
  const r = (await t.core.broker.call("channels.inbound", {
    tenantId,
    connectionId,
    providerMessageId: `p-${uid()}`,
    timestamp: Date.now(),
    from: { externalId: ext, name: `Cliente ${ext}` },
    body: "olá",
  })) as { ticketId: number };
  return r.ticketId;
}

describe("dashboard", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let sales: Auth;

  beforeAll(async () => {
    t = await startCore();
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    const support = await connectWebchat(t, a, a.queueIds[0]);
    const vendas = await connectWebchat(t, a, a.queueIds[1]);
    const email = `sales-${uid()}@t.test`;
    await t.core.broker.call("users.createInternal", { tenantId: a.tenantId, name: "Sales", email, password: PASSWORD, profile: "user", queues: [a.queueIds[1]] });
    sales = await t.api.login(email);

    // Support: 3 tickets — one accepted by the agent, one resolved, one waiting.
    const s1 = await inbound(t, a.tenantId, support.id);
    const s2 = await inbound(t, a.tenantId, support.id);
    await inbound(t, a.tenantId, support.id);
    expect((await t.api.put(`/tickets/${s1}`, { status: "open" }, a.agent)).status).toBe(200);
    expect((await t.api.put(`/tickets/${s2}`, { status: "open" }, a.agent)).status).toBe(200);
    expect((await t.api.put(`/tickets/${s2}`, { status: "closed" }, a.agent)).status).toBe(200);
    // Vendas: 2 waiting.
    await inbound(t, a.tenantId, vendas.id);
    await inbound(t, a.tenantId, vendas.id);
    // Tenant B has its own ticket, never counted for A.
    const bConn = await connectWebchat(t, b, b.queueIds[0]);
    await inbound(t, b.tenantId, bConn.id);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("an admin sees the tenant's tickets by status, by queue and by user", async () => {
    const r = await t.api.get("/dashboard/tickets", a.admin);
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe("tenant");
    expect(r.body.byStatus).toMatchObject({ open: 1, pending: 3, closed: 1 });
    expect(r.body.total).toBe(5);
    const support = r.body.byQueue.find((q: any) => q.queueId === a.queueIds[0]);
    const vendas = r.body.byQueue.find((q: any) => q.queueId === a.queueIds[1]);
    expect(support).toMatchObject({ name: "Suporte", total: 3, counts: { open: 1, pending: 1, closed: 1 } });
    expect(vendas).toMatchObject({ name: "Vendas", total: 2, counts: { pending: 2 } });
    const agent = r.body.byUser.find((u: any) => u.userId === a.agent.userId);
    expect(agent).toMatchObject({ name: "Agent", counts: { open: 1, closed: 1 } });
    const unassigned = r.body.byUser.find((u: any) => u.userId === null);
    expect(unassigned.counts.pending).toBe(3);
  });

  it("closed tickets count inside the period only", async () => {
    const future = new Date(Date.now() + 86400_000).toISOString();
    const later = new Date(Date.now() + 2 * 86400_000).toISOString();
    const r = await t.api.get(`/dashboard/tickets?dateFrom=${encodeURIComponent(future)}&dateTo=${encodeURIComponent(later)}`, a.admin);
    expect(r.status).toBe(200);
    expect(r.body.byStatus).toMatchObject({ open: 1, pending: 3, closed: 0 });
    const bad = await t.api.get(`/dashboard/tickets?dateFrom=${encodeURIComponent(later)}&dateTo=${encodeURIComponent(future)}`, a.admin);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("ERR_VALIDATION");
    const junk = await t.api.get(`/dashboard/tickets?dateFrom=yesterday-ish`, a.admin);
    expect(junk.status).toBe(400);
  });

  it("an agent sees only their queues and their own tickets", async () => {
    const r = await t.api.get("/dashboard/tickets", sales);
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe("mine");
    expect(r.body.byStatus).toMatchObject({ open: 0, pending: 2, closed: 0 });
    expect(r.body.byQueue.map((q: any) => q.queueId)).toEqual([a.queueIds[1]]);
  });

  it("another tenant's figures are its own", async () => {
    const r = await t.api.get("/dashboard/tickets", b.admin);
    expect(r.body.total).toBe(1);
    expect(r.body.byQueue.map((q: any) => q.queueId)).toEqual([b.queueIds[0]]);
    expect((await t.api.get("/dashboard/tickets")).status).toBe(401);
  });
});
