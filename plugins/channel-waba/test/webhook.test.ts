/**
 * Meta's webhook into the real core (gateway stream route, MariaDB, Redis): the verification
 * handshake, the signature over the exact bytes, batches, routing by phone-number id across
 * tenants, and replays stored once (WHATSAPP.md §7.2 items 1–4).
 */
import { createTenant, startCore, type TenantFixture, type TestCore } from "@openatende/core/testkit";
import { FakeGraph } from "./fake-graph";
import { APP_SECRET, connectWaba, LOOPBACK_FAKES, pluginService, settingsFor, messagesOf, newCustomer, sleep, ticketsOf, ticketWithMessages, VERIFY_TOKEN, type WabaConnection } from "./helpers";
import { envelope, messagesValue, metaJson, metaSignature, textMessage } from "./meta-payloads";

describe("WABA webhooks, real core", () => {
  let graph: FakeGraph;
  let t: TestCore;
  let a: TenantFixture;
  let b: TenantFixture;
  let ca: WabaConnection;
  let cb: WabaConnection;

  beforeAll(async () => {
    graph = await FakeGraph.start();
    t = await startCore({ env: LOOPBACK_FAKES });
    a = await createTenant(t, { tier: "PLUS" });
    b = await createTenant(t, { tier: "PLUS" });
    ca = await connectWaba(t, a, graph, { name: "WABA A" });
    cb = await connectWaba(t, b, graph, { name: "WABA B" });
    expect([ca.status, cb.status]).toEqual(["connected", "connected"]);
  });
  afterAll(async () => {
    await t?.stop();
    await graph?.close();
  });

  const one = (c: WabaConnection, messages: unknown[], contacts: Array<{ waId: string; name: string }>) => envelope([{ wabaId: c.number.wabaId, changes: [{ value: messagesValue(c.number.pnid, { contacts, messages }) }] }]);

  describe("verification handshake", () => {
    const get = (c: WabaConnection, q: string) => fetch(`${c.webhook}?${q}`);

    it("answers the exact challenge for the connection's verify token, 403 otherwise, 404 for an unknown URL", async () => {
      const ok = await get(ca, `hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1158201444`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe("1158201444");
      for (const q of [`hub.mode=subscribe&hub.verify_token=wrong-token-123&hub.challenge=1`, `hub.mode=subscribe&hub.challenge=1`, `hub.mode=unsubscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`]) {
        const r = await get(ca, q);
        expect(r.status).toBe(403);
        expect(await r.json()).toMatchObject({ error: "ERR_WABA_VERIFY_TOKEN_MISMATCH" });
      }
      expect((await fetch(`${t.url}/api/waba/${"x".repeat(24)}/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1`)).status).toBe(404);
    });

    it("answers it for a connection saved but not connected yet (Meta checks the URL as soon as it is pasted)", async () => {
      const n = graph.addNumber();
      const made = await t.api.post("/connections", { name: "WABA novo", type: "channel-waba", queueId: a.queueIds[0], settings: settingsFor(graph, n) }, a.admin);
      expect(made.status).toBe(201);
      const r = await fetch(`${t.url}/api/waba/${made.body.token}/webhook?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=abc-123`);
      expect(r.status).toBe(200);
      expect(await r.text()).toBe("abc-123");
      // Its POSTs wait until it is connected: Meta delivers them again.
      const who = newCustomer("Cedo");
      const early = envelope([{ wabaId: n.wabaId, changes: [{ value: messagesValue(n.pnid, { contacts: [who], messages: [textMessage(who, "cedo")] }) }] }]);
      expect((await FakeGraph.deliver(`${t.url}/api/waba/${made.body.token}/webhook`, early, APP_SECRET)).status).toBe(404);
    });
  });

  describe("signature", () => {
    it("a missing, wrong or other app's signature, or a body changed after signing, is refused with 401 and nothing is stored", async () => {
      const who = newCustomer("Ana");
      const payload = one(ca, [textMessage(who, "não devia entrar")], [who]);
      for (const signature of ["wrong", "missing"] as const) {
        const r = await FakeGraph.deliver(ca.webhook, payload, ca.appSecret, { signature });
        expect(r.status).toBe(401);
        expect(r.body).toMatchObject({ error: "ERR_TOKEN_INVALID", data: { reason: "webhook-signature" } });
      }
      const body = metaJson(payload);
      const tampered = body.replace("entrar", "entrou");
      const r = await fetch(ca.webhook, { method: "POST", headers: { "content-type": "application/json", "x-hub-signature-256": metaSignature(body, ca.appSecret) }, body: tampered });
      expect(r.status).toBe(401);
      expect((await FakeGraph.deliver(ca.webhook, payload, "another-apps-secret-0123456789")).status).toBe(401);
      await sleep(300);
      expect(await ticketsOf(t, a.admin, who.name)).toEqual([]);
    });

    it("is checked on the bytes as Meta sends them: escaped unicode and slashes go in intact", async () => {
      const who = { ...newCustomer("Joana"), name: `João Ñandú ${Date.now() % 1000}` };
      const body = metaJson(one(ca, [textMessage(who, "Olá! Preço do pão? 😀 https://x.y/z")], [who]));
      expect(body).toContain("\\u00e3");
      expect(body).toContain("\\/");
      const r = await FakeGraph.deliver(ca.webhook, null, ca.appSecret, { raw: body });
      expect(r).toMatchObject({ status: 200, body: { ok: true, accepted: 1, ignored: 0 } });
      const { messages } = await ticketWithMessages(t, a.admin, who.name, 1);
      expect(messages[0].body).toBe("Olá! Preço do pão? 😀 https://x.y/z");
    });
  });

  describe("batches and routing", () => {
    it("takes every entry and change of a POST, each into the tenant whose number it names", async () => {
      const x = newCustomer("Xavier");
      const y = newCustomer("Yara");
      const z = newCustomer("Zoe");
      // One Meta app serves both numbers: its webhook for B's number may come to A's URL.
      const payload = envelope([
        { wabaId: ca.number.wabaId, changes: [{ value: messagesValue(ca.number.pnid, { contacts: [x], messages: [textMessage(x, "x1"), textMessage(x, "x2")] }) }, { value: messagesValue(ca.number.pnid, { contacts: [y], messages: [textMessage(y, "y1")] }) }] },
        { wabaId: cb.number.wabaId, changes: [{ value: messagesValue(cb.number.pnid, { contacts: [z], messages: [textMessage(z, "z1")] }) }, { field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }] },
      ]);
      const r = await FakeGraph.deliver(ca.webhook, payload, ca.appSecret);
      expect(r).toMatchObject({ status: 200, body: { ok: true, accepted: 3, ignored: 1 } });
      expect((await ticketWithMessages(t, a.admin, x.name, 2)).messages.map((m) => m.body)).toEqual(["x1", "x2"]);
      expect((await ticketWithMessages(t, a.admin, y.name, 1)).messages.map((m) => m.body)).toEqual(["y1"]);
      expect((await ticketWithMessages(t, b.admin, z.name, 1)).messages.map((m) => m.body)).toEqual(["z1"]);
      // Never in the other tenant.
      expect(await ticketsOf(t, b.admin, x.name)).toEqual([]);
      expect(await ticketsOf(t, a.admin, z.name)).toEqual([]);
    });

    it("a change for a number no connection of the signing app serves is dropped, in every tenant", async () => {
      const other = await connectWaba(t, b, graph, { name: "WABA B outro app", settings: { appSecret: "a-different-app-secret-987654321" } });
      const w = newCustomer("Wagner");
      const v = newCustomer("Vera");
      const payload = envelope([
        { wabaId: "1", changes: [{ value: messagesValue(other.number.pnid, { contacts: [w], messages: [textMessage(w, "outro app")] }) }] },
        { wabaId: "2", changes: [{ value: messagesValue("99999999999", { contacts: [v], messages: [textMessage(v, "número desconhecido")] }) }] },
      ]);
      expect(await FakeGraph.deliver(ca.webhook, payload, ca.appSecret)).toMatchObject({ status: 200, body: { accepted: 0, ignored: 2 } });
      // Signed with B's other app, it is still refused at A's URL, whose secret is not that one.
      expect((await FakeGraph.deliver(ca.webhook, payload, other.appSecret)).status).toBe(401);
      // At its own URL, with its own secret, it goes in.
      expect(await FakeGraph.deliver(other.webhook, payload, other.appSecret)).toMatchObject({ status: 200, body: { accepted: 1, ignored: 1 } });
      await ticketWithMessages(t, b.admin, w.name, 1);
      await sleep(300);
      expect(await ticketsOf(t, a.admin, w.name)).toEqual([]);
      for (const f of [a, b]) expect(await ticketsOf(t, f.admin, v.name)).toEqual([]);
    });

    it("a disconnected connection's URL takes nothing (404)", async () => {
      const off = await connectWaba(t, a, graph, { name: "WABA desligado" });
      expect((await t.api.post(`/connections/${off.id}/disconnect`, {}, a.admin)).status).toBe(200);
      const who = newCustomer("Tarde");
      expect((await FakeGraph.deliver(off.webhook, one(off, [textMessage(who, "tarde demais")], [who]), off.appSecret)).status).toBe(404);
    });
  });

  describe("replays", () => {
    it("the same wamid delivered again, and ten times at once, is stored once", async () => {
      const who = newCustomer("Rita");
      const payload = one(ca, [textMessage(who, "mensagem repetida")], [who]);
      expect((await FakeGraph.deliver(ca.webhook, payload, ca.appSecret)).status).toBe(200);
      await ticketWithMessages(t, a.admin, who.name, 1);
      const all = await Promise.all(Array.from({ length: 10 }, () => FakeGraph.deliver(ca.webhook, payload, ca.appSecret)));
      expect(all.map((r) => r.status)).toEqual(Array(10).fill(200));
      const burst = newCustomer("Bruno");
      const burstPayload = one(ca, [textMessage(burst, "rajada")], [burst]);
      await Promise.all(Array.from({ length: 10 }, () => FakeGraph.deliver(ca.webhook, burstPayload, ca.appSecret)));
      await ticketWithMessages(t, a.admin, burst.name, 1);
      await sleep(500);
      const [ticket] = await ticketsOf(t, a.admin, who.name);
      expect(await messagesOf(t, a.admin, ticket.id)).toHaveLength(1);
      expect(await ticketsOf(t, a.admin, burst.name)).toHaveLength(1);
      expect(await messagesOf(t, a.admin, (await ticketsOf(t, a.admin, burst.name))[0].id)).toHaveLength(1);
    });
  });

  describe("accepted, then processed", () => {
    it("a change answered but not finished before a crash is taken up when the connection connects again; finished ones are released", async () => {
      const svc = pluginService(t);
      const ref = { tenantId: a.tenantId, connectionId: ca.id };
      const done = newCustomer("Feito");
      await FakeGraph.deliver(ca.webhook, one(ca, [textMessage(done, "processada")], [done]), ca.appSecret);
      await ticketWithMessages(t, a.admin, done.name, 1);
      await svc.deliveries.idle();
      expect(await svc.channel.opts.store.held(ref)).toEqual([]);
      // What a process killed after answering Meta leaves behind: the change, held.
      const lost = newCustomer("Perdida");
      await svc.channel.opts.store.hold(ref, "crashed-delivery-1", { wabaId: ca.number.wabaId, field: "messages", value: messagesValue(ca.number.pnid, { contacts: [lost], messages: [textMessage(lost, "quase perdida")] }) });
      await sleep(300);
      expect(await ticketsOf(t, a.admin, lost.name)).toEqual([]);
      expect((await t.api.post(`/connections/${ca.id}/connect`, {}, a.admin)).body.status).toBe("connected");
      expect((await ticketWithMessages(t, a.admin, lost.name, 1)).messages.map((m) => m.body)).toEqual(["quase perdida"]);
      await svc.deliveries.idle();
      expect(await svc.channel.opts.store.held(ref)).toEqual([]);
    });
  });
});
