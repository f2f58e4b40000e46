/**
 * Business time in the core API of plugins (platform.businessTime.state, platform.users.availability),
 * called by the fixture probe plugin through the SDK's client: answers of the caller's tenant,
 * another tenant's ids not found, a tenant where the plugin is off refused with the host's code.
 */
import { createTenant, uid, type TestCore, type TenantFixture } from "./helpers";
import { allowPlugins, probeCall, rejection, startWithProbe, PROBE } from "./platform-setup";

/** Local times in São Paulo (UTC-3): 2026-03-02 is a Monday. */
const sp = (date: string, time: string) => Date.parse(`${date}T${time}:00-03:00`);
const day = (m: [string, string], a: [string, string]) => ({ mode: "specific", morning: { start: m[0], end: m[1] }, afternoon: { start: a[0], end: a[1] } });

describe("business time in the core API of plugins (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let scheduleId: number;

  beforeAll(async () => {
    let sup;
    ({ t, sup } = await startWithProbe());
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, sup, x.tenantId);
    const office = day(["08:00", "12:00"], ["13:00", "18:00"]);
    const g = await t.api.put(
      "/business-hours/global",
      { active: true, days: [{ mode: "closed" }, office, office, office, office, office, { mode: "closed" }], messages: { outOfHours: "Voltamos às 8h.", lunch: "Almoço." } },
      a.admin,
    );
    expect(g.status).toBe(200);
    scheduleId = g.body.id;
    const av = await t.api.put(`/availability/${a.agent.userId}`, { days: [[], [{ kind: "morning" }], [], [], [], [], []] }, a.admin);
    expect(av.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("businessTime.state: the tenant's hours at the instant asked", async () => {
    const night = await probeCall(t, "platform.businessTime.state", { tenantId: a.tenantId, target: {}, at: sp("2026-03-02", "20:00") });
    expect(night).toEqual({
      open: false,
      reason: "closed",
      message: "Voltamos às 8h.",
      scheduleId,
      holidayId: null,
      period: sp("2026-03-03", "08:00"),
      nextOpenAt: sp("2026-03-03", "08:00"),
      openWithin24h: true,
      nextDayHasHours: true,
    });
    const lunch = await probeCall(t, "platform.businessTime.state", { tenantId: a.tenantId, target: { queueId: a.queueIds[0], userId: a.agent.userId }, at: sp("2026-03-02", "12:15") });
    expect(lunch).toMatchObject({ open: false, reason: "lunch", message: "Almoço." });
    // Without `at`: now, by the core's clock (an answer of the right shape either way).
    const now = await probeCall(t, "platform.businessTime.state", { tenantId: a.tenantId, target: {} });
    expect(typeof now.open).toBe("boolean");
    // Tenant B has no schedule: always open.
    expect(await probeCall(t, "platform.businessTime.state", { tenantId: b.tenantId, target: {}, at: sp("2026-03-02", "20:00") })).toMatchObject({ open: true, reason: "unscheduled" });
  });

  it("businessTime.state: another tenant's queue, user or connection is not found", async () => {
    const at = sp("2026-03-02", "10:00");
    expect((await rejection(probeCall(t, "platform.businessTime.state", { tenantId: a.tenantId, target: { queueId: b.queueIds[0] }, at }))).type).toBe("ERR_QUEUE_NOT_FOUND");
    expect((await rejection(probeCall(t, "platform.businessTime.state", { tenantId: a.tenantId, target: { userId: b.agent.userId }, at }))).type).toBe("ERR_USER_NOT_FOUND");
    const c = await t.api.post("/connections", { name: `BT ${uid()}`, type: "channel-webchat" }, b.admin);
    expect(c.status).toBe(201);
    expect((await rejection(probeCall(t, "platform.businessTime.state", { tenantId: a.tenantId, target: { connectionId: c.body.id }, at }))).type).toBe("ERR_CONNECTION_NOT_FOUND");
  });

  it("users.availability: a user's days, null when never set, another tenant's user not found", async () => {
    expect(await probeCall(t, "platform.users.availability", { tenantId: a.tenantId, userId: a.agent.userId })).toEqual([
      [],
      [{ kind: "morning", start: "08:00", end: "12:00" }],
      [],
      [],
      [],
      [],
      [],
    ]);
    expect(await probeCall(t, "platform.users.availability", { tenantId: a.tenantId, userId: a.supervisor.userId })).toBeNull();
    expect((await rejection(probeCall(t, "platform.users.availability", { tenantId: b.tenantId, userId: a.agent.userId }))).type).toBe("ERR_USER_NOT_FOUND");
  });

  it("a tenant where the plugin is switched off is refused; a call that names no plugin too", async () => {
    expect((await t.api.put(`/plugins/${PROBE}/enabled`, { enabled: false }, b.admin)).status).toBe(200);
    const off = await rejection(probeCall(t, "platform.businessTime.state", { tenantId: b.tenantId, target: {} }));
    expect(off.type).toBe("ERR_PLUGIN_DISABLED");
    expect((await rejection(probeCall(t, "platform.users.availability", { tenantId: b.tenantId, userId: b.agent.userId }))).type).toBe("ERR_PLUGIN_DISABLED");
    expect((await rejection(t.core.broker.call("platform.businessTime.state", { tenantId: a.tenantId, target: {} }))).type).toBe("ERR_NO_PERMISSION");
  });
});
