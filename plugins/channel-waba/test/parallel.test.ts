/**
 * Webhook changes handed to the real core side by side: many customers at once within a bound,
 * each customer's messages in the order written (a slow file not overtaken by the text after
 * it), a status that comes before its send's answer still applied without holding anyone
 * back, and a change held in Redis until its last part is in; held changes taken up again in
 * the order they came.
 */
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { heldId, LANES_PER_CONNECTION } from "@openatende/whatsapp-cloud";
import { FakeGraph } from "./fake-graph";
import { connectWaba, LOOPBACK_FAKES, messagesOf, newCustomer, pluginService, ticketWithMessages, waitFor, type WabaConnection } from "./helpers";
import { envelope, mediaMessage, messagesValue, status, textMessage, type Customer } from "./meta-payloads";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

describe("WABA webhook changes in lanes, real core", () => {
  let graph: FakeGraph;
  let t: TestCore;
  let f: TenantFixture;
  let c: WabaConnection;
  const ref = () => ({ tenantId: f.tenantId, connectionId: c.id });

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    f = await createTenant(t, { tier: "PLUS" });
    c = await connectWaba(t, f, graph, { name: "WABA paralelo" });
  });
  afterAll(async () => {
    graph.beforeAnswer = null;
    await t?.stop();
    await graph?.close();
  });

  const value = (parts: { contacts?: Customer[]; messages?: unknown[]; statuses?: unknown[] }) => ({ value: messagesValue(c.number.pnid, parts) });

  it("many customers go in side by side, at most LANES_PER_CONNECTION at once, each customer's messages in the order written", async () => {
    const svc = pluginService(t);
    const customers = Array.from({ length: 16 }, (_, i) => newCustomer(`Fila${i}`));
    const expected = new Map<string, string[]>(customers.map((x) => [x.name, []]));
    for (let round = 0; round < 3; round++) {
      // Two changes per POST, two messages of every customer in each; in round 0 the first of half of them is a file (slower).
      const changes = [0, 1].map((ch) =>
        value({
          contacts: customers,
          messages: customers.flatMap((x, i) =>
            [0, 1].map((k) => {
              const body = `r${round}c${ch}m${k}`;
              expected.get(x.name)!.push(body);
              if (round === 0 && ch === 0 && k === 0 && i % 2 === 0) return mediaMessage(x, "image", { id: graph.addMedia(c.number, PNG, "image/png"), mime_type: "image/png", caption: body });
              return textMessage(x, body);
            }),
          ),
        }),
      );
      const r = await FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes }]), c.appSecret);
      expect(r).toMatchObject({ status: 200, body: { ok: true, accepted: 2, ignored: 0 } });
    }
    await svc.deliveries.idle();
    for (const x of customers) {
      const { messages } = await ticketWithMessages(t, f.admin, x.name, 12);
      expect(messages.map((m) => m.body)).toEqual(expected.get(x.name));
    }
    expect(svc.deliveries.peak).toBeGreaterThan(1);
    expect(svc.deliveries.peak).toBeLessThanOrEqual(LANES_PER_CONNECTION);
    expect(await svc.channel.opts.store.held(ref())).toEqual([]);
  });

  it("a status before its send's answer is applied once the send is recorded; the change stays held until then, the customers beside it do not wait", async () => {
    const svc = pluginService(t);
    const who = newCustomer("Status");
    await FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes: [value({ contacts: [who], messages: [textMessage(who, "oi")] })] }]), c.appSecret);
    const { ticket } = await ticketWithMessages(t, f.admin, who.name, 1);
    await svc.deliveries.idle();
    const beside = newCustomer("Ao lado");
    let early = "";
    graph.beforeAnswer = async (wamid) => {
      graph.beforeAnswer = null;
      early = wamid;
      // Meta's statuses of the send, and another customer's message, before the send's answer.
      const r = await FakeGraph.deliver(c.webhook, envelope([{ wabaId: c.number.wabaId, changes: [value({ contacts: [beside], messages: [textMessage(beside, "não espero")], statuses: [status(wamid, who.waId, "sent"), status(wamid, who.waId, "delivered")] })] }]), c.appSecret);
      expect(r.status).toBe(200);
      // Stored before the status's first wait (1 s) is over, while the status waits.
      await ticketWithMessages(t, f.admin, beside.name, 1, 900);
      const held = await svc.channel.opts.store.held(ref());
      expect(held).toHaveLength(1);
      expect(JSON.stringify(held[0].change)).toContain(wamid);
    };
    const sent = await t.api.post(`/messages/${ticket.id}`, { body: "resposta" }, f.agent);
    expect(sent.body).toMatchObject({ status: "sent", providerId: early });
    await waitFor("the early status", async () => (await messagesOf(t, f.admin, ticket.id)).find((m) => m.providerId === early)?.status === "delivered");
    await svc.deliveries.idle();
    expect(await svc.channel.opts.store.held(ref())).toEqual([]);
  });

  it("held changes are taken up again in the order they were accepted", async () => {
    const svc = pluginService(t);
    const who = newCustomer("Ordem");
    const change = (body: string) => ({ wabaId: c.number.wabaId, field: "messages", value: messagesValue(c.number.pnid, { contacts: [who], messages: [textMessage(who, body)] }) });
    const t0 = Date.now() - 60_000;
    // Written to Redis in the other order (a hash gives them back as written).
    await svc.channel.opts.store.hold(ref(), heldId(t0 + 2), change("terceira"));
    await svc.channel.opts.store.hold(ref(), heldId(t0 + 1), change("segunda"));
    await svc.channel.opts.store.hold(ref(), heldId(t0), change("primeira"));
    expect((await t.api.post(`/connections/${c.id}/connect`, {}, f.admin)).body.status).toBe("connected");
    const { messages } = await ticketWithMessages(t, f.admin, who.name, 3);
    expect(messages.map((m) => m.body)).toEqual(["primeira", "segunda", "terceira"]);
    await svc.deliveries.idle();
    expect(await svc.channel.opts.store.held(ref())).toEqual([]);
  });

  it("a held id sorts by the time it was accepted, and within one millisecond by the order it was made", () => {
    expect([heldId(1_000_000_000_001), heldId(999), heldId(1_000_000_000_000)].sort().map((id) => parseInt(id.split("-")[0], 36))).toEqual([999, 1_000_000_000_000, 1_000_000_000_001]);
    const same = Array.from({ length: 50 }, () => heldId(1_000_000_000_000));
    expect([...same].sort()).toEqual(same);
  });
});
