/**
 * The widget's public routes are rate limited per address, per visitor and per connection
 * (issue 12: 200 new sessions and messages from one address in one burst were all accepted,
 * each a new contact and ticket). A burst is cut with 429 ERR_RATE_LIMITED and Retry-After,
 * and the tenant's agents' lists answer quickly meanwhile.
 */
import { randomUUID } from "node:crypto";
import { startCore, createTenant, TestCore, TenantFixture, Res } from "@openatende/core/testkit";
import { WEBCHAT_LIMITS } from "../src/service";

describe("web chat: rate limits", () => {
  let t: TestCore;
  let f: TenantFixture;
  let token: string;

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    const c = await t.api.post("/connections", { name: "Loja", type: "channel-webchat", queueId: f.queueIds[0], settings: {} }, f.admin);
    expect(c.status).toBe(201);
    token = c.body.token;
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).body.status).toBe("connected");
  });
  afterAll(async () => {
    await t?.stop();
  });

  function expectLimited(r: Res) {
    expect(r.status).toBe(429);
    expect(r.body.error).toBe("ERR_RATE_LIMITED");
    expect(typeof r.body.message).toBe("string");
    expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
  }

  it("a burst of 200 new sessions from one address is cut at the address's limit", async () => {
    const rs = await Promise.all(Array.from({ length: 200 }, () => t.api.post(`/webchat/${token}/session`, {})));
    const ok = rs.filter((r) => r.status === 200);
    expect(ok.length).toBe(WEBCHAT_LIMITS.sessionsPerAddress);
    const refused = rs.filter((r) => r.status !== 200);
    expect(refused.length).toBe(200 - WEBCHAT_LIMITS.sessionsPerAddress);
    for (const r of refused) expectLimited(r);
  });

  it("a burst of 200 messages from new visitors is cut, few tickets are opened, and an agent's list stays quick", async () => {
    const pending = async () => {
      const [rows] = (await t.core.sequelize.query("SELECT COUNT(*) AS n FROM tickets WHERE tenantId = ?", { replacements: [f.tenantId] })) as [Array<{ n: number }>, unknown];
      return Number(rows[0]!.n);
    };
    const before = await pending();
    const burst = Promise.all(
      Array.from({ length: 200 }, (_, i) => t.api.post(`/webchat/${token}/messages`, { visitorId: randomUUID(), body: `spam ${i}`, clientMessageId: `m${i}` })),
    );
    // The agent's list, while the burst is being answered.
    const started = Date.now();
    const list = await t.api.get("/tickets?status=pending", f.agent);
    const listMs = Date.now() - started;
    const rs = await burst;
    const burstMs = Date.now() - started;
    expect(list.status).toBe(200);
    // Not queued behind the flood: answered long before the burst is (absolute times mean
    // little on a loaded test machine; the quiet list below is checked in time).
    expect(listMs).toBeLessThan(burstMs / 2);
    const created = rs.filter((r) => r.status === 201);
    expect(created.length).toBe(WEBCHAT_LIMITS.messagesPerAddress);
    for (const r of rs.filter((x) => x.status !== 201)) expectLimited(r);
    expect((await pending()) - before).toBe(WEBCHAT_LIMITS.messagesPerAddress);
    // And after the burst, quick again.
    const again = Date.now();
    expect((await t.api.get("/tickets?status=pending", f.agent)).status).toBe(200);
    expect(Date.now() - again).toBeLessThan(2000);
  });

  it("polls and the widget's other routes of the limited address are refused too, other connections' visitors are not concerned by the token's count", async () => {
    expectLimited(await t.api.post(`/webchat/${token}/session`, {}));
    // The per-connection counters are the token's own: another connection is not limited by this one's.
    const c = await t.api.post("/connections", { name: "Outra", type: "channel-webchat", queueId: f.queueIds[0], settings: {} }, f.admin);
    expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).status).toBe(200);
    // Same address: still limited (the address's count spans connections).
    expectLimited(await t.api.post(`/webchat/${c.body.token}/session`, {}));
  });
});
