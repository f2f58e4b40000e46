/**
 * platform.connections.balance (channel contract 1.4 `balance`) on a real core: a plugin asks
 * the credits of its tenant's connection; a channel that declares no `balance` is
 * ERR_CHANNEL_UNSUPPORTED, another tenant's connection (or none) ERR_CONNECTION_NOT_FOUND, and
 * the channel plugin is never asked for them. The answer of a channel that has it is tested with
 * the SMS channel (plugins/campaign-sms/test).
 */
import { createTenant, type TestCore, type TenantFixture, type Auth } from "./helpers";
import { allowPlugins, fixtureConnection, probeCall, rejection, startWithProbe } from "./platform-setup";

describe("core API: a connection's credits at its provider", () => {
  let t: TestCore;
  let sup: Auth;
  let a: TenantFixture;
  let b: TenantFixture;
  let aConn: number;
  let bConn: number;

  beforeAll(async () => {
    ({ t, sup } = await startWithProbe());
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    for (const x of [a, b]) await allowPlugins(t, sup, x.tenantId);
    aConn = await fixtureConnection(t, a);
    bConn = await fixtureConnection(t, b);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
  });

  it("refuses a channel without balance, another tenant's connection and an unknown one", async () => {
    const unsupported = await rejection(probeCall(t, "platform.connections.balance", { tenantId: a.tenantId, connectionId: aConn }));
    expect({ type: unsupported.type, code: unsupported.code, kind: unsupported.data?.kind }).toEqual({ type: "ERR_CHANNEL_UNSUPPORTED", code: 400, kind: "balance" });
    const foreign = await rejection(probeCall(t, "platform.connections.balance", { tenantId: a.tenantId, connectionId: bConn }));
    expect({ type: foreign.type, code: foreign.code }).toEqual({ type: "ERR_CONNECTION_NOT_FOUND", code: 404 });
    expect((await rejection(probeCall(t, "platform.connections.balance", { tenantId: a.tenantId, connectionId: 2_000_000_000 }))).type).toBe("ERR_CONNECTION_NOT_FOUND");
    // B's own connection is B's: the same refusal as A's, not a not-found.
    expect((await rejection(probeCall(t, "platform.connections.balance", { tenantId: b.tenantId, connectionId: bConn }))).type).toBe("ERR_CHANNEL_UNSUPPORTED");
  });

  it("is a validation error without a connection id", async () => {
    const r = await rejection(probeCall(t, "platform.connections.balance", { tenantId: a.tenantId } as never));
    expect(r.type).toBe("VALIDATION_ERROR");
  });
});
