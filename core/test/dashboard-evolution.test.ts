/**
 * GET /dashboard/evolution on both databases: tickets created per day and per connection,
 * resolved per day, resolution time per user, the tenant's calendar day, the agent's scope,
 * the period's checks and tenant isolation.
 */
import { startCore, createTenant, TestCore, TenantFixture, Dialect, DIALECTS, uid } from "./helpers";
import { daysBetween, tzOffsetMinutes } from "../src/dashboard/evolution";

async function connectWebchat(t: TestCore, f: TenantFixture, queueId: number, name: string) {
  const c = await t.api.post("/connections", { name, type: "channel-webchat", settings: {}, queueId }, f.admin);
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
    body: "oi",
  })) as { ticketId: number };
  return r.ticketId;
}

/** Today in São Paulo (the tenants' default time zone), as the API counts days. */
const spToday = () => new Date(Date.now() + tzOffsetMinutes("America/Sao_Paulo", new Date()) * 60_000).toISOString().slice(0, 10);

describe("time zones and days", () => {
  it("knows São Paulo's offset and lists a period's days", () => {
    expect(tzOffsetMinutes("America/Sao_Paulo", new Date("2025-06-01T12:00:00Z"))).toBe(-180);
    expect(tzOffsetMinutes("UTC", new Date())).toBe(0);
    expect(tzOffsetMinutes("Not/AZone", new Date())).toBe(0);
    expect(daysBetween("2025-02-27", "2025-03-02")).toEqual(["2025-02-27", "2025-02-28", "2025-03-01", "2025-03-02"]);
  });
});

describe.each(DIALECTS as Dialect[])("dashboard evolution (%s)", (dialect) => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let site: { id: number };
  let shop: { id: number };

  beforeAll(async () => {
    t = await startCore({ dialect });
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    site = await connectWebchat(t, a, a.queueIds[0], "Site");
    shop = await connectWebchat(t, a, a.queueIds[1], "Loja");
    // Site: 3 tickets, two resolved by the agent; Loja: 1 waiting.
    const s1 = await inbound(t, a.tenantId, site.id);
    const s2 = await inbound(t, a.tenantId, site.id);
    await inbound(t, a.tenantId, site.id);
    await inbound(t, a.tenantId, shop.id);
    for (const id of [s1, s2]) {
      expect((await t.api.put(`/tickets/${id}`, { status: "open" }, a.agent)).status).toBe(200);
      expect((await t.api.put(`/tickets/${id}`, { status: "closed" }, a.agent)).status).toBe(200);
    }
    const bConn = await connectWebchat(t, b, b.queueIds[0], "Site B");
    await inbound(t, b.tenantId, bConn.id);
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("counts today's tickets per day and per connection, resolved ones and their time", async () => {
    const r = await t.api.get("/dashboard/evolution", a.admin);
    expect(r.status).toBe(200);
    expect(r.body.scope).toBe("tenant");
    expect(r.body.period.timezone).toBe("America/Sao_Paulo");
    expect(r.body.period.days).toHaveLength(7);
    const today = spToday();
    expect(r.body.period.to).toBe(today);
    const last = r.body.daily[r.body.daily.length - 1];
    expect(last).toEqual({ date: today, created: 4, closed: 2 });
    expect(r.body.daily.slice(0, -1).every((d: any) => d.created === 0 && d.closed === 0)).toBe(true);
    expect(r.body.byConnection.map((c: any) => [c.name, c.total, c.daily[6]])).toEqual([
      ["Site", 3, 3],
      ["Loja", 1, 1],
    ]);
    expect(r.body.byConnection[0].type).toBe("channel-webchat");
    const agent = r.body.handle.find((h: any) => h.userId === a.agent.userId);
    expect(agent.closed).toBe(2);
    expect(agent.avgHandleSeconds).toBeGreaterThanOrEqual(0);
    expect(agent.avgHandleSeconds).toBeLessThan(600);
    expect(r.body.avgHandleSeconds).toBe(agent.avgHandleSeconds);
  });

  it("a period without the tickets counts nothing; bad periods are refused", async () => {
    const r = await t.api.get("/dashboard/evolution?dateFrom=2024-01-01&dateTo=2024-01-31", a.admin);
    expect(r.status).toBe(200);
    expect(r.body.period.days).toHaveLength(31);
    expect(r.body.daily.reduce((s: number, d: any) => s + d.created + d.closed, 0)).toBe(0);
    expect(r.body.byConnection).toEqual([]);
    expect(r.body.avgHandleSeconds).toBeNull();
    for (const q of ["dateFrom=2024-02-01&dateTo=2024-01-01", "dateFrom=2024-01-01&dateTo=2024-12-31", "dateFrom=ontem", "dateTo=2024-13-45"]) {
      const bad = await t.api.get(`/dashboard/evolution?${q}`, a.admin);
      expect([q, bad.status, bad.body.error]).toEqual([q, 400, "ERR_VALIDATION"]);
    }
  });

  it("an agent sees their own and their queues' tickets; another tenant sees its own", async () => {
    // The agent belongs to the Site queue only.
    const mine = await t.api.get("/dashboard/evolution", a.agent);
    expect(mine.body.scope).toBe("mine");
    expect(mine.body.byConnection.map((c: any) => c.name)).toEqual(["Site"]);
    const other = await t.api.get("/dashboard/evolution", b.admin);
    expect(other.body.byConnection.map((c: any) => [c.name, c.total])).toEqual([["Site B", 1]]);
    expect((await t.api.get("/dashboard/evolution")).status).toBe(401);
  });
});
