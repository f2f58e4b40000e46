/**
 * Read receipts (issue 11): when the agent holding a ticket opens it, the core hands the
 * provider ids of the customer's unread messages to the connection's channel (`markRead`,
 * declared by the fixture's manifest with `receipts`), without waiting on it nor failing the
 * list. Real core on MariaDB with its plugin host scanning the fixture plugins.
 */
import * as path from "node:path";
import type { Service } from "moleculer";
import type { MarkReadParams } from "@openatende/plugin-sdk";
import { startCore, createTenant, createSuper, uid, TestCore, TenantFixture, Auth } from "./helpers";
import { createPluginsService } from "../src/plugins/plugins.service";

const FIXTURES = path.join(__dirname, "fixtures-plugins");
const AS_FIXTURE = { caller: "v2.channel-fixture" } as never;

async function startWithFixtures(): Promise<TestCore> {
  const t = await startCore({ env: { SERVICES: "api,core" } });
  const svc: Service = t.core.broker.createService(createPluginsService(t.core.deps, { pluginDirs: [FIXTURES], startTimeoutMs: 5000 }));
  jest.spyOn(svc.logger, "warn").mockImplementation(() => undefined);
  await t.core.broker.waitForServices(["plugins"], 30_000);
  for (let i = 0; i < 100; i++) {
    const aliases = (await t.core.broker.call("api.listAliases")) as Array<{ actionName: string }>;
    if (["plugins.setAllowed", "connections.create", "messages.list"].every((n) => aliases.some((a) => a.actionName === n))) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return t;
}

describe("read receipts (MariaDB)", () => {
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  const conns = new Map<number, number>();
  const warnings: string[] = [];

  const receipts = async (f: TenantFixture) => (await t.core.broker.call("v2.channel-fixture.receipts", { tenantId: f.tenantId })) as MarkReadParams[];
  const receiptsTo = async (f: TenantFixture, externalId: string) => (await receipts(f)).filter((r) => r.to.externalId === externalId);
  const waitFor = async (cond: () => Promise<boolean>) => {
    for (const t0 = Date.now(); !(await cond()); ) {
      if (Date.now() - t0 > 5000) throw new Error("condition not met in time ");
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const inbound = (f: TenantFixture, externalId: string, extra: Record<string, unknown> = {}) => {
    const providerMessageId = `rr-${uid()}${uid()}`;
    return t.core.broker
      .call("channels.inbound", { tenantId: f.tenantId, connectionId: conns.get(f.tenantId), providerMessageId, timestamp: Date.now(), from: { externalId }, body: "olá", ...extra }, AS_FIXTURE)
      .then((r) => ({ ...(r as { ticketId: number; messageId: number }), providerMessageId }));
  };
  const list = (ticketId: number, who: Auth) => t.api.get<{ messages: Array<{ id: number; read: boolean; fromMe: boolean }> }>(`/messages/${ticketId}`, who);
  const accept = async (ticketId: number, who: Auth) => expect((await t.api.put(`/tickets/${ticketId}`, { status: "open" }, who)).status).toBe(200);
  const unreadOf = async (ticketId: number, who: Auth) => (await t.api.get<{ unreadMessages: number }>(`/tickets/${ticketId}`, who)).body.unreadMessages;
  /**
   * A ticket the admin holds with `n` unread messages of the customer. (Accepting zeroes the
   * ticket's unread count, so the customer writes again after it.)
   */
  const held = async (f: TenantFixture, ext: string) => {
    const first = await inbound(f, ext);
    await accept(first.ticketId, f.admin);
    return first;
  };
  /** A holder's open of a ticket of its own, its receipt awaited: every receipt started before it has been handed over too. */
  const fence = async (f: TenantFixture) => {
    const ext = `fence-${uid()}`;
    const { ticketId } = await held(f, ext);
    await inbound(f, ext);
    await list(ticketId, f.admin);
    await waitFor(async () => (await receiptsTo(f, ext)).length === 1);
  };

  beforeAll(async () => {
    t = await startWithFixtures();
    [a, b] = await Promise.all([createTenant(t, { tier: "PLUS" }), createTenant(t, { tier: "PLUS" })]);
    const sup = await createSuper(t);
    for (const f of [a, b]) {
      expect((await t.api.put(`/plugins/channel-fixture/tenants/${f.tenantId}`, { allowed: true }, sup)).status).toBe(200);
      const c = await t.api.post<{ id: number }>("/connections", { type: "channel-fixture", name: `Fixture ${uid()}`, settings: { greeting: "Olá" } }, f.admin);
      expect(c.status).toBe(201);
      conns.set(f.tenantId, c.body.id);
      expect((await t.api.post(`/connections/${c.body.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    }
    const messages = t.core.broker.getLocalService("messages") as Service;
    jest.spyOn(messages.logger, "warn").mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(" ")));
  });
  afterAll(async () => {
    await t?.stop();
  });

  it("accepted and then opened, with no new message: what the customer wrote before the accept is read and handed over", async () => {
    const ext = `acc-${uid()}`;
    const first = await inbound(a, ext);
    const second = await inbound(a, ext, { body: "alguém?" });
    await accept(first.ticketId, a.admin);
    expect(await unreadOf(first.ticketId, a.admin)).toBe(0);
    const opened = await list(first.ticketId, a.admin);
    expect(opened.status).toBe(200);
    await waitFor(async () => (await receiptsTo(a, ext)).length > 0);
    expect((await receiptsTo(a, ext)).map((r) => r.providerMessageIds)).toEqual([[first.providerMessageId, second.providerMessageId]]);
    expect((await list(first.ticketId, a.admin)).body.messages.filter((m) => !m.fromMe).every((m) => m.read)).toBe(true);
  });

  it("the holder's first open hands the customer's unread ids over once, oldest first; a supervisor looking in hands none", async () => {
    const ext = `cust-${uid()}`;
    // The customer writes while the ticket waits, again once the admin holds it.
    const first = await inbound(a, ext);
    expect((await list(first.ticketId, a.supervisor)).status).toBe(200);
    await accept(first.ticketId, a.admin);
    const second = await inbound(a, ext, { body: "tem?" });
    // Written on the account's phone: already read, not the customer's.
    await inbound(a, ext, { fromMe: true, body: "do celular" });
    const third = await inbound(a, ext, { body: "alô?" });
    expect(new Set([first.ticketId, second.ticketId, third.ticketId]).size).toBe(1);
    const ticketId = first.ticketId;

    expect((await list(ticketId, a.supervisor)).status).toBe(200);
    await fence(a);
    expect(await receiptsTo(a, ext)).toEqual([]);
    // The phone's reply zeroed the count; the customer's third message made it one again.
    expect(await unreadOf(ticketId, a.admin)).toBe(1);

    const opened = await list(ticketId, a.admin);
    expect(opened.status).toBe(200);
    await waitFor(async () => (await receiptsTo(a, ext)).length > 0);
    expect(await receiptsTo(a, ext)).toEqual([
      { tenantId: a.tenantId, connectionId: conns.get(a.tenantId), to: { externalId: ext }, providerMessageIds: [first.providerMessageId, second.providerMessageId, third.providerMessageId] },
    ]);

    // Opened again: nothing is unread, nothing more is handed over.
    expect((await list(ticketId, a.admin)).status).toBe(200);
    await fence(a);
    expect(await receiptsTo(a, ext)).toHaveLength(1);
    expect((await receipts(b)).filter((r) => r.to.externalId === ext)).toEqual([]);
  });

  it("the list answers, read, when the channel's markRead throws; the failure is only logged", async () => {
    const ext = `refuse-${uid()}`;
    const first = await held(a, ext);
    const m = await inbound(a, ext);
    const opened = await list(m.ticketId, a.admin);
    expect(opened.status).toBe(200);
    expect(opened.body.messages.map((x) => x.id)).toEqual([first.messageId, m.messageId]);
    await waitFor(async () => warnings.some((w) => w.includes(`ticket ${m.ticketId}: read receipts not handed`)));
    expect(await receiptsTo(a, ext)).toEqual([expect.objectContaining({ providerMessageIds: [first.providerMessageId, m.providerMessageId] })]);
    expect((await list(m.ticketId, a.admin)).body.messages.map((x) => x.read)).toEqual([true, true]);
    expect(await unreadOf(m.ticketId, a.admin)).toBe(0);
  });

  it("another tenant's holder opening its own ticket hands its ids to its own connection only", async () => {
    const ext = `cust-${uid()}`;
    const first = await held(b, ext);
    const m = await inbound(b, ext);
    expect((await list(m.ticketId, a.admin)).status).toBe(404);
    await list(m.ticketId, b.admin);
    await waitFor(async () => (await receiptsTo(b, ext)).length === 1);
    expect(await receiptsTo(b, ext)).toEqual([{ tenantId: b.tenantId, connectionId: conns.get(b.tenantId), to: { externalId: ext }, providerMessageIds: [first.providerMessageId, m.providerMessageId] }]);
    expect(await receiptsTo(a, ext)).toEqual([]);
  });
});
